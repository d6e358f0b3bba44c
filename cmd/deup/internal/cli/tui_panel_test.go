package cli

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"testing"
)

// TestTUIPanelModel: deup tui --model with a model trained on a three-line
// panel scores every pair on each line the model knows (so the UI's line
// filter and line column have something to show), and --cell-line keeps
// one line.
func TestTUIPanelModel(t *testing.T) {
	dir := synthPanel(t)
	mpath := filepath.Join(t.TempDir(), "panel.model")
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"train", "--screen", dir, "--epochs", "2", "--patience", "2", "--out", mpath}, Env{Stdout: &stdout, Stderr: &stderr}); code != 0 {
		t.Fatalf("train: exit %d\n%s", code, stderr.String())
	}
	const pairsPerLine = 40 * 39 / 2 // synthPanel: 40 drugs
	for _, tc := range []struct {
		cellLine string
		want     map[string]int // predicted rows per line
	}{
		{"", map[string]int{"SYNTH-1": pairsPerLine, "SYNTH-2": pairsPerLine, "SYNTH-3": pairsPerLine}},
		{"SYNTH-2", map[string]int{"SYNTH-2": pairsPerLine}},
	} {
		tab, err := loadTUITable(context.Background(), Env{Stderr: &stderr}, tuiInputs{modelPath: mpath, cellLine: tc.cellLine, kappa: 1})
		if err != nil {
			t.Fatal(err)
		}
		info := tab.Info()
		got := map[string]int{}
		mu := map[[2]int][]float64{}
		for i := range tab.Len() {
			r := tab.Row(i)
			if math.IsNaN(r.Mu) {
				continue
			}
			got[info.CellLines[r.CellLine]]++
			mu[[2]int{r.A, r.B}] = append(mu[[2]int{r.A, r.B}], r.Mu)
		}
		if len(got) != len(tc.want) {
			t.Errorf("--cell-line %q: predicted rows per line %v, want %v", tc.cellLine, got, tc.want)
		}
		for l, n := range tc.want {
			if got[l] != n {
				t.Errorf("--cell-line %q: %d predicted rows on %s, want %d", tc.cellLine, got[l], l, n)
			}
		}
		if tc.cellLine == "" {
			// The line embedding makes the lines' predictions differ.
			differ := 0
			for _, v := range mu {
				if len(v) == 3 && (v[0] != v[1] || v[1] != v[2]) {
					differ++
				}
			}
			if differ == 0 {
				t.Error("every pair has the same mu on the three lines")
			}
		}
	}
}
