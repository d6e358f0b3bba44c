package cli

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/deup-screening/deup/active"
)

// workersFlag defines --workers, the one worker flag: N jobs (the noun
// says which: trainings, runs, molecules) run at the same time, 0 one per
// CPU (GOMAXPROCS). No command's results depend on it. def is the
// command's default; deprecated names (smo's --jobs) set the same value.
func workersFlag(fs *flag.FlagSet, def int, jobs string, deprecated ...string) *int {
	n := new(int)
	fs.IntVar(n, "workers", def, "number of "+jobs+" at the same time (0: one per CPU, GOMAXPROCS; the results do not depend on it)")
	for _, d := range deprecated {
		fs.IntVar(n, d, def, "deprecated: the old name of --workers, same meaning")
	}
	return n
}

// checkWorkers refuses a negative --workers.
func checkWorkers(n int) error { return checkRules(workersRule(n)) }

// workersRule is the rule of --workers: 0 or more.
func workersRule(n int) usageRule {
	return rule(n >= 0, "--workers %d: want 0 (one per CPU) or more", n)
}

// workerCount is the number of workers --workers n means.
func workerCount(n int) int {
	if n == 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// seedFlag defines --seed, the one seed spelling: the seed of a single run,
// or the first of a series of runs (run s uses seed+s-1, or seed+s where
// the command says so). --first-seed, its old name in rl and smo, is kept
// as a deprecated alias that sets the same value.
func seedFlag(fs *flag.FlagSet, usage string, deprecated ...string) *uint64 {
	s := new(uint64)
	fs.Uint64Var(s, "seed", 1, usage)
	for _, d := range deprecated {
		fs.Uint64Var(s, d, 1, "deprecated: the old name of --seed, same meaning")
	}
	return s
}

// splitList splits a comma-separated flag value, dropping empty entries
// and the spaces around each.
func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

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
	return fs.String("features", active.DefaultFeatures, "drug features: identity, morgan or identity+morgan")
}
func seedsFlags(fs *flag.FlagSet) (seeds *int, seed *uint64) {
	seeds = fs.Int("seeds", 3, "number of seeds (splits and trainings): seeds seed..seed+N-1")
	return seeds, seedFlag(fs, "first seed (the default 1 gives seeds 1..N)")
}

const (
	modelUsage     = "model file from deup train --out (any method)"
	screenOutUsage = "screen directory to write (required)"
	smilesColUsage = "catalogue column of the SMILES, when not a recognised spelling"
)

// usageError prints fs's usage and returns the usage error (ErrUsage)
// with the message format and args make.
func usageError(fs *flag.FlagSet, format string, args ...any) error {
	fs.Usage()
	return fmt.Errorf("%w: "+format, append([]any{ErrUsage}, args...)...)
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// checkCoverage checks a --coverage value.
func checkCoverage(c float64) error {
	return checkRules(rule(c > 0 && c < 1, "--coverage %v: want a probability in (0, 1), e.g. 0.9 for a 90%% interval", c))
}

// exploreFlag is the --explore flag of suggest and campaign init/simulate:
// active.Acquisition.ExploreWeight.
func exploreFlag(fs *flag.FlagSet) *float64 {
	return fs.Float64("explore", 0, "weight in [0, 1] of sigma_epistemic's ranking in the acquisition's (0: the acquisition alone; 1: rank by sigma_epistemic)")
}

func checkExploreFlag(w float64) error {
	if err := active.CheckExplore(w); err != nil {
		return fmt.Errorf("%w: --explore: %s", ErrUsage, strings.TrimPrefix(err.Error(), "active: "))
	}
	return nil
}

// usageRule is one rule of a command's flags (see checkRules).
type usageRule struct {
	ok  bool
	msg string
}

// rule is a usageRule that the flags break unless ok; format and args
// make its message, which names the flag.
func rule(ok bool, format string, args ...any) usageRule {
	return usageRule{ok, fmt.Sprintf(format, args...)}
}

// checkRules returns the usage error (ErrUsage) of the first rule broken,
// in the order given, or nil.
func checkRules(rules ...usageRule) error {
	for _, r := range rules {
		if !r.ok {
			return fmt.Errorf("%w: %s", ErrUsage, r.msg)
		}
	}
	return nil
}

// lastFlag is the value of the last --name (or -name) in args before a
// lone "--", "" when there is none: for a command whose flag set depends
// on a flag (data import's --format).
func lastFlag(args []string, name string) string {
	v := ""
	for i, a := range args {
		switch {
		case a == "--":
			return v
		case (a == "--"+name || a == "-"+name) && i+1 < len(args):
			v = args[i+1]
		case strings.HasPrefix(a, "--"+name+"=") || strings.HasPrefix(a, "-"+name+"="):
			_, v, _ = strings.Cut(a, "=")
		}
	}
	return v
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
