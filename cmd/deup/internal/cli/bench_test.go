package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchCommand runs the real command on the embedded default with a
// short training, and checks what it prints and writes.
func TestBenchCommand(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"bench", "--methods", "deup", "--seeds", "1", "--epochs", "2", "--out", out}, Env{Stdout: &stdout, Stderr: &stderr})
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	for _, s := range []string{"| deup |", "| constant |", "epi_corr", "total wall time", "Conformal intervals at 90 %"} {
		if !strings.Contains(stdout.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, stdout.String())
		}
	}
	if !strings.Contains(stderr.String(), "bench [") {
		t.Errorf("no progress bar on stderr:\n%s", stderr.String())
	}
	for _, f := range []string{"results.json", "predictions.parquet", "pairs.png", "pairs.svg", "calibration.png", "calibration.svg", "residuals.png", "residuals.svg", "conformal.png", "conformal.svg"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	// results.md is the tables and notes as printed (issue 43: the
	// README's main job names the table among bench-out's files).
	md, err := os.ReadFile(filepath.Join(out, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(md), "| method |") || !strings.Contains(stdout.String(), string(md)) || !strings.Contains(stdout.String(), filepath.Join(out, "results.md")) {
		t.Errorf("results.md is not the printed table, or is not named:\n%s\nstdout:\n%s", md, stdout.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Methods   map[string]map[string]json.RawMessage `json:"methods"`
		Seeds     int                                   `json:"seeds"`
		TestPairs int                                   `json:"test_pairs"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.Seeds != 1 || res.TestPairs == 0 || res.Methods["deup"]["corr"] == nil || res.Methods["deup"]["conformal"] == nil {
		t.Errorf("results.json: %s", b)
	}
}
