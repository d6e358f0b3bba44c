package model

import (
	"fmt"
)

// Config holds the network sizes and the training settings. The zero value
// of every field means the default shown (the paper's setting where it
// gives one).
type Config struct {
	TowerHidden int // single-drug tower hidden width; default 2048
	TowerOut    int // single-drug tower output (embedding) width; default 1024
	CombHidden  int // combined network width (2 layers); default 128
	SigmaHidden int // σ network width (2 layers, DEUP only); default 128

	LR          float64 // Adam learning rate; default 1e-4
	WeightDecay float64 // L2 weight decay added to the gradient (PyTorch Adam's weight_decay); default 1e-5; negative means 0
	BatchSize   int     // pairs per minibatch; default 64
	MaxEpochs   int     // default 300
	Patience    int     // epochs without validation improvement before stopping; default 25
	MinSigma    float64 // floor added to softplus for σ, in standardized units; default 1e-3

	// Dropout is the inverted-dropout rate after both combined layers in
	// the steps that train μ (DEUP's in-sample steps; σ-only steps see no
	// mask); 0 or negative: none (the default: docs/training.md has the
	// measurements of 0.3 and 0.5). MC-Dropout's own rate is separate
	// (NewMCDropout).
	Dropout float64

	// Warmup is the number of steps of linear learning-rate warm-up
	// (Schedule); default 0. Decay is the decay after it over MaxEpochs:
	// "" none, "cosine" or "linear".
	Warmup int
	Decay  string

	// Identity gives every drug of the training screen a learned identity
	// vector beside its fingerprint (issue 40): a row of parameter id.e
	// (drugs×TowerHidden) added to the drug's first tower layer before its
	// ReLU, the weights of a one-hot identity input concatenated to the
	// fingerprint, so the vector's size is the tower's hidden width (a
	// rule, not a choice). The pair stays order-free (both towers are the
	// one tower). The vectors start at 0 and only a training pair's
	// gradient moves one, so a drug no in-sample pair has (a new drug, a
	// catalogue's) keeps 0: it is predicted from its structure alone, and
	// a Features matrix's drugs are matched to the vectors by id
	// (Features.IDs; a matrix without ids gets none). Default false: the
	// network without it.
	Identity bool
	// IdentityDrop is the probability that a drug's identity vector is
	// left out of a training step (each distinct drug of an in-sample
	// batch draws once; σ-only steps and prediction keep every vector), so
	// that the structure path learns to predict without it. The kept
	// vector is not rescaled: a drug is either known or not. In [0, 1);
	// default 0 (never dropped). Only read with Identity.
	IdentityDrop float64

	// LineFiLM makes the cell line of a network over several lines also
	// scale the first combined layer, FiLM-style (issue 40): its
	// pre-activation z = W_c1ᵀ e(a, b, l) + b_c1 becomes z ⊙ (1 + G_l)
	// before the ReLU, with G (parameter cl.g, lines×CombHidden) learned
	// with the combined network and starting at 0, so that the line
	// multiplies the pair's features as well as adding its embedding; a
	// line without training pairs keeps G_l = 0. Default false; ignored
	// on one line.
	LineFiLM bool

	Seed uint64 // seeds weight initialization, shuffling and dropout masks

	// side is the number of σ-feature columns the σ path of a network
	// reads beside the seen bit (set by DEUP from its σ features, WithSide;
	// 0 for the baselines).
	side int

	// lines is the number of cell-line embeddings of a network (set by
	// every method's Fit from Dataset.Lines, and from the model file); at
	// most 1 means none: a one-line network is the network it always was.
	lines int

	// lineX holds numeric features of each cell line (lines×k,
	// standardized; Dataset.LineFeatures, set with lines): the network
	// adds X_l·W_f (parameter cl.f, k×TowerOut) to the line's embedding,
	// so a line no training pair measured still gets a line term. nil
	// without --cell-features, and for a one-line network.
	// (A pointer, so that Config stays comparable: the methods trained on
	// one dataset share it.)
	lineX *[][]float64

	// ids are the drugs of the identity vectors (Identity), one per row
	// of id.e, in the training features' order (set by WithLines; a
	// pointer so that Config stays comparable); nil without Identity.
	ids *[]string

	// minEpochs is the fewest epochs before early stopping (Budget sets
	// it with the rule's patience; 0: none).
	minEpochs int

	// float64 builds the networks in float64 (gradient checks); default float32.
	float64 bool
}

