package methods

import (
	"flag"
	"fmt"
	"io"

	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
	"github.com/deup-screening/deup/model/due"
	"github.com/deup-screening/deup/model/neighbors"
	"github.com/deup-screening/deup/model/onehot"
)

// builtin are the methods of Default, in the benchmark's table order.
// Bench.Rank is measured on the synthetic default (per-training wall time
// with two at a time, 2026-11-25: DEUP 9–18 s, MC-Dropout 7–14 s, DUE
// 5–16 s, one ensemble member 9 s; the same order on PC-3); the ensemble
// members come last: many jobs of one size fill the end evenly.
func builtin() []Spec {
	members := IntFlag("members", 3, "ensemble members (ensemble, ensemble-nll)", func(c *Config) *int { return &c.Members })
	membersHint := func(c Config) string { return fmt.Sprintf("--members %d, want >= 1", c.Members) }
	loadModel := func(r io.Reader) (model.Method, error) { return model.Load(r) }
	return []Spec{
		{
			Name: DEUP,
			New: func(c Config) (model.Method, error) {
				return deupnet.New(deupnet.Config{Config: c.Model, Options: c.DEUP}), nil
			},
			Kinds: []string{DEUP}, Load: func(r io.Reader) (model.Method, error) { return deupnet.Load(r) },
			Flags: sigmaFlags(),
			Bench: Bench{Default: true, Rank: 0},
		},
		{
			Name:  Ensemble,
			New:   func(c Config) (model.Method, error) { return newEnsemble(c, false) },
			Kinds: []string{Ensemble}, Load: loadModel,
			Flags: []Flag{members}, FlagHint: membersHint,
			Bench: Bench{Default: true, Rank: 3},
		},
		{
			Name:  EnsembleNLL,
			New:   func(c Config) (model.Method, error) { return newEnsemble(c, true) },
			Kinds: []string{EnsembleNLL}, Load: loadModel,
			Flags: []Flag{members}, FlagHint: membersHint,
			Bench: Bench{Rank: 3},
		},
		{
			Name: MCDropout,
			New: func(c Config) (model.Method, error) {
				if c.Passes < 2 || !(c.Dropout > 0 && c.Dropout < 1) {
					return nil, fmt.Errorf("methods: MC-Dropout passes %d (want >= 2), rate %v (want in (0,1))", c.Passes, c.Dropout)
				}
				return model.NewMCDropout(c.Model, c.Dropout, c.Passes), nil
			},
			Kinds: []string{MCDropout}, Load: loadModel,
			Flags: []Flag{
				IntFlag("passes", 3, "stochastic prediction passes (mcdropout)", func(c *Config) *int { return &c.Passes }),
				trainOnly(Float64Flag("dropout", 0.1, "dropout rate on the combined layers (mcdropout)", func(c *Config) *float64 { return &c.Dropout })),
			},
			FlagHint: func(c Config) string {
				return fmt.Sprintf("--passes %d (want >= 2), --dropout %v (want in (0,1))", c.Passes, c.Dropout)
			},
			Bench: Bench{Default: true, Rank: 1},
		},
		{
			Name: DUE,
			New: func(c Config) (model.Method, error) {
				dc := c.DUE
				dc.Seed = c.Model.Seed
				return due.New(dc), nil
			},
			Kinds: []string{due.Magic, due.MagicV1},
			Load:  func(r io.Reader) (model.Method, error) { return due.Load(r) },
			Bench: Bench{Default: true, Rank: 2},
		},
		{
			// The one-hot MLP reference (issue 40): identity inputs only,
			// no uncertainty of its own; not in the default list.
			Name:  OneHot,
			New:   func(c Config) (model.Method, error) { return onehot.New(onehot.Config{Config: c.Model}), nil },
			Kinds: []string{onehot.Magic},
			Load:  func(r io.Reader) (model.Method, error) { return onehot.Load(r) },
			Bench: Bench{Rank: 2},
		},
		{
			// The drug-neighbour reference (issue 40): collaborative
			// filtering on the training scores, no network; not in the
			// default list.
			Name:  Neighbors,
			New:   func(c Config) (model.Method, error) { return neighbors.New(neighbors.Config{}), nil },
			Kinds: []string{neighbors.Magic},
			Load:  func(r io.Reader) (model.Method, error) { return neighbors.Load(r) },
			Bench: Bench{Rank: 3}, // seconds: starts last
		},
		{
			// DEUP on what the neighbour estimate leaves (issue 40): μ is
			// the estimate plus DEUP's μ, σ DEUP's; not in the default
			// list.
			Name: DEUPNeighbors,
			New: func(c Config) (model.Method, error) {
				o := c.DEUP
				if c.SigmaDefault {
					o.SigmaFeatures = StackedSigmaFeatures()
				}
				return neighbors.NewStacked(DEUPNeighbors, c.Model.Seed, deupnet.New(deupnet.Config{Config: c.Model, Options: o})), nil
			},
			Kinds: []string{neighbors.StackedMagic},
			Load: func(r io.Reader) (model.Method, error) {
				return neighbors.LoadStacked(r, func(r io.Reader) (model.Method, error) { return deupnet.Load(r) })
			},
			Flags: sigmaFlags(),
			Bench: Bench{Rank: 0},
		},
	}
}

