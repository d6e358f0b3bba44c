package methods

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
	"github.com/deup-screening/deup/model/due"
	"github.com/deup-screening/deup/model/neighbors"
)

// TestDefault: the built-in methods in the benchmark's table order, the
// benchmark's default list and the order its trainings start in.
func TestDefault(t *testing.T) {
	r := Default()
	if got, want := r.Names(), []string{DEUP, Ensemble, EnsembleNLL, MCDropout, DUE, OneHot, Neighbors, DEUPNeighbors}; !slices.Equal(got, want) {
		t.Errorf("Names %v, want %v", got, want)
	}
	if got, want := r.BenchDefaults(), []string{DEUP, Ensemble, MCDropout, DUE}; !slices.Equal(got, want) {
		t.Errorf("BenchDefaults %v, want %v", got, want)
	}
	for name, want := range map[string]int{DEUP: 0, MCDropout: 1, DUE: 2, OneHot: 2, Neighbors: 3, DEUPNeighbors: 0, Ensemble: 3, EnsembleNLL: 3} {
		if got, ok := r.BenchRank(name); !ok || got != want {
			t.Errorf("BenchRank(%s) = %d, %v; want %d", name, got, ok, want)
		}
	}
	if Default() == r {
		t.Error("Default returns the same registry twice")
	}
}

// TestAdd: a registration needs a name, New, Load and its kinds, and
// takes no name or kind already registered.
func TestAdd(t *testing.T) {
	mk := func(c Config) (model.Method, error) { return nil, nil }
	ld := func(io.Reader) (model.Method, error) { return nil, nil }
	for _, tc := range []struct {
		name string
		s    Spec
		ok   bool
	}{
		{"new", Spec{Name: "toy", New: mk, Load: ld, Kinds: []string{"TOY\n"}}, true},
		{"no name", Spec{New: mk, Load: ld, Kinds: []string{"TOY\n"}}, false},
		{"no loader", Spec{Name: "toy", New: mk, Kinds: []string{"TOY\n"}}, false},
		{"no kinds", Spec{Name: "toy", New: mk, Load: ld}, false},
		{"name taken", Spec{Name: DEUP, New: mk, Load: ld, Kinds: []string{"TOY\n"}}, false},
		{"kind taken", Spec{Name: "toy", New: mk, Load: ld, Kinds: []string{due.Magic}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Default()
			err := r.Add(tc.s)
			if (err == nil) != tc.ok {
				t.Fatalf("Add: %v, want ok %v", err, tc.ok)
			}
			if _, found := r.Lookup("toy"); found != (tc.ok && tc.s.Name == "toy") {
				t.Errorf("Lookup(toy) found %v", found)
			}
		})
	}
}

