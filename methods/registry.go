package methods

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
	"github.com/deup-screening/deup/model/due"
)

// The built-in methods, by the names every command uses.
const (
	DEUP        = "deup"
	Ensemble    = "ensemble"
	EnsembleNLL = "ensemble-nll"
	MCDropout   = "mcdropout"
	DUE         = "due"
	OneHot      = "onehot"
	Neighbors   = "neighbors"
	// DEUPNeighbors is DEUP trained on the neighbour estimate's
	// residuals (neighbors.Stacked): μ = the estimate + DEUP's μ.
	DEUPNeighbors = "deup-neighbors"
)

// Config configures any method a Registry builds. Model configures the
// two-tower network (deup, ensemble, ensemble-nll, mcdropout), DEUP its σ
// path (deup); DUE
// configures model/due, whose Seed is always Model.Seed. Members (ensemble,
// ensemble-nll) must be at least 1; Passes (mcdropout) at least 2 and
// Dropout (mcdropout) in (0, 1). No zero value is replaced by a default:
// callers state them (the paper's are 3 members, 3 passes, rate 0.1).
type Config struct {
	Model   model.Config
	DEUP    deupnet.Options
	DUE     due.Config
	Members int
	Passes  int
	Dropout float64
	// SigmaDefault is set when --sigma-features was not given: each
	// method then takes its own σ features (DEUP none, deup-neighbors
	// StackedSigmaFeatures) instead of DEUP.SigmaFeatures.
	SigmaDefault bool
}

// StackedSigmaFeatures returns deup-neighbors' σ features when
// --sigma-features is not given: counts and error. DEUP on the neighbour
// estimate's residuals stops within a few epochs, so its σ path sees
// little of where the estimate errs; each drug's measured count and its
// other validation pairs' error are that signal. Chosen after measuring
// (session 18, disclosed in docs/training.md): on PC-3 and MCF7 under
// 5-fold leave-combination-out corr(σ, |y − μ|) 0.25 → 0.28 and
// 0.21 → 0.23, μ unchanged; on the panel and the random 40/30/30 splits
// as docs/training.md gives.
func StackedSigmaFeatures() deupnet.SigmaFeatures {
	return deupnet.SigmaFeatures{Counts: true, Error: true}
}

// Panel returns c with the panel's training settings in its zero fields
// (model.Config.Panel; for DUE the same batch size, patience and epoch
// cap, its learning rates unchanged): the setting of a dataset with
// several cell lines.
func (c Config) Panel() Config {
	c.Model = c.Model.Panel()
	if c.DUE.BatchSize == 0 {
		c.DUE.BatchSize = model.PanelBatchSize
	}
	if c.DUE.Patience == 0 {
		c.DUE.Patience = model.PanelPatience
	}
	if c.DUE.MaxEpochs == 0 {
		c.DUE.MaxEpochs = model.PanelMaxEpochs
	}
	return c
}

// Spec is one method as the registry knows it: everything a command needs
// to train, save, load and benchmark it. Name, New, Kinds and Load are
// required.
type Spec struct {
	Name string
	// New builds an untrained method from c; an error says which setting
	// is out of range.
	New func(c Config) (model.Method, error)
	// Kinds are the model-file kinds Load reads (Kind): the method name a
	// model.Load file's header states, or the magic line of a method's own
	// file format.
	Kinds []string
	// Load reads a model file of one of Kinds, written by the method's
	// Save.
	Load func(r io.Reader) (model.Method, error)
	// Flags are the method's command-line settings (deup train and bench).
	Flags []Flag
	// FlagHint says, in the flags' words, why New refused c (nil: New's
	// own error is shown).
	FlagHint func(c Config) string
	// Bench places the method in deup bench.
	Bench Bench
}

// Bench is a method's place in the benchmark: Default puts it in the
// default list of --methods; Rank orders the start of the trainings
// (lower first: the longest trainings start first, see bench.Run).
type Bench struct {
	Default bool
	Rank    int
}

// Flag is one command-line setting of a method. Define declares it on fs
// (with its name, default and usage) and returns what, after parsing,
// writes its value into a Config, or says why the value is refused (an
// error that names the flag). TrainOnly flags are declared by deup train
// alone (deup bench keeps the benchmark's setting).
type Flag struct {
	Name      string
	Define    func(fs *flag.FlagSet) func(c *Config) error
	TrainOnly bool
}

// IntFlag is a Flag for an int setting of Config (field returns it).
func IntFlag(name string, def int, usage string, field func(c *Config) *int) Flag {
	return Flag{Name: name, Define: func(fs *flag.FlagSet) func(*Config) error {
		v := fs.Int(name, def, usage)
		return func(c *Config) error { *field(c) = *v; return nil }
	}}
}

