package drugs

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/model"
)

func TestSets(t *testing.T) {
	names, sets, err := Sets([]string{"deup-dv", TwoHead, Ensemble, "deup-x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 2 || names[0] != "deup-dv" || names[1] != "deup-x" || sets[0] != deup.FeatD|deup.FeatV || sets[1] != deup.FeatX {
		t.Errorf("Sets = %v %v", names, sets)
	}
	if _, _, err := Sets([]string{"deup-q"}); err == nil {
		t.Error("deup-q: no error")
	}
}

// TestTanimotoDensity checks log q(a, b) = log q(a) + log q(b) with
// q(u) = 1/m sum_t exp(-(1 - T(u, t))/h) over the m training drugs.
func TestTanimotoDensity(t *testing.T) {
	x := &Experiment{
		d:   &model.Dataset{Pairs: []model.PairRef{{A: 0, B: 1}, {A: 1, B: 2}}},
		set: Settings{Bandwidth: 0.1},
		sim: [][]float64{{1, 0.5, 0}, {0.5, 1, 0.2}, {0, 0.2, 1}},
	}
	got, err := tanimotoDensity{x}.logDensity([]int{0}, []int{0, 1}) // training drugs 0 and 1
	if err != nil {
		t.Fatal(err)
	}
	q := func(u int) float64 { return (math.Exp(-(1-x.sim[u][0])/0.1) + math.Exp(-(1-x.sim[u][1])/0.1)) / 2 }
	want := []float64{math.Log(q(0)) + math.Log(q(1)), math.Log(q(1)) + math.Log(q(2))}
	for k := range want {
		if math.Abs(got[k]-want[k]) > 1e-12 {
			t.Errorf("pair %d: log q %v, want %v", k, got[k], want[k])
		}
	}
	if _, err := (tanimotoDensity{x}).logDensity(nil, []int{0}); err == nil {
		t.Error("no training drugs: no error")
	}
}

// oneSeed is a seed of four test pairs (0, 0, 1 and 2 held-out drugs) of
// deup-d, its losses ranked exactly by u.
func oneSeed() *SeedResult {
	return &SeedResult{
		Seed: 1, Test: []int{0, 1, 2, 3}, Unseen: []int8{0, 0, 1, 2},
		Mu:      map[string][]float64{"deup-d": {1, 2, 3, 4}},
		U:       map[string][]float64{"deup-d": {0.1, 0.2, 0.3, 0.4}},
		Seconds: map[string]float64{"deup": 7},
		targets: []float64{1, 1, 1, 1},
	}
}

// TestScore checks a method's RMSE, its training seconds (the deup job's
// for the deup-* rows) and NaN subset scores with fewer than 2 pairs.
func TestScore(t *testing.T) {
	rep := Score([]*SeedResult{oneSeed()}, []string{"deup-d"}, nil)
	s := rep.PerSeed["deup-d"][0]
	if want := math.Sqrt((0 + 1 + 4 + 9) / 4.0); math.Abs(s.RMSE-want) > 1e-12 {
		t.Errorf("RMSE %v, want %v", s.RMSE, want)
	}
	if s.Secs != 7 || rep.NIn != 2 || rep.NOne != 1 || rep.NTwo != 1 || rep.NOut != 2 {
		t.Errorf("secs %v, counts in %d one %d two %d out %d", s.Secs, rep.NIn, rep.NOne, rep.NTwo, rep.NOut)
	}
	if !math.IsNaN(s.SRCCOne) || !math.IsNaN(s.AUROCTwo) || !math.IsNaN(s.SRCCExcess) {
		t.Errorf("one-pair subsets and no truth should be NaN: %+v", s)
	}
	// u ranks the losses exactly: SRCC 1, and every OOD pair above every in-distribution one.
	if s.SRCC != 1 || s.AUROC != 1 {
		t.Errorf("SRCC %v AUROC %v, want 1 and 1", s.SRCC, s.AUROC)
	}
	// No σ_epistemic stored: no summary.
	if rep.hasEpi("deup-d") {
		t.Errorf("summary without σ_epistemic: %v", s.Epi)
	}
}

// TestScoreEpistemic: the σ_epistemic summaries of deup ood (issue 29),
// by hand: test pairs with 0, 0, 1, 2 held-out drugs and σ_epistemic 0,
// 2, 3, 5 (total variances 0.1, 0.2, 0.3, 0.4: √u < 0.7) give unseen0
// 1, unseen1 3, unseen2 5, a zero fraction of ¼ and a small fraction of
// ¼ (only the zero is below a tenth of √u);
// over two seeds (the second 1, 1, 1, 1) mean and sd; in results.json
// under methods.NAME.sigma_epistemic and in the markdown.
func TestScoreEpistemic(t *testing.T) {
	mk := func(seed uint64, epi []float64) *SeedResult {
		return &SeedResult{
			Seed: seed, Test: []int{0, 1, 2, 3}, Unseen: []int8{0, 0, 1, 2},
			Mu:      map[string][]float64{"ensemble": {1, 2, 3, 4}},
			U:       map[string][]float64{"ensemble": {0.1, 0.2, 0.3, 0.4}},
			Epi:     map[string][]float64{"ensemble": epi},
			Seconds: map[string]float64{"ensemble": 1},
			targets: []float64{1, 1, 1, 1},
		}
	}
	rep := Score([]*SeedResult{mk(1, []float64{0, 2, 3, 5}), mk(2, []float64{1, 1, 1, 1})}, []string{"ensemble"}, nil)
	if got, want := rep.PerSeed["ensemble"][0].Epi, [5]float64{1, 3, 5, 0.25, 0.25}; got != want {
		t.Errorf("seed 1 summary %v, want %v", got, want)
	}
	var buf strings.Builder
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var o struct {
		Methods map[string]struct {
			SigmaEpistemic map[string]Stat `json:"sigma_epistemic"`
		} `json:"methods"`
	}
	if err := json.Unmarshal([]byte(buf.String()), &o); err != nil {
		t.Fatal(err)
	}
	se := o.Methods["ensemble"].SigmaEpistemic
	if se["unseen2"].Mean != 3 || math.Abs(float64(se["unseen2"].SD)-math.Sqrt(8)) > 1e-12 || se["zero_fraction"].Mean != 0.125 {
		t.Errorf("results.json sigma_epistemic %+v", se)
	}
	buf.Reset()
	if err := rep.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "| ensemble | 1.000 ± 0.000 | 2.000 ± 1.414 | 3.000 ± 2.828 | 0.125 ± 0.177 | 0.125 ± 0.177 |") {
		t.Errorf("markdown lacks the sigma_epistemic row:\n%s", buf.String())
	}
}

