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

// synthPanel writes a three-line synthetic screen (deup data synth) and
// returns its directory.
func synthPanel(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "panel")
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"data", "synth", "--cell-lines", "3", "--pairs", "900", "--drugs", "40", "--out", dir}, Env{Stdout: &stdout, Stderr: &stderr}); code != 0 {
		t.Fatalf("data synth: exit %d\n%s", code, stderr.String())
	}
	return dir
}

// TestBenchPanel runs the fast panel benchmark: one model over every line,
// per-line keys in results.json and the per-line reference row by
// default; --split-by cell-lines with --new-line-shots reports K = 0 too.
func TestBenchPanel(t *testing.T) {
	dir := synthPanel(t)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"bench", "--screen", dir, "--methods", "deup,ensemble", "--members", "1", "--seeds", "1", "--epochs", "2", "--patience", "2", "--no-figures", "--out", out}
	if code := Main(context.Background(), args, Env{Stdout: &stdout, Stderr: &stderr}); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Methods map[string]struct {
			PerLine map[string]map[string]json.RawMessage `json:"per_line"`
		} `json:"methods"`
		Rows []string `json:"rows"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(res.Rows, ","), "per-line") {
		t.Errorf("rows %v lack per-line", res.Rows)
	}
	for _, m := range []string{"deup", "ensemble", "per-line"} {
		if pl := res.Methods[m].PerLine; len(pl) != 3 || pl["SYNTH-2"]["rmse"] == nil || pl["SYNTH-2"]["n"] == nil {
			t.Errorf("%s: per_line %v", m, pl)
		}
	}
	if !strings.Contains(stdout.String(), "Per cell line (3 lines") {
		t.Errorf("no per-line table:\n%s", stdout.String())
	}

	out2 := t.TempDir()
	stdout.Reset()
	args = []string{"bench", "--screen", dir, "--methods", "deup", "--seeds", "1", "--epochs", "2", "--patience", "2", "--no-figures",
		"--split-by", "cell-lines", "--split", "50/17/33", "--new-line-shots", "20", "--out", out2}
	if code := Main(context.Background(), args, Env{Stdout: &stdout, Stderr: &stderr}); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	for _, f := range []string{"results.json", filepath.Join("k0", "results.json")} {
		if _, err := os.Stat(filepath.Join(out2, f)); err != nil {
			t.Error(err)
		}
	}
	if s := stdout.String(); !strings.Contains(s, "K = 0") || !strings.Contains(s, "with 20 measured pairs") {
		t.Errorf("output lacks the K = 0 and K runs:\n%s", s)
	}
	for _, bad := range [][]string{
		{"bench", "--screen", dir, "--reference", "per-line", "--split-by", "cell-lines"},
		{"bench", "--screen", dir, "--new-line-shots", "5"},
		{"bench", "--screen", dir, "--cell-lines", "SYNTH-1,NOPE"},
		{"bench", "--reference", "per-line"},
	} {
		stderr.Reset()
		if code := Main(context.Background(), bad, Env{Stdout: &stdout, Stderr: &stderr}); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", bad, code, stderr.String())
		}
	}
}

// TestTrainPredictPanel trains one model over a three-line panel and
// scores every pair on two of its lines: one row per (pair, line), the
// line in the cell_line column, measured looked up per line.
func TestTrainPredictPanel(t *testing.T) {
	dir := synthPanel(t)
	tmp := t.TempDir()
	mpath := filepath.Join(tmp, "panel.model")
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"train", "--screen", dir, "--epochs", "2", "--patience", "2", "--out", mpath}, Env{Stdout: &stdout, Stderr: &stderr}); code != 0 {
		t.Fatalf("train: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	out := filepath.Join(tmp, "pairs.csv")
	stdout.Reset()
	if code := Main(context.Background(), []string{"predict", "--model", mpath, "--all-pairs", "--cell-lines", "SYNTH-1,SYNTH-3", "--out", out}, Env{Stdout: &stdout, Stderr: &stderr}); code != 0 {
		t.Fatalf("predict: exit %d\n%s", code, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	head := strings.Split(lines[0], ",")
	col := -1
	for i, h := range head {
		if h == "cell_line" {
			col = i
		}
	}
	if col < 0 {
		t.Fatalf("no cell_line column: %s", lines[0])
	}
	count := map[string]int{}
	measured := 0
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		count[f[col]]++
		if strings.Contains(l, ",true,") {
			measured++
		}
	}
	n := 40 * 39 / 2
	if count["SYNTH-1"] != n || count["SYNTH-3"] != n || len(count) != 2 {
		t.Errorf("rows per line %v, want %d on SYNTH-1 and SYNTH-3", count, n)
	}
	if measured == 0 {
		t.Error("no pair marked measured")
	}
	stderr.Reset()
	if code := Main(context.Background(), []string{"predict", "--model", mpath, "--all-pairs", "--cell-lines", "NOPE", "--out", out}, Env{Stdout: &stdout, Stderr: &stderr}); code != 2 {
		t.Errorf("unknown line: exit %d (%s)", code, stderr.String())
	}
	// suggest proposes across the lines, at most --per-line on each.
	sug := filepath.Join(tmp, "next.csv")
	stdout.Reset()
	if code := Main(context.Background(), []string{"suggest", "--model", mpath, "--batch", "12", "--per-line", "2", "--out", sug}, Env{Stdout: &stdout, Stderr: &stderr}); code != 0 {
		t.Fatalf("suggest: exit %d\n%s", code, stderr.String())
	}
	b, err = os.ReadFile(sug)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")
	col = -1
	for i, h := range strings.Split(rows[0], ",") {
		if h == "cell_line" {
			col = i
		}
	}
	if col < 0 {
		t.Fatalf("no cell_line column: %s", rows[0])
	}
	per := map[string]int{}
	for _, r := range rows[1:] {
		per[strings.Split(r, ",")[col]]++
	}
	if len(rows)-1 != 6 || len(per) != 3 {
		t.Errorf("%d suggestions on lines %v, want 2 on each of 3", len(rows)-1, per)
	}
	for l, n := range per {
		if n > 2 {
			t.Errorf("%d suggestions on %s, cap 2", n, l)
		}
	}
}
