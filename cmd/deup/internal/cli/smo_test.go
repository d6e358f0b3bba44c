package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSMORun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := run(t, "smo", "--function", "levy13", "--method", "random,gp-ei,turbo-deup-ei",
		"--seeds", "2", "--steps", "3", "--init", "6", "--gp-restarts", "0", "--raw", "64", "--starts", "2", "--jobs", "2", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, m := range []string{"random", "gp-ei", "turbo-deup-ei"} {
		if !strings.Contains(stdout, m) {
			t.Errorf("summary lacks %s:\n%s", m, stdout)
		}
	}
	for _, f := range []string{"results.csv", "results.json", "best_so_far.png", "best_so_far.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Function  string   `json:"function"`
		Dim       int      `json:"dim"`
		GlobalMax *float64 `json:"global_max"`
		Methods   map[string]struct {
			BestSoFar      [][]float64 `json:"best_so_far"`
			StepsToOptimum []*int      `json:"steps_to_optimum"`
		} `json:"methods"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Function != "levy13" || got.Dim != 2 || got.GlobalMax == nil || *got.GlobalMax != 0 || len(got.Methods) != 3 {
		t.Fatalf("results.json header: %s", b[:200])
	}
	for m, r := range got.Methods {
		if len(r.BestSoFar) != 2 || len(r.BestSoFar[0]) != 3 || len(r.StepsToOptimum) != 2 {
			t.Errorf("%s: %d seeds x %d steps, %d steps_to_optimum", m, len(r.BestSoFar), len(r.BestSoFar[0]), len(r.StepsToOptimum))
		}
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "results.csv"))
	// header + 3 methods x 2 seeds x (1 initial + 3 steps)
	if n := strings.Count(string(csv), "\n"); n != 1+3*2*4 {
		t.Errorf("results.csv has %d lines", n)
	}
	// Same command, same numbers (seeded), whatever the parallelism.
	dir2 := filepath.Join(t.TempDir(), "out2")
	_, stderr, code = run(t, "smo", "--function", "levy13", "--method", "random,gp-ei,turbo-deup-ei",
		"--seeds", "2", "--steps", "3", "--init", "6", "--gp-restarts", "0", "--raw", "64", "--starts", "2", "--jobs", "1", "--out", dir2)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	csv2, _ := os.ReadFile(filepath.Join(dir2, "results.csv"))
	if !bytes.Equal(csv, csv2) {
		t.Error("results.csv differs between --jobs 2 and --jobs 1")
	}
}