// TestLoadByKind: Load hands a file to the method of its kind; a file of
// no registered kind gets model.Load's error.
func TestLoadByKind(t *testing.T) {
	r := Default()
	d := tinyDataset(t)
	split := drugcomb.SplitRandom(len(d.Pairs), [3]float64{70, 30, 0}, 1)
	cfg := Config{Model: model.Config{TowerHidden: 6, TowerOut: 4, CombHidden: 3, SigmaHidden: 3, MaxEpochs: 1, Seed: 1}, Members: 2, Passes: 2, Dropout: 0.1}
	cfg.DUE = due.Config{MaxEpochs: 1}
	for _, name := range r.Names() {
		t.Run(name, func(t *testing.T) {
			m, err := r.New(name, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Fit(context.Background(), d, split, nil); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := m.Save(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := r.Load(&buf)
			if err != nil || back.Name() != name {
				t.Fatalf("Load: %v, %v; want a %s", back, err, name)
			}
		})
	}
	if _, err := r.Load(strings.NewReader("not a model")); !errors.Is(err, model.ErrFormat) {
		t.Errorf("Load of a text: %v, want model.ErrFormat", err)
	}
}

// TestDefineFlags: every method's flag once, train's own only for
// train, values written into the Config, a refused value named.
func TestDefineFlags(t *testing.T) {
	for _, train := range []bool{false, true} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		apply := Default().DefineFlags(fs, train)
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		want := []string{"members", "novelty-holdout", "passes", "sigma-features", "sigma-loss"}
		if train {
			want = []string{"dropout", "members", "novelty-holdout", "passes", "sigma-features", "sigma-loss"}
		}
		if !slices.Equal(names, want) {
			t.Errorf("train %v: flags %v, want %v", train, names, want)
		}
		if err := fs.Parse([]string{"--members", "5", "--novelty-holdout", "0"}); err != nil {
			t.Fatal(err)
		}
		var c Config
		if err := apply(&c); err != nil {
			t.Fatal(err)
		}
		if c.Members != 5 || c.Passes != 3 || c.DEUP.NoveltyHoldout != -1 || c.DEUP.SigmaLoss != "nll" || train != (c.Dropout == 0.1) {
			t.Errorf("train %v: config %+v", train, c)
		}
		if err := fs.Parse([]string{"--sigma-loss", "l1"}); err != nil {
			t.Fatal(err)
		}
		if err := apply(&c); err == nil || !strings.Contains(err.Error(), "--sigma-loss") {
			t.Errorf("--sigma-loss l1: %v", err)
		}
	}
}

// TestSigmaFeaturesDefault: without --sigma-features DEUP trains with
// none and deup-neighbors with StackedSigmaFeatures; a given value, none
// included, holds for both.
func TestSigmaFeaturesDefault(t *testing.T) {
	for _, tc := range []struct {
		args          []string
		deup, stacked deupnet.SigmaFeatures
	}{
		{nil, deupnet.SigmaFeatures{}, StackedSigmaFeatures()},
		{[]string{"--sigma-features", "none"}, deupnet.SigmaFeatures{}, deupnet.SigmaFeatures{}},
		{[]string{"--sigma-features", "density"}, deupnet.SigmaFeatures{Density: true}, deupnet.SigmaFeatures{Density: true}},
	} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		apply := Default().DefineFlags(fs, true)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		var c Config
		for range 2 { // applying twice changes nothing
			if err := apply(&c); err != nil {
				t.Fatal(err)
			}
		}
		r := Default()
		d, err := r.New(DEUP, c)
		if err != nil {
			t.Fatal(err)
		}
		st, err := r.New(DEUPNeighbors, c)
		if err != nil {
			t.Fatal(err)
		}
		got := st.(*neighbors.Stacked).Inner().(*deupnet.DEUP).SigmaFeatures()
		if d.(*deupnet.DEUP).SigmaFeatures() != tc.deup || got != tc.stacked {
			t.Errorf("%v: deup %v, deup-neighbors %v; want %v, %v", tc.args, d.(*deupnet.DEUP).SigmaFeatures(), got, tc.deup, tc.stacked)
		}
	}
}

// tinyDataset is 8 drugs with 2 of 16 bits each and every pair of them
// once, the score a sum of per-drug effects (two replicates each).
func tinyDataset(t *testing.T) *model.Dataset {
	t.Helper()
	const nd, nbits = 8, 16
	f := &model.Features{Config: model.FeatureConfig{Kind: "fp", Radius: 2, NBits: nbits}, RowPtr: []int{0}}
	for i := range nd {
		f.IDs = append(f.IDs, string(rune('a'+i)))
		f.Col = append(f.Col, int32(i), int32(nd+(i*3)%nd))
		f.Val = append(f.Val, 1, 1)
		f.RowPtr = append(f.RowPtr, len(f.Col))
	}
	d := &model.Dataset{Features: f}
	for a := range nd {
		for b := a + 1; b < nd; b++ {
			d.Pairs = append(d.Pairs, model.PairRef{A: a, B: b})
			d.Y = append(d.Y, float64(a%3)+0.5*float64(b%4))
			d.N = append(d.N, 2)
			d.Var = append(d.Var, 0.1)
		}
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	return d
}
