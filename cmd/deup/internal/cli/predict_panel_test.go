package cli

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/scores"
	tuipairs "github.com/deup-screening/deup/tui/pairs"
)

// TestPredictPanelHive: deup predict --out DIR with a model trained on a
// three-line panel writes one partition per line scored
// (DIR/cell_line=X/part-i-of-N.parquet), whose rows are that line's
// predictions: the same numbers as the cell_line rows of a one-file run.
// Two shards check complete with the one-process checksum, and
// --cell-lines B writes B's partition only, with B's predictions (not the
// model's first line's).
func TestPredictPanelHive(t *testing.T) {
	screen := synthPanel(t) // 3 lines, 40 drugs
	dir := t.TempDir()
	mp := filepath.Join(dir, "panel.model")
	if _, serr, code := run(t, "train", "--screen", screen, "--epochs", "2", "--patience", "2", "--out", mp); code != 0 {
		t.Fatalf("train exit %d: %s", code, serr)
	}
	sc, err := drugcomb.OpenDir(screen)
	if err != nil {
		t.Fatal(err)
	}
	const perLine = 40 * 39 / 2
	whole := filepath.Join(dir, "whole.parquet")
	if _, serr, code := run(t, "predict", "--model", mp, "--all-pairs", "--out", whole); code != 0 {
		t.Fatalf("predict exit %d: %s", code, serr)
	}
	// mu of every (a, b, line) of the one-file run, read back by deup tui's reader.
	read := func(path string, cell int) map[[3]int]float64 {
		t.Helper()
		bl, err := tuipairs.NewBuilder(sc, 0, active.DefaultKappa)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bl.ReadPredictions(path, cell); err != nil {
			t.Fatal(err)
		}
		tab, err := bl.Build()
		if err != nil {
			t.Fatal(err)
		}
		out := map[[3]int]float64{}
		for i := range tab.Len() {
			if r := tab.Row(i); !math.IsNaN(r.Mu) {
				out[[3]int{r.A, r.B, r.CellLine}] = r.Mu
			}
		}
		return out
	}
	want := read(whole, -1)
	if len(want) != 3*perLine {
		t.Fatalf("one-file run: %d predictions, want %d", len(want), 3*perLine)
	}
	// the hive directory, one process and two shards
	one := filepath.Join(dir, "one")
	if _, serr, code := run(t, "predict", "--model", mp, "--all-pairs", "--out", one); code != 0 {
		t.Fatalf("predict --out DIR exit %d: %s", code, serr)
	}
	oneRep, err := scores.Check(one)
	if err != nil || !oneRep.OK() || len(oneRep.Lines) != 3 || oneRep.Sum.Rows != 3*perLine {
		t.Fatalf("one-process directory: %+v, %v", oneRep, err)
	}
	sharded := filepath.Join(dir, "sharded")
	for _, s := range []string{"0/2", "1/2"} {
		if _, serr, code := run(t, "predict", "--model", mp, "--all-pairs", "--shard", s, "--out", sharded); code != 0 {
			t.Fatalf("predict --shard %s exit %d: %s", s, code, serr)
		}
	}
	if rep, err := scores.Check(sharded); err != nil || !rep.OK() || rep.Sum != oneRep.Sum {
		t.Fatalf("two shards: %+v, %v; one process: %s", rep, err, oneRep.Sum)
	}
	// each partition holds its own line's predictions
	check := func(dir string, lines []int) {
		t.Helper()
		for _, c := range lines {
			got := read(scores.PartPath(dir, sc.CellLines[c], scores.Whole), c)
			if len(got) != perLine {
				t.Errorf("%s: %d rows, want %d", sc.CellLines[c], len(got), perLine)
			}
			for k, mu := range got {
				if w := want[k]; math.Abs(mu-w) > 1e-9*math.Max(1, math.Abs(w)) {
					t.Fatalf("%s: pair %v: mu %v in its partition, %v in the one-file run", sc.CellLines[c], k, mu, w)
				}
			}
		}
	}
	check(one, []int{0, 1, 2})
	only := filepath.Join(dir, "only2")
	if _, serr, code := run(t, "predict", "--model", mp, "--all-pairs", "--cell-lines", "SYNTH-2", "--out", only); code != 0 {
		t.Fatalf("predict --cell-lines SYNTH-2 exit %d: %s", code, serr)
	}
	rep, err := scores.Check(only)
	if err != nil || !rep.OK() || len(rep.Lines) != 1 || rep.Lines[0].CellLine != "SYNTH-2" {
		t.Fatalf("--cell-lines SYNTH-2: %+v, %v", rep, err)
	}
	check(only, []int{1})
}
