package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateSMO = flag.Bool("update-smo", false, "rewrite testdata/smo_* golden files")

func smoMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func TestSMOHelpGolden(t *testing.T) {
	code, stderr, _ := smoMain(t, "smo", "-h") // help goes to stdout
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	golden := filepath.Join("testdata", "smo_help.golden")
	if *updateSMO {
		if err := os.WriteFile(golden, []byte(stderr), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update-smo)", err)
	}
	if stderr != string(want) {
		t.Errorf("help differs from %s:\n%s", golden, stderr)
	}
}

func TestSMOUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"empty out", []string{"smo", "--out", ""}, "--out is empty"},
		{"bad function", []string{"smo", "--function", "rastrigin", "--out", dir}, "unknown function"},
		{"bad method", []string{"smo", "--method", "gp-ucb", "--out", dir}, "unknown method"},
		{"bad dim", []string{"smo", "--function", "levy13", "--dim", "3", "--out", dir}, "2-dimensional"},
		{"bad features", []string{"smo", "--features", "xz", "--out", dir}, "unknown feature"},
		{"small init", []string{"smo", "--init", "2", "--out", dir}, "--init 2"},
		{"positional", []string{"smo", "--out", dir, "extra"}, "unexpected argument"},
		{"bad prior", []string{"smo", "--error-prior", "zero", "--out", dir}, "--error-prior"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := smoMain(t, tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tc.want)
			}
		})
	}
}

func TestSMORun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := smoMain(t, "smo", "--function", "levy13", "--method", "random,gp-ei,turbo-deup-ei",
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
	code, _, stderr = smoMain(t, "smo", "--function", "levy13", "--method", "random,gp-ei,turbo-deup-ei",
		"--seeds", "2", "--steps", "3", "--init", "6", "--gp-restarts", "0", "--raw", "64", "--starts", "2", "--jobs", "1", "--out", dir2)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	csv2, _ := os.ReadFile(filepath.Join(dir2, "results.csv"))
	if !bytes.Equal(csv, csv2) {
		t.Error("results.csv differs between --jobs 2 and --jobs 1")
	}
}
