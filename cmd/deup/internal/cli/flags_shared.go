package cli

import (
	"flag"
	"fmt"
	"math"
	"strconv"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/surrogate"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

// The flags below are declared alike by several commands: one helper (or
// usage text) each, so that every command states them in one line with one
// help text. screenFlag is --screen of the commands that default to the
// embedded synthetic screen (bench, ood, train, campaign init and
// simulate); epochsFlag, patienceFlag, passesFlag and membersFlag serve
// bench and train, whose defaults on a panel they state
// (ood has its own defaults, and no ensemble-nll); seedsFlags is --seeds N
// with --seed S of the experiments repeated over seeds S..S+N-1 (bench,
// ood).

func screenFlag(fs *flag.FlagSet) *string {
	return fs.String("screen", "", "screen directory (default: the synthetic default screen)")
}
func scoreFlag(fs *flag.FlagSet) *string {
	return fs.String("score", "", "score column (default: the screen's first)")
}
func epochsFlag(fs *flag.FlagSet) *int {
	return fs.Int("epochs", 0, "maximum epochs per training (0: the default, 300; 20 on a panel)")
}
func patienceFlag(fs *flag.FlagSet) *int {
	return fs.Int("patience", 0, "early-stopping patience in epochs (0: the default, 25; 5 on a panel, 10 for bench's per-line reference)")
}

// epochsRule and patienceRule are the rules of --epochs and --patience in
// every command that trains networks (train, bench, ood): a whole number
// of epochs, 0 for the default; checked before any data is read.
func epochsRule(n int) cmdline.Rule {
	return cmdline.Want(n >= 0, "--epochs %d: want a whole number of epochs >= 1 (0: the default)", n)
}
func patienceRule(n int) cmdline.Rule {
	return cmdline.Want(n >= 0, "--patience %d: want a whole number of epochs >= 1 (0: the default)", n)
}

func batchSizeFlag(fs *flag.FlagSet) *int {
	return fs.Int("batch-size", 0, "pairs per training step (0: 64, or model.PanelBatchSize on a panel)")
}

// identityFlag is --drug-identity of train and bench: model.Config's
// Identity and IdentityDrop for every method on the two-tower network.
func identityFlag(fs *flag.FlagSet) *float64 {
	return fs.Float64("drug-identity", -1, "a learned identity vector per training drug beside its fingerprint (deup, ensemble, ensemble-nll, mcdropout), left out of a training step with this probability so that a new drug is predicted from its structure alone; negative: none (docs/training.md)")
}

// lineFiLMFlag is --line-film of train and bench: model.Config.LineFiLM
// for every method on the two-tower network.
func lineFiLMFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("line-film", false, "on a panel, the cell line also scales the first combined layer, FiLM-style (deup, ensemble, ensemble-nll, mcdropout; ignored on one line; docs/training.md)")
}

// identityRule is --drug-identity's range.
func identityRule(p float64) cmdline.Rule {
	return cmdline.Want(p < 1 && !math.IsNaN(p), "--drug-identity %v: want a drop probability in [0, 1) (negative: no identity vectors)", p)
}

// setIdentity sets --drug-identity p on c.
func setIdentity(c *model.Config, p float64) {
	c.Identity, c.IdentityDrop = p >= 0, max(p, 0)
}

// batchSizeRule is --batch-size's range.
func batchSizeRule(n int) cmdline.Rule {
	return cmdline.Want(n >= 0, "--batch-size %d: want a whole number of pairs >= 1 (0: the default)", n)
}
func membersFlag(fs *flag.FlagSet) *int {
	return fs.Int("members", 3, "ensemble members (ensemble, ensemble-nll)")
}
func passesFlag(fs *flag.FlagSet) *int {
	return fs.Int("passes", 3, "stochastic prediction passes (mcdropout)")
}
func wholeMoleculeFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("whole-molecule", false, "fingerprint every fragment of a SMILES (salts, counter-ions) instead of the largest organic one")
}
func noFiguresFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("no-figures", false, "do not draw the figures")
}
func campaignFeaturesFlag(fs *flag.FlagSet) *string {
	return fs.String("features", surrogate.DefaultFeatures, "drug features: identity, morgan or identity+morgan")
}
func seedsFlags(fs *flag.FlagSet) (seeds *int, seed *uint64) {
	seeds = fs.Int("seeds", 3, "number of seeds (splits and trainings): seeds seed..seed+N-1")
	return seeds, cmdline.SeedFlag(fs, "first seed (the default 1 gives seeds 1..N)")
}

