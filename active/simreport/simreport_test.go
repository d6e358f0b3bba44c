package simreport

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
)

func TestReport(t *testing.T) {
	nan := math.NaN()
	traces := []active.Trace{
		{Strategy: "a", Seed: 1, Measured: []int{10, 15}, Best: []float64{3, 5}, TopFound: []float64{0, 0.5}, TestRMSE: []float64{nan, 2}, ModelVers: []string{"", "m1"}},
		{Strategy: "a", Seed: 2, Measured: []int{10, 15}, Best: []float64{1, 7}, TopFound: []float64{0, 1}, TestRMSE: []float64{nan, 4}, ModelVers: []string{"", "m2"}},
		{Strategy: "b", Seed: 1, Measured: []int{10, 15}, Best: []float64{3, 3}, TopFound: []float64{0, 0}, TestRMSE: []float64{nan, 3}, ModelVers: []string{"", "m3"}},
	}
	cfg := active.SimConfig{Init: 10, Batch: 5, Rounds: 1, Seeds: 2, TopFrac: 0.01,
		Strategies: []active.Strategy{{Name: "a"}, {Name: "b"}}}
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
	if !strings.Contains(string(sum), "a,1,15,0.75,0.25,6,1,3,1\n") {
		t.Errorf("summary.csv:\n%s", sum)
	}
	png, _ := os.ReadFile(filepath.Join(dir, "simulation.png"))
	svg, _ := os.ReadFile(filepath.Join(dir, "simulation.svg"))
	if !bytes.HasPrefix(png, []byte("\x89PNG")) || !bytes.Contains(svg, []byte("<svg")) {
		t.Errorf("figures: png %d bytes, svg %d bytes", len(png), len(svg))
	}
}
