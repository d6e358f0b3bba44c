package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOODRun runs deup ood end to end on the synthetic default with one
// epoch per training (fast, not meaningful numbers) and checks the output
// files and the JSON keys of the issue.
func TestOODRun(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := run(t, "ood", "--seeds", "1", "--folds", "2", "--epochs", "1", "--patience", "1", "--methods", "deup-dv,deup-xdvb,mcdropout,density", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "| deup-dv |") || !strings.Contains(stdout, "srcc_excess_risk") {
		t.Errorf("stdout lacks the table:\n%s", stdout)
	}
	if !strings.Contains(stderr, "3/3") {
		t.Errorf("progress bar did not count 3 trainings (2 folds + final):\n%s", stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Methods map[string]map[string]struct {
			Mean *float64 `json:"mean"`
			SD   *float64 `json:"sd"`
		} `json:"methods"`
		NIn         int      `json:"n_in"`
		NOut        int      `json:"n_out"`
		WallSeconds *float64 `json:"wall_seconds"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.NIn <= 0 || res.NOut <= 0 || res.WallSeconds == nil {
		t.Errorf("n_in %d, n_out %d, wall_seconds %v", res.NIn, res.NOut, res.WallSeconds)
	}
	for _, m := range []string{"deup-dv", "deup-xdvb", "mcdropout", "density"} {
		e, ok := res.Methods[m]
		if !ok {
			t.Fatalf("results.json has no method %s", m)
		}
		for _, k := range []string{"srcc", "auroc", "rejection_auc", "srcc_one_unseen", "srcc_two_unseen", "srcc_excess_risk"} {
			v, ok := e[k]
			if !ok || v.Mean == nil {
				t.Errorf("%s: key %s missing or null", m, k)
				continue
			}
			if *v.Mean < -1 || *v.Mean > 1.5 {
				t.Errorf("%s %s = %v out of range", m, k, *v.Mean)
			}
		}
	}
	// The density row ranks by -log q: held-out drugs have no self term in
	// the kernel sum, so it separates in from out of distribution perfectly.
	if a := res.Methods["density"]["auroc"].Mean; a == nil || *a != 1 {
		t.Errorf("density auroc %v, want 1", a)
	}
	for _, f := range []string{"results.md", "rejection.png", "rejection.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}