// What the input files of the commands hold, for cmdline.NeedFile's errors.
const (
	catalogueWhat = "a drug catalogue (CSV, TSV, Parquet or Arrow with an id, name or PubChem CID column and a SMILES column)"
	pairsWhat     = "a CSV of drug pairs with columns drug_a_id and drug_b_id (ids, PubChem CIDs or names)"
	resultsWhat   = "a CSV of measured pairs (drug_a_id, drug_b_id and a score column), e.g. the lab's copy of the exported round"
)

const (
	modelUsage     = "model file from deup train --out (any method)"
	screenOutUsage = "screen directory to write (required)"
	smilesColUsage = "catalogue column of the SMILES, when not a recognised spelling"
)

// checkCoverage checks a --coverage value.
func checkCoverage(c float64) error {
	return cmdline.Check(cmdline.Want(c > 0 && c < 1, "--coverage %v: want a probability in (0, 1), e.g. 0.9 for a 90%% interval", c))
}

// exploreFlag is the --explore flag of suggest and campaign init/simulate:
// active.Acquisition.ExploreWeight.
func exploreFlag(fs *flag.FlagSet) *float64 {
	return fs.Float64("explore", 0, "weight in [0, 1] of sigma_epistemic's ranking in the acquisition's (0: the acquisition alone; 1: rank by sigma_epistemic)")
}

func checkExploreFlag(w float64) error {
	if err := active.CheckExplore(w); err != nil {
		return cmdline.FlagError("--explore", err)
	}
	return nil
}

// perDrugFlag is --max-per-drug: unset means the default for the batch size
// (active.DefaultMaxPerDrug), 0 means no cap.
type perDrugFlag struct {
	n   int
	set bool
}

func (f *perDrugFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.Itoa(f.n)
}

func (f *perDrugFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a whole number >= 0 (0: no cap), not %q", s)
	}
	f.n, f.set = n, true
	return nil
}

// resolve returns the cap for a batch of b pairs.
func (f *perDrugFlag) resolve(b int) int {
	if f.set {
		return f.n
	}
	return active.DefaultMaxPerDrug(b)
}

// maxPerDrugFlag defines --max-per-drug on fs, with the same default and
// help in every command that selects a batch.
func maxPerDrugFlag(fs *flag.FlagSet) *perDrugFlag {
	f := &perDrugFlag{}
	fs.Var(f, "max-per-drug", "diversity: no drug in more than `K` pairs of a batch (default max(2, ceil(batch/10)): 3 for 30; 0: no cap; suggest --campaign uses the campaign's)")
	return f
}

// oosByFlag is --oos-by of train and bench: how DEUP's out-of-sample
// part (the validation part, also every method's early stopping) is
// drawn (drugcomb.DrawOOS); drugcomb.DefaultOOS when not given.
func oosByFlag(fs *flag.FlagSet) *string {
	return fs.String("oos-by", drugcomb.DefaultOOS, "how the out-of-sample (validation) part is drawn: pairs ((pair, line) rows at random), combinations (each drug pair with all its lines) or drugs (every out-of-sample pair has a drug no in-sample pair has); on a panel the draw by combination cost μ 0.13 in r (docs/protocol.md)")
}

// checkOOSFlag is the rule of --oos-by's value.
func checkOOSFlag(by string) cmdline.Rule {
	err := drugcomb.CheckOOS(by)
	return cmdline.Want(err == nil, "--oos-by %v", err)
}
