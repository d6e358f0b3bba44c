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

func TestParseSplit(t *testing.T) {
	tests := []struct {
		in   string
		want [3]float64
		ok   bool
	}{
		{"40/30/30", [3]float64{0.4, 0.3, 0.3}, true},
		{"0.5/0.25/0.25", [3]float64{0.5, 0.25, 0.25}, true},
		{"2/1/1", [3]float64{0.5, 0.25, 0.25}, true},
		{"40/30", [3]float64{}, false},
		{"40/x/30", [3]float64{}, false},
		{"40/0/60", [3]float64{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseSplit(tc.in)
			if (err == nil) != tc.ok {
				t.Fatalf("parseSplit(%q) error %v, want ok=%v", tc.in, err, tc.ok)
			}
			for i := range got {
				if d := got[i] - tc.want[i]; tc.ok && (d > 1e-12 || d < -1e-12) {
					t.Errorf("parseSplit(%q) = %v, want %v", tc.in, got, tc.want)
				}
			}
		})
	}
}

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

func TestBenchUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown method", []string{"bench", "--methods", "bnn"}, `unknown method "bnn"`},
		{"bad split", []string{"bench", "--split", "50/50"}, "want three numbers"},
		{"no seeds", []string{"bench", "--seeds", "0"}, "--seeds 0"},
		{"alpha 0", []string{"bench", "--alpha", "0"}, "--alpha 0: the conformal miscoverage must be in (0, 1)"},
		{"alpha 90", []string{"bench", "--alpha", "90"}, "--alpha 90"},
		{"alpha not a number", []string{"bench", "--alpha", "ten"}, "ten"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(context.Background(), tc.args, Env{Stdout: &stdout, Stderr: &stderr})
			if code != 2 || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr.String(), tc.want)
			}
		})
	}
}
