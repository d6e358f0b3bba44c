package simreport

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active/simulate"

	"github.com/deup-screening/deup/internal/jsonfloat"
	"gonum.org/v1/plot/plotter"
)

func TestReport(t *testing.T) {
	nan := math.NaN()
	traces := []simulate.Trace{
		{Strategy: "a", Seed: 1, Measured: []int{10, 15}, Best: []float64{3, 5}, TopFound: []float64{0, 0.5}, TestRMSE: []float64{nan, 2}, ModelVers: []string{"", "m1"}},
		{Strategy: "a", Seed: 2, Measured: []int{10, 15}, Best: []float64{1, 7}, TopFound: []float64{0, 1}, TestRMSE: []float64{nan, 4}, ModelVers: []string{"", "m2"}},
		{Strategy: "b", Seed: 1, Measured: []int{10, 15}, Best: []float64{3, 3}, TopFound: []float64{0, 0}, TestRMSE: []float64{nan, 3}, ModelVers: []string{"", "m3"}},
	}
	cfg := simulate.Config{Init: 10, Batch: 5, Rounds: 1, Seeds: 2, TopFrac: 0.01,
		Strategies: []simulate.Strategy{{Name: "a"}, {Name: "b"}}}
	r := Build(traces, cfg)
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Acquisitions  map[string]map[string]struct{ Mean, SE []*float64 }
		Rounds, Seeds int
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	// Floats are floats in JSON (a mean of 6 is 6.0): only counts are
	// integers (docs/vocabulary.md, "Columns and types").
	ints, err := jsonfloat.IntegerKeys(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if want := "batch init max_per_drug measured pairs rounds seeds top_pairs"; strings.Join(ints, " ") != want {
		t.Errorf("keys holding integers: %v, want %s\n%s", ints, want, buf.String())
	}
	a := got.Acquisitions["a"]
	// best after round 1: 5 and 7 -> mean 6, sd sqrt(2), se sqrt(2)/sqrt(2) = 1.
	if *a["best"].Mean[1] != 6 || math.Abs(*a["best"].SE[1]-1) > 1e-12 {
		t.Errorf("best: %v %v", *a["best"].Mean[1], *a["best"].SE[1])
	}
	// top1_found: 0.5 and 1 -> mean 0.75, se 0.25.
	if *a["top1_found"].Mean[1] != 0.75 || math.Abs(*a["top1_found"].SE[1]-0.25) > 1e-12 {
		t.Errorf("top1_found: %v %v", *a["top1_found"].Mean[1], *a["top1_found"].SE[1])
	}
	if a["test_rmse"].Mean[0] != nil || *a["test_rmse"].Mean[1] != 3 {
		t.Errorf("test_rmse: %v", a["test_rmse"].Mean)
	}
	if got.Rounds != 1 || got.Seeds != 2 || len(got.Acquisitions) != 2 {
		t.Errorf("rounds %d seeds %d", got.Rounds, got.Seeds)
	}
	dir := t.TempDir()
	if err := WriteAll(dir, r, traces, "test"); err != nil {
		t.Fatal(err)
	}
	sum, _ := os.ReadFile(filepath.Join(dir, "summary.csv"))
	if !strings.Contains(string(sum), "a,1,15,0.75,0.25,6.0,1.0,3.0,1.0,,,,\n") {
		t.Errorf("summary.csv:\n%s", sum)
	}
	png, _ := os.ReadFile(filepath.Join(dir, "simulation.png"))
	svg, _ := os.ReadFile(filepath.Join(dir, "simulation.svg"))
	if !bytes.HasPrefix(png, []byte("\x89PNG")) || !bytes.Contains(svg, []byte("<svg")) {
		t.Errorf("figures: png %d bytes, svg %d bytes", len(png), len(svg))
	}
}

// TestFigureLayout: the five panels share one pairs-measured range (the
// RMSE panel too, although it has no value at the initial set), count axes
// have whole-number labels, strategies get different colours and are
// shifted apart, and the legend is drawn apart from the panels.
func TestFigureLayout(t *testing.T) {
	nan := math.NaN()
	var traces []simulate.Trace
	var strategies []simulate.Strategy
	for _, s := range []string{"a", "b", "c"} {
		// identical curves: without the shift they would hide each other
		traces = append(traces, simulate.Trace{Strategy: s, Seed: 1, Measured: []int{175, 205, 235},
			Best: []float64{3, 5, 5}, TopFound: []float64{0, 0.5, 1}, TestRMSE: []float64{nan, 2, 1}})
		strategies = append(strategies, simulate.Strategy{Name: s})
	}
	r := Build(traces, simulate.Config{Init: 175, Batch: 30, Rounds: 2, Seeds: 1, TopFrac: 0.01, Strategies: strategies})
	panels, leg, err := r.plots("t")
	if err != nil {
		t.Fatal(err)
	}
	if len(panels) != 5 || leg == nil {
		t.Fatalf("%d panels, legend %v", len(panels), leg != nil)
	}
	for i, p := range panels {
		if p.X.Min != panels[0].X.Min || p.X.Max != panels[0].X.Max || !(p.X.Min < 175 && p.X.Max > 235) {
			t.Errorf("panel %d spans x [%g, %g], panel 0 [%g, %g]", i, p.X.Min, p.X.Max, panels[0].X.Min, panels[0].X.Max)
		}
		for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
			if strings.Contains(tk.Label, ".") {
				t.Errorf("panel %d: x tick label %q", i, tk.Label)
			}
		}
	}
	// Each strategy's points: shifted apart by less than a fifth of a batch
	// in all, in different colours.
	var xs []float64
	colors := map[any]bool{}
	for si := range r.Order {
		xs = append(xs, 175+r.xShift(si))
		l, sc, err := plotter.NewLinePoints(plotter.XYs{{}})
		if err != nil {
			t.Fatal(err)
		}
		style(si, l, sc)
		colors[l.Color] = true
	}
	if len(colors) != 3 {
		t.Errorf("%d colours for 3 strategies", len(colors))
	}
	if !(xs[0] < xs[1] && xs[1] < xs[2]) || xs[2]-xs[0] > 0.2*30+1e-9 || xs[0]+xs[2] != 2*175 {
		t.Errorf("first points at %v: want increasing, centred on 175, within 6 pairs", xs)
	}
	dir := t.TempDir()
	if err := r.WriteFigures(filepath.Join(dir, "sim"), "t"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sim.png", "sim.svg"} { // os.CreateTemp alone: 0600
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v, want mode 0644", name, err)
		}
	}
}