// TestWriteFiles: the files deup ood writes, with and without figures,
// each the report's own output (results.md is WriteMarkdown's bytes).
func TestWriteFiles(t *testing.T) {
	rep := Score([]*SeedResult{oneSeed()}, []string{"deup-d"}, nil)
	for _, c := range []struct {
		figures bool
		want    []string
	}{
		{false, []string{"results.json", "results.md"}},
		{true, []string{"results.json", "results.md", "rejection.png", "rejection.svg"}},
	} {
		dir := t.TempDir()
		got, err := rep.WriteFiles(dir, c.figures)
		if err != nil {
			t.Fatal(err)
		}
		for i := range c.want {
			c.want[i] = filepath.Join(dir, c.want[i])
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("figures %v: wrote %v, want %v", c.figures, got, c.want)
		}
		var md bytes.Buffer
		if err := rep.WriteMarkdown(&md); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(got[1]); err != nil || !bytes.Equal(b, md.Bytes()) {
			t.Errorf("results.md: %v, differs from WriteMarkdown", err)
		}
	}
}

// TestDefaults: the settings deup ood documents in its help and in
// Defaults' comment, the two networks' patience alike, methods that
// CheckMethods accepts.
func TestDefaults(t *testing.T) {
	s := Defaults()
	got := []float64{s.HoldOut, s.InTest, float64(s.Folds), float64(s.Model.Patience), float64(s.DUE.Patience), float64(s.Members), float64(s.Passes), s.Dropout, s.Cutoff, s.Bandwidth, float64(s.PCADims), float64(s.Workers)}
	want := []float64{0.2, 0.3, 5, 10, 10, 3, 30, 0.1, 0.6, 0.1, 8, 2}
	if !reflect.DeepEqual(got, want) || len(s.Seeds) != 0 {
		t.Errorf("Defaults %v (seeds %v), want %v", got, s.Seeds, want)
	}
	if err := CheckMethods(s.Methods); err != nil || len(s.Methods) != 9 {
		t.Errorf("default methods %v: %v", s.Methods, err)
	}
}