func trainOnly(f Flag) Flag {
	f.TrainOnly = true
	return f
}

func newEnsemble(c Config, nll bool) (model.Method, error) {
	if c.Members < 1 {
		return nil, fmt.Errorf("methods: %d ensemble members, want >= 1", c.Members)
	}
	return model.NewEnsemble(c.Model, c.Members, nll), nil
}

// sigmaFlags are DEUP's flags: its σ path's features, refit loss and
// novelty hold-out.
func sigmaFlags() []Flag {
	return []Flag{
		{Name: "sigma-loss", Define: func(fs *flag.FlagSet) func(*Config) error {
			v := fs.String("sigma-loss", "nll",
				"loss of DEUP's sigma refit on the out-of-sample pairs: nll (Gaussian negative log-likelihood) or log (regression of log sigma on log |y-mu|, then one held-out Gaussian scale); see docs/sigma-features.md")
			return func(c *Config) error {
				if *v != "nll" && *v != "log" {
					return fmt.Errorf("--sigma-loss %q: want nll or log", *v)
				}
				c.DEUP.SigmaLoss = *v
				return nil
			}
		}},
		{Name: "sigma-features", Define: func(fs *flag.FlagSet) func(*Config) error {
			v := fs.String("sigma-features", "",
				"stationarizing inputs of DEUP's sigma path, relative to the in-sample pairs: none, or a list of density (log Tanimoto-kernel density of the pair among the in-sample pairs), counts (log1p in-sample pairs of each drug) spread (log spread of each drug's in-sample targets), lines (a panel: log1p in-sample pairs of the pair's cell line and log spread of its in-sample targets), variance (log neural-linear variance of the mean's last layer on the in-sample pairs), error (log mean out-of-sample |y-mu| of each drug's other validation pairs), inerror (the same over the in-sample pairs) and xerror (error from twice the out-of-sample residuals: the validation pairs' and the in-sample pairs' under a second mean trained with the two sets swapped; doubles the training time); see docs/sigma-features.md (default: none for deup, counts,error for deup-neighbors)")
			return func(c *Config) error {
				given := *v
				if given == "" { // not given: each method's own (Config.SigmaDefault)
					c.SigmaDefault, given = true, deupnet.DefaultSigmaFeatures
				}
				sf, err := deupnet.ParseSigmaFeatures(given)
				if err != nil {
					return fmt.Errorf("--sigma-features: %v", err)
				}
				c.DEUP.SigmaFeatures = sf
				return nil
			}
		}},
		{Name: "novelty-holdout", Define: func(fs *flag.FlagSet) func(*Config) error {
			v := fs.Float64("novelty-holdout", deupnet.DefaultNoveltyHoldout,
				"share of the training pairs whose drugs DEUP holds out of the mean's training, so that its error predictor learns the error on unseen drugs (0 for none, below 0.5); see docs/sigma-features.md")
			return func(c *Config) error {
				if !(*v >= 0 && *v < 0.5) {
					return fmt.Errorf("--novelty-holdout %v: want a share in [0, 0.5) (0 for none)", *v)
				}
				c.DEUP.NoveltyHoldout = *v
				if *v == 0 {
					c.DEUP.NoveltyHoldout = -1 // the flag's none is deupnet.Options' negative
				}
				return nil
			}
		}},
	}
}