// PanelBatchSize is the training batch of a panel (a dataset with several
// cell lines; the commands pass it as Config.BatchSize). A step's cost is
// dominated by the tower and the Adam update of its weights, which do not
// grow with the batch (the tower runs once per distinct drug of the batch,
// at most the screen's 87 drugs), so an epoch of the panel's ~23,000
// training pairs costs about as many steps as PC-3's 64-pair batches.
const PanelBatchSize = 512

// PanelPatience is the early-stopping patience of a panel, in epochs: 5
// epochs of the panel's ~22,400 training pairs (40 % of the 56,015 of
// NCI-ALMANAC's 43 lines) at PanelBatchSize are ~220 steps, the steps the
// one-line default (25 epochs) waits on PC-3 (~520 training pairs, 9 steps
// of 64 per epoch). Derived before any run, from the step counts.
const PanelPatience = 5

// PanelMaxEpochs caps the epochs of a panel's training (300 on one line):
// the benchmark's budget (issue 26: 4 methods, 3 seeds and the per-line
// reference in 10 minutes on 2 cores). Chosen with PanelLR from the
// validation RMSE curves of μ on the NCI-ALMANAC panel (docs/panel.md),
// not from test metrics: at PanelLR, the best validation RMSE of 20
// epochs is within 0.6 % of that of 30 epochs at 3e-4, the setting before.
const PanelMaxEpochs = 20

// PanelLR is the Adam learning rate of a panel (1e-4 on one line): about
// 1e-4 times the batch ratio PanelBatchSize/64 (the linear scaling rule,
// rounded). On the NCI-ALMANAC panel's validation pairs (seed 1's split,
// μ alone) its best validation RMSE of 20 epochs took 28 at 3e-4 (the
// square-root rule, the setting before) and 22 at 6e-4 (docs/panel.md).
const PanelLR = 1e-3

// Panel returns c with the zero fields of the training settings set to the
// panel's (PanelBatchSize, PanelPatience, PanelMaxEpochs, PanelLR); the
// commands and the benchmark use it for a dataset with several cell lines.
// A one-line dataset keeps the defaults of withDefaults.
func (c Config) Panel() Config {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.BatchSize, PanelBatchSize)
	def(&c.Patience, PanelPatience)
	def(&c.MaxEpochs, PanelMaxEpochs)
	if c.LR == 0 {
		c.LR = PanelLR
	}
	return c
}

// DefaultSizes gives the two-tower network's widths (the paper's: towers
// of 2048 hidden and 1024 output units, a combination layer of 128) where
// a width is 0. Every network of the project (DEUP, the baselines, DUE's
// feature extractor) takes its defaults from it.
func DefaultSizes(towerHidden, towerOut, combHidden int) (int, int, int) {
	if towerHidden == 0 {
		towerHidden = 2048
	}
	if towerOut == 0 {
		towerOut = 1024
	}
	if combHidden == 0 {
		combHidden = 128
	}
	return towerHidden, towerOut, combHidden
}

// WithDefaults returns c with the default of every zero field.
func (c Config) WithDefaults() Config {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	c.TowerHidden, c.TowerOut, c.CombHidden = DefaultSizes(c.TowerHidden, c.TowerOut, c.CombHidden)
	def(&c.SigmaHidden, 128)
	def(&c.BatchSize, 64)
	def(&c.MaxEpochs, 300)
	def(&c.Patience, 25)
	if c.LR == 0 {
		c.LR = 1e-4
	}
	if c.WeightDecay == 0 {
		c.WeightDecay = 1e-5
	}
	if c.WeightDecay < 0 {
		c.WeightDecay = 0
	}
	if c.MinSigma == 0 {
		c.MinSigma = 1e-3
	}
	return c
}

