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

// A short run of every agent: the files, the JSON keys of the issue, the
// CSV shape, and the same numbers with 1 and 2 workers.
func TestRLRun(t *testing.T) {
	args := func(dir, workers string) []string {
		return []string{"rl", "--agents", "dqn,deup-dqn,mcdropout-dqn,boot-dqn,random", "--seeds", "2", "--episodes", "4", "--workers", workers, "--out", dir}
	}
	dir := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := run(t, args(dir, "2")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, a := range []string{"| dqn |", "| deup-dqn |", "| mcdropout-dqn |", "| boot-dqn |", "| random |"} {
		if !strings.Contains(stdout, a) {
			t.Errorf("table lacks %s:\n%s", a, stdout)
		}
	}
	if !strings.Contains(stderr, "rl boot-dqn seed 2") {
		t.Errorf("no progress bar per run on stderr:\n%s", stderr)
	}
	for _, f := range []string{"results.json", "runs.csv", "regret.png", "regret.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Env      string `json:"env"`
		Episodes int    `json:"episodes"`
		Seeds    int    `json:"seeds"`
		Agents   map[string]struct {
			AverageRegret struct{ Mean, SD *float64 } `json:"average_regret"`
			Score         struct{ Mean, SD *float64 } `json:"score"`
			PerSeed       []struct {
				Seed        *uint64  `json:"seed"`
				TotalRegret *float64 `json:"total_regret"`
				BestEpisode *float64 `json:"best_episode"`
				WallSeconds *float64 `json:"wall_seconds"`
			} `json:"per_seed"`
			RegretCurve []float64 `json:"regret_curve"`
		} `json:"agents"`
		WallSeconds *float64 `json:"wall_seconds"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Env != "cartpole" || got.Episodes != 4 || got.Seeds != 2 || len(got.Agents) != 5 || got.WallSeconds == nil {
		t.Fatalf("results.json header: %.300s", b)
	}
	for name, a := range got.Agents {
		if a.AverageRegret.Mean == nil || a.AverageRegret.SD == nil || a.Score.Mean == nil || a.Score.SD == nil || len(a.PerSeed) != 2 || len(a.RegretCurve) != 4 {
			t.Errorf("%s: incomplete entry", name)
			continue
		}
		for _, s := range a.PerSeed {
			if s.Seed == nil || s.TotalRegret == nil || s.BestEpisode == nil || s.WallSeconds == nil {
				t.Errorf("%s: per_seed entry lacks a key", name)
			}
		}
		// The curve's last point is the mean average regret.
		if d := a.RegretCurve[3] - *a.AverageRegret.Mean; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: regret_curve ends at %v, average regret %v", name, a.RegretCurve[3], *a.AverageRegret.Mean)
		}
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "runs.csv"))
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	if lines[0] != "agent,seed,episode,return,total_regret" || len(lines) != 1+5*2*4 {
		t.Errorf("runs.csv: header %q, %d lines", lines[0], len(lines))
	}
	for _, w := range []string{"1", "0"} { // 0: one per CPU
		dir2 := filepath.Join(t.TempDir(), "out"+w)
		if _, stderr, code := run(t, args(dir2, w)...); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		csv2, _ := os.ReadFile(filepath.Join(dir2, "runs.csv"))
		if !bytes.Equal(csv, csv2) {
			t.Errorf("runs.csv differs between --workers 2 and --workers %s", w)
		}
	}
}

// A run stopped by a cancelled context (here: cancelled when the run's
// bar first draws, after its first episode) is reported as stopped, not
// drawn as a finished bar, and the command fails without writing results.
func TestRLCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := filepath.Join(t.TempDir(), "out")
	var out bytes.Buffer
	errw := &cancelOnWrite{cancel: cancel}
	code := Main(ctx, []string{"rl", "--agents", "dqn", "--seeds", "1", "--episodes", "50", "--workers", "1", "--out", dir},
		Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: errw})
	if code == 0 {
		t.Fatalf("exit 0 with a cancelled context")
	}
	if got := errw.b.String(); !strings.Contains(got, "rl dqn seed 1: stopped: context canceled") || strings.Contains(got, "100%") {
		t.Errorf("stderr:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "results.json")); err == nil {
		t.Error("results.json written for a cancelled table")
	}
}

// cancelOnWrite records what is written and cancels on the first write.
type cancelOnWrite struct {
	b      bytes.Buffer
	cancel context.CancelFunc
}

func (c *cancelOnWrite) Write(p []byte) (int, error) {
	c.cancel()
	return c.b.Write(p)
}