// Float64Flag is a Flag for a float64 setting of Config.
func Float64Flag(name string, def float64, usage string, field func(c *Config) *float64) Flag {
	return Flag{Name: name, Define: func(fs *flag.FlagSet) func(*Config) error {
		v := fs.Float64(name, def, usage)
		return func(c *Config) error { *field(c) = *v; return nil }
	}}
}

// Registry is the set of methods the commands know, in the benchmark's
// table order. The zero value is empty; Default holds the built-in ones.
type Registry struct {
	specs []Spec
}

// Default returns a new registry of the built-in methods: deup,
// ensemble, ensemble-nll, mcdropout, due, onehot (the one-hot MLP
// reference), neighbors (the drug-neighbour reference) and
// deup-neighbors (DEUP on the neighbour estimate's residuals); the last
// three are not among BenchDefaults.
func Default() *Registry {
	return &Registry{specs: builtin()}
}

// ErrUnknownMethod is returned by New for a name not registered.
var ErrUnknownMethod = errors.New("unknown method")

// Add registers s after the methods already known. A name or a file
// kind registered twice, or a Spec without New, Load or Kinds, is an
// error.
func (r *Registry) Add(s Spec) error {
	if s.Name == "" || s.New == nil || s.Load == nil || len(s.Kinds) == 0 {
		return fmt.Errorf("methods: register %q: a method needs a name, New, Load and its file kinds", s.Name)
	}
	for _, o := range r.specs {
		if o.Name == s.Name {
			return fmt.Errorf("methods: method %q registered twice", s.Name)
		}
		for _, k := range s.Kinds {
			if slices.Contains(o.Kinds, k) {
				return fmt.Errorf("methods: register %q: file kind %q is %s's", s.Name, k, o.Name)
			}
		}
	}
	r.specs = append(r.specs, s)
	return nil
}

// Names lists the registered methods in the benchmark's table order.
func (r *Registry) Names() []string {
	out := make([]string, len(r.specs))
	for i, s := range r.specs {
		out[i] = s.Name
	}
	return out
}

// Lookup returns the method registered as name.
func (r *Registry) Lookup(name string) (Spec, bool) {
	for _, s := range r.specs {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// New is the one constructor of an untrained method by name.
func (r *Registry) New(name string, c Config) (model.Method, error) {
	s, ok := r.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("%w %q (available: %s)", ErrUnknownMethod, name, strings.Join(r.Names(), ", "))
	}
	return s.New(c)
}

// BenchDefaults are the methods of deup bench unless --methods says
// otherwise, in table order.
func (r *Registry) BenchDefaults() []string {
	var out []string
	for _, s := range r.specs {
		if s.Bench.Default {
			out = append(out, s.Name)
		}
	}
	return out
}

// BenchRank is the method's Bench.Rank (ok false for an unknown name).
func (r *Registry) BenchRank(name string) (rank int, ok bool) {
	s, ok := r.Lookup(name)
	return s.Bench.Rank, ok
}

// Kind is the kind of a model file that starts with head: for a file of
// model.Load's format the method its header names, otherwise the file's
// first line with its newline (a method's own magic); "" when neither can
// be read.
func Kind(head []byte) string {
	if name, ok := model.FileMethod(head); ok {
		return name
	}
	if i := bytes.IndexByte(head, '\n'); i > 0 && i < 64 {
		return string(head[:i+1])
	}
	return ""
}

// Load reads a model file written by any registered method's Save: the
// method whose Kinds hold the file's Kind reads it. A file of no known
// kind is read by model.Load, whose error says why it is not a model
// file (or names its unknown method).
func (r *Registry) Load(rd io.Reader) (model.Method, error) {
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, fmt.Errorf("model: load: %w", err)
	}
	kind := Kind(data)
	for _, s := range r.specs {
		if kind != "" && slices.Contains(s.Kinds, kind) {
			return s.Load(bytes.NewReader(data))
		}
	}
	return model.Load(bytes.NewReader(data))
}

// DefineFlags declares every registered method's flags on fs (those of
// deup train alone only when train is set; a flag several methods list is
// declared once) and returns what, after parsing, writes their values
// into a Config, in registration order, stopping at the first refused
// value.
func (r *Registry) DefineFlags(fs *flag.FlagSet, train bool) func(c *Config) error {
	var apply []func(*Config) error
	seen := map[string]bool{}
	for _, s := range r.specs {
		for _, f := range s.Flags {
			if seen[f.Name] || f.TrainOnly && !train {
				continue
			}
			seen[f.Name] = true
			apply = append(apply, f.Define(fs))
		}
	}
	return func(c *Config) error {
		for _, a := range apply {
			if err := a(c); err != nil {
				return err
			}
		}
		return nil
	}
}
