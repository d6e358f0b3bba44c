package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/scores"
)

// shardTestModel trains a one-epoch model on a small generated screen and
// returns its path and the screen's directory.
func shardTestModel(t *testing.T) (model, screen string) {
	t.Helper()
	sc, err := data.Synth(data.SynthConfig{Seed: 7, Drugs: 16, CellLines: 1, Pairs: 90, ReplicateFrac: 0.2, MaxReplicates: 3,
		LatentDim: 3, Scale: 10, NoiseMin: 1, NoiseMax: 3, RareWeight: 0.1, RareEffect: 1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	screen = filepath.Join(dir, "screen")
	if err := drugcomb.Save(screen, sc); err != nil {
		t.Fatal(err)
	}
	model = filepath.Join(dir, "m.deup")
	if _, serr, code := runCLI(t, "train", "--screen", screen, "--epochs", "1", "--seed", "1", "--out", model); code != 0 {
		t.Fatalf("train exit %d: %s", code, serr)
	}
	return model, screen
}

// TestPredictShardsAddUp is issue 31's check on the command: the CSV rows of
// --shard i/N for every i are, in order, byte for byte the rows of the
// unsharded run (16 drugs, 120 pairs; N = 1, 3, 7 and 121 > pairs), and the
// hive directories of the shards check complete with the checksum of the
// one-process directory.
func TestPredictShardsAddUp(t *testing.T) {
	model, _ := shardTestModel(t)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.csv")
	if _, serr, code := runCLI(t, "predict", "--model", model, "--all-pairs", "--out", whole); code != 0 {
		t.Fatalf("predict exit %d: %s", code, serr)
	}
	wantRows := csvLines(t, whole)
	if len(wantRows) != 1+16*15/2 {
		t.Fatalf("unsharded run: %d lines, want header + 120", len(wantRows))
	}
	oneDir := filepath.Join(dir, "one")
	if _, serr, code := runCLI(t, "predict", "--model", model, "--all-pairs", "--out", oneDir); code != 0 {
		t.Fatalf("predict --out DIR exit %d: %s", code, serr)
	}
	one, err := scores.Check(oneDir)
	if err != nil || !one.OK() || one.Sum.Rows != 120 {
		t.Fatalf("one-process directory: %+v, %v", one, err)
	}
	for _, n := range []int{1, 3, 7, 121} {
		t.Run(fmt.Sprintf("N=%d", n), func(t *testing.T) {
			got := []string{wantRows[0]}
			hive := filepath.Join(dir, fmt.Sprintf("hive%d", n))
			for i := 0; i < n; i++ {
				out := filepath.Join(dir, fmt.Sprintf("s%d-%d.csv", n, i))
				shard := fmt.Sprintf("%d/%d", i, n)
				if _, serr, code := runCLI(t, "predict", "--model", model, "--all-pairs", "--shard", shard, "--out", out); code != 0 {
					t.Fatalf("predict --shard %s exit %d: %s", shard, code, serr)
				}
				rows := csvLines(t, out)
				if rows[0] != wantRows[0] {
					t.Fatalf("shard %s header %q", shard, rows[0])
				}
				got = append(got, rows[1:]...)
				if _, serr, code := runCLI(t, "predict", "--model", model, "--all-pairs", "--shard", shard, "--out", hive); code != 0 {
					t.Fatalf("predict --shard %s --out DIR exit %d: %s", shard, code, serr)
				}
			}
			if !slices.Equal(got, wantRows) {
				t.Fatalf("the shards' rows (%d lines) are not the unsharded run's (%d lines)", len(got), len(wantRows))
			}
			rep, err := scores.Check(hive)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.OK() || rep.Sum != one.Sum {
				t.Fatalf("shards: problems %v, checksum %s; one process: %s", rep.Problems, rep.Sum, one.Sum)
			}
		})
	}
}

// TestPredictShardFromEnv takes the shard index from SLURM_ARRAY_TASK_ID and
// JOB_COMPLETION_INDEX, and refuses env/N when neither is set.
func TestPredictShardFromEnv(t *testing.T) {
	model, _ := shardTestModel(t)
	dir := t.TempDir()
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("JOB_COMPLETION_INDEX", "")
	_, serr, code := runCLI(t, "predict", "--model", model, "--all-pairs", "--shard", "env/2", "--out", dir)
	if code != 2 || !strings.Contains(serr, "SLURM_ARRAY_TASK_ID") {
		t.Fatalf("env/2 with no index: exit %d, stderr %q; want 2 naming SLURM_ARRAY_TASK_ID", code, serr)
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	if _, serr, code := runCLI(t, "predict", "--model", model, "--all-pairs", "--shard", "env/2", "--out", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, serr)
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("JOB_COMPLETION_INDEX", "0")
	if _, serr, code := runCLI(t, "predict", "--model", model, "--all-pairs", "--shard", "env/2", "--out", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, serr)
	}
	rep, err := scores.Check(dir)
	if err != nil || !rep.OK() || rep.Sum.Rows != 120 {
		t.Fatalf("after both array tasks: %+v, %v", rep, err)
	}
	// scores check prints the checksum and exits 0; summary suggests a batch.
	sout, serr, code := runCLI(t, "scores", "check", dir)
	if code != 0 || !strings.Contains(sout, "complete") || !strings.Contains(sout, rep.Sum.String()) {
		t.Fatalf("scores check: exit %d, stdout %q, stderr %q", code, sout, serr)
	}
	batch := filepath.Join(t.TempDir(), "batch.csv")
	if sout, serr, code := runCLI(t, "scores", "summary", dir, "--batch", "5", "--out", batch); code != 0 {
		t.Fatalf("scores summary: exit %d: %s %s", code, sout, serr)
	}
	if rows := csvLines(t, batch); len(rows) != 6 || !strings.HasPrefix(rows[0], "rank,cell_line,") {
		t.Fatalf("batch: %q", rows)
	}
	// One part gone: check fails and names it.
	os.Remove(scores.PartPath(dir, rep.Lines[0].CellLine, scores.Shard{Index: 1, Count: 2}))
	if _, serr, code := runCLI(t, "scores", "check", dir); code != 1 || !strings.Contains(serr, "part-1-of-2.parquet: missing") {
		t.Fatalf("scores check without part 1: exit %d, stderr %q", code, serr)
	}
}

func csvLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestPredictPairsShards: with --pairs, the shards are ranges of the file's
// rows; their CSV rows, extra columns included, are the unsharded run's.
func TestPredictPairsShards(t *testing.T) {
	model, screen := shardTestModel(t)
	sc, err := drugcomb.Open(screen)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("well,drug_a_id,drug_b_id\n")
	for k := 0; k < 11; k++ {
		fmt.Fprintf(&b, "W%02d,%s,%s\n", k, sc.Drugs[k%len(sc.Drugs)].ID, sc.Drugs[(3*k+1)%len(sc.Drugs)].ID)
	}
	pairs := filepath.Join(dir, "plate.csv")
	if err := os.WriteFile(pairs, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole.csv")
	if _, serr, code := runCLI(t, "predict", "--model", model, "--pairs", pairs, "--out", whole); code != 0 {
		t.Fatalf("predict exit %d: %s", code, serr)
	}
	want := csvLines(t, whole)
	got := want[:1:1]
	for i := 0; i < 4; i++ {
		out := filepath.Join(dir, fmt.Sprintf("s%d.csv", i))
		if _, serr, code := runCLI(t, "predict", "--model", model, "--pairs", pairs, "--shard", fmt.Sprintf("%d/4", i), "--out", out); code != 0 {
			t.Fatalf("predict --shard %d/4 exit %d: %s", i, code, serr)
		}
		got = append(got, csvLines(t, out)[1:]...)
	}
	if len(want) != 12 || !slices.Equal(got, want) {
		t.Fatalf("shards' rows:\n%s\nunsharded:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