// Validate checks the configuration (after WithDefaults).
func (c Config) Validate() error {
	for _, v := range []struct {
		name string
		n    int
	}{{"TowerHidden", c.TowerHidden}, {"TowerOut", c.TowerOut}, {"CombHidden", c.CombHidden}, {"SigmaHidden", c.SigmaHidden}, {"BatchSize", c.BatchSize}, {"MaxEpochs", c.MaxEpochs}, {"Patience", c.Patience}} {
		if v.n <= 0 {
			return fmt.Errorf("model: config: %s = %d, want > 0", v.name, v.n)
		}
	}
	if c.Decay != "" && c.Decay != "cosine" && c.Decay != "linear" {
		return fmt.Errorf("model: config: Decay %q, want none, cosine or linear", c.Decay)
	}
	if c.Warmup < 0 {
		return fmt.Errorf("model: config: Warmup %d, want >= 0", c.Warmup)
	}
	if !(c.Dropout < 1) {
		return fmt.Errorf("model: config: Dropout %v, want < 1 (0 or negative: none)", c.Dropout)
	}
	if !(c.IdentityDrop >= 0 && c.IdentityDrop < 1) {
		return fmt.Errorf("model: config: IdentityDrop %v, want a probability in [0, 1)", c.IdentityDrop)
	}
	if !(c.LR > 0) || !(c.MinSigma > 0) {
		return fmt.Errorf("model: config: LR %v and MinSigma %v must be > 0", c.LR, c.MinSigma)
	}
	if err := c.lineInput().Validate(); err != nil {
		return fmt.Errorf("model: config: %w", err)
	}
	return nil
}

// Side is the number of σ-feature columns the σ path of the
// configuration's networks reads beside the seen bit (0: none).
func (c Config) Side() int { return c.side }

// WithSide returns c with networks whose σ path reads k σ-feature columns
// (DEUP's σ features).
func (c Config) WithSide(k int) Config {
	c.side = k
	return c
}

// Lines is the number of cell-line embeddings of the configuration's
// networks (at most 1: none).
func (c Config) Lines() int { return c.lines }

// lineInput is the cell-line input of the configuration's networks (none
// for at most one line).
func (c Config) lineInput() LineInput {
	return LineInput{Lines: c.lines, Width: c.TowerOut, X: c.lineRows()}
}

// lineRows are the cell-line features (nil: none).
func (c Config) lineRows() [][]float64 {
	if c.lineX == nil {
		return nil
	}
	return *c.lineX
}

// WithLines sets the cell lines of a dataset d on a configuration: the
// number of lines and, with LineFeatures, their features; with Identity,
// also the drugs of the identity vectors (d's feature rows, by id). Every
// method's Fit calls it.
func (c Config) WithLines(d *Dataset) Config {
	c.lines = d.Lines()
	c.lineX = nil
	if c.lines > 1 && len(d.LineFeatures) > 0 {
		c.lineX = &d.LineFeatures
	}
	c.ids = nil
	if c.Identity && d.Features != nil && len(d.Features.IDs) > 0 {
		ids := append([]string(nil), d.Features.IDs...)
		c.ids = &ids
	}
	return c
}

// IdentityIDs are the drugs of the identity vectors (Config.Identity),
// one per row of id.e; nil without them.
func (c Config) IdentityIDs() []string {
	if c.ids == nil {
		return nil
	}
	return *c.ids
}

// identityRows is the number of identity vectors of the configuration's
// networks (0: none).
func (c Config) identityRows() int {
	if !c.Identity {
		return 0
	}
	return len(c.IdentityIDs())
}

// LineFiLMParam is the name of the FiLM gains of the lines
// (Config.LineFiLM), lines×CombHidden.
const LineFiLMParam = "cl.g"

// filmOn says whether the configuration's networks scale the first
// combined layer by the line (LineFiLM on several lines).
func (c Config) filmOn() bool { return c.LineFiLM && c.lines > 1 }

// IdentityParam is the name of the identity vectors' parameter
// (Config.Identity), drugs×TowerHidden.
const IdentityParam = "id.e"

// identityIndex maps the rows of f to the identity vectors of ids: the
// vector of the drug of row i is out[i] (−1: none, a drug not among ids or
// a matrix without ids). A drug listed twice in ids takes its first row.
func identityIndex(ids []string, f *Features) []int {
	out := make([]int, f.NumDrugs())
	for i := range out {
		out[i] = -1
	}
	if len(ids) == 0 || len(f.IDs) != f.NumDrugs() {
		return out
	}
	at := make(map[string]int, len(ids))
	for k, id := range ids {
		if _, ok := at[id]; !ok {
			at[id] = k
		}
	}
	for i, id := range f.IDs {
		if k, ok := at[id]; ok {
			out[i] = k
		}
	}
	return out
}
