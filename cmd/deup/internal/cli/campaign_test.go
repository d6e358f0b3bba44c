package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/ledger"
	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
)

// smallCampaignScreen is a synthetic screen of 20 drugs and 150 pairs on one
// cell line, small enough for a campaign's rounds in a test.
func smallCampaignScreen() (*drugcomb.Screen, error) {
	return data.Synth(data.SynthConfig{Seed: 3, Drugs: 20, CellLines: 1, Pairs: 150, ReplicateFrac: 0.2, MaxReplicates: 3,
		LatentDim: 3, Scale: 10, NoiseMin: 1, NoiseMax: 3, RareWeight: 0.1, RareEffect: 1})
}

// campaignScreenDir writes smallCampaignScreen and returns its directory.
func campaignScreenDir(t *testing.T) string {
	t.Helper()
	sc, err := smallCampaignScreen()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "screen")
	if err := drugcomb.Save(dir, sc); err != nil {
		t.Fatal(err)
	}
	return dir
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, code := run(t, args...)
	if code != 0 {
		t.Fatalf("deup %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

func ledgerEvents(t *testing.T, campaign string) []ledger.Event {
	t.Helper()
	l, err := ledger.Open(filepath.Join(campaign, "ledger"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Events()
}

func TestCampaignRetrospective(t *testing.T) {
	screen := campaignScreenDir(t)
	dir := filepath.Join(t.TempDir(), "c")
	out := mustRun(t, "campaign", "init", "--screen", screen, "--mode", "retrospective", "--init", "20", "--batch", "6", "--rounds", "3", "--max-per-drug", "2", dir)
	if !strings.Contains(out, "retrospective mode") || !strings.Contains(out, "20 initial pairs, 130 candidates") {
		t.Errorf("init output:\n%s", out)
	}
	out = mustRun(t, "campaign", "resume", dir)
	if !strings.Contains(out, "campaign complete: 3 rounds, 38 pairs measured") || !strings.Contains(out, "deup-net/round-3/") {
		t.Errorf("resume output:\n%s", out)
	}
	out = mustRun(t, "campaign", "resume", dir)
	if !strings.Contains(out, "campaign complete") {
		t.Errorf("second resume output:\n%s", out)
	}
	if _, errs, code := run(t, "campaign", "step", dir); code != 1 || !strings.Contains(errs, "campaign complete") {
		t.Errorf("step after the end: exit %d, stderr %q", code, errs)
	}
	js := filepath.Join(t.TempDir(), "report.json")
	out = mustRun(t, "campaign", "report", dir, "--json", js)
	if !strings.Contains(out, "top-1% found") || strings.Count(out, "deup-net/round-") != 3 {
		t.Errorf("report output:\n%s", out)
	}
	var rep struct {
		Rounds []struct {
			Measured int     `json:"measured"`
			Top      float64 `json:"top1_found"`
		} `json:"rounds"`
	}
	b, _ := os.ReadFile(js)
	if err := json.Unmarshal(b, &rep); err != nil || len(rep.Rounds) != 3 || rep.Rounds[2].Measured != 6 {
		t.Errorf("report.json: %v %s", err, b)
	}
	// The diversity rule held in every round.
	for _, e := range ledgerEvents(t, dir) {
		if e.Kind != active.KindSuggest {
			continue
		}
		count := map[int]int{}
		for _, r := range e.Records {
			count[r.A]++
			count[r.B]++
		}
		for d, n := range count {
			if n > 2 {
				t.Errorf("round %d: drug %d suggested %d times, limit 2", e.Round, d, n)
			}
		}
	}
}

// TestCampaignLiveImport runs a live campaign: export, refused imports
// (each leaving the ledger unchanged), a partial import, the rest, and the
// next round.
func TestCampaignLiveImport(t *testing.T) {
	screen := campaignScreenDir(t)
	dir := filepath.Join(t.TempDir(), "c")
	mustRun(t, "campaign", "init", "--screen", screen, "--batch", "4", "--acquisition", "ei", "--model", "deup-ridge", dir)
	tmp := t.TempDir()
	r1 := filepath.Join(tmp, "round1.csv")
	out := mustRun(t, "suggest", "--campaign", dir, "--out", r1)
	if !strings.Contains(out, "wrote 4 suggestions of round 1") {
		t.Errorf("suggest output:\n%s", out)
	}
	// Exporting again gives the same round, proposes nothing new.
	r1b := filepath.Join(tmp, "round1.json")
	mustRun(t, "suggest", "--campaign", dir, "--out", r1b)
	if n := len(ledgerEvents(t, dir)); n != 3 { // init, prefill, suggest
		t.Fatalf("%d events after exporting twice, want 3", n)
	}
	if _, errs, code := run(t, "campaign", "step", dir); code != 1 || !strings.Contains(errs, "waiting for 4 results") {
		t.Errorf("step with an open round: exit %d stderr %q", code, errs)
	}
	b, err := os.ReadFile(r1)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 5 {
		t.Fatalf("round1.csv has %d lines", len(lines))
	}
	pair := func(i int) (string, string) { // names of suggestion i (1-based)
		f := strings.Split(lines[i], ",")
		return f[1], f[5]
	}
	a1, b1 := pair(1)
	a2, b2 := pair(2)
	a3, b3 := pair(3)
	a4, b4 := pair(4)
	// An unmeasured pair that was not suggested.
	var ev []ledger.Event = ledgerEvents(t, dir)
	var cfg active.Config
	json.Unmarshal([]byte(ev[0].Extra), &cfg)
	suggested := map[[2]int]bool{}
	for _, r := range ev[2].Records {
		suggested[[2]int{r.A, r.B}] = true
	}
	var other [2]string
	for _, r := range ev[0].Records {
		if r.Candidate && !suggested[[2]int{r.A, r.B}] {
			other = [2]string{cfg.Drugs[r.A].Name, cfg.Drugs[r.B].Name}
			break
		}
	}
	var measured [2]string
	for _, r := range ev[0].Records {
		if !r.Candidate {
			measured = [2]string{cfg.Drugs[r.A].Name, cfg.Drugs[r.B].Name}
			break
		}
	}
	write := func(name, body string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	head := "drug_a,drug_b,score\n"
	cases := []struct {
		name, body string
		want       []string
	}{
		{"unknown.csv", head + fmt.Sprintf("%s,%s,1\n%s,%s,2\n", a1, b1, other[0], other[1]),
			[]string{"unknown.csv:3: unknown pair: " + other[0] + " + " + other[1]}},
		{"dup.csv", head + fmt.Sprintf("%s,%s,1\n%s,%s,2\n", a1, b1, b1, a1),
			[]string{"dup.csv:3: duplicate measurement"}},
		{"measured.csv", head + fmt.Sprintf("%s,%s,1\n", measured[0], measured[1]),
			[]string{"measured.csv:2: duplicate measurement", "already measured"}},
		{"text.csv", head + fmt.Sprintf("%s,%s,strong\n%s,%s,\n", a1, b1, a2, b2),
			[]string{"text.csv:2:3: score \"strong\" is not a finite number", "text.csv:3:3: score \"\""}},
		{"drug.csv", head + fmt.Sprintf("aspirin,%s,1\n", b1), []string{"drug.csv:2:1: unknown drug \"aspirin\""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := ledgerFiles(t, dir)
			_, errs, code := run(t, "campaign", "import-results", dir, write(c.name, c.body))
			if code != 1 || !strings.Contains(errs, "ledger unchanged") {
				t.Errorf("exit %d, stderr:\n%s", code, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr does not contain %q:\n%s", w, errs)
				}
			}
			if after := ledgerFiles(t, dir); !reflect.DeepEqual(before, after) {
				t.Errorf("ledger changed:\n%v\n%v", before, after)
			}
		})
	}
	out = mustRun(t, "campaign", "import-results", dir, write("part1.csv", head+fmt.Sprintf("%s,%s,10.5\n", b1, a1)))
	if !strings.Contains(out, "recorded 1 results (1 of 4 measured)") {
		t.Errorf("partial import: %s", out)
	}
	// The exported file with a score column added is accepted.
	rest := strings.Join([]string{lines[0] + ",score", lines[2] + ",-3", lines[3] + ",7", lines[4] + ",0"}, "\n") + "\n"
	_ = a3 + b3 + a4 + b4
	out = mustRun(t, "campaign", "import-results", dir, write("part2.csv", rest))
	if !strings.Contains(out, "(4 of 4 measured)") {
		t.Errorf("second import: %s", out)
	}
	out = mustRun(t, "campaign", "step", dir)
	if !strings.Contains(out, "round 2: 4 suggestions") {
		t.Errorf("step: %s", out)
	}
	out = mustRun(t, "campaign", "import-results", dir, "--close", write("r2.csv", head+lines2(t, dir)))
	if !strings.Contains(out, "closed: 3 unmeasured suggestions returned") {
		t.Errorf("close: %s", out)
	}
	// This round's acquisition and batch size can be overridden at export.
	r3 := filepath.Join(tmp, "round3.parquet")
	out = mustRun(t, "suggest", "--campaign", dir, "--batch", "2", "--acquisition", "greedy", "--out", r3)
	if !strings.Contains(out, "wrote 2 suggestions of round 3") {
		t.Errorf("suggest with overrides: %s", out)
	}
	if _, errs, code := run(t, "suggest", "--campaign", dir, "--batch", "3", "--out", r3); code != 2 || !strings.Contains(errs, "already proposed") {
		t.Errorf("override of an open round: exit %d stderr %q", code, errs)
	}
	evs := ledgerEvents(t, dir)
	last := evs[len(evs)-1]
	if last.Kind != active.KindSuggest || len(last.Records) != 2 || !strings.HasPrefix(last.Records[0].Reason, "greedy") || !strings.Contains(last.Extra, `"acquisition":"greedy"`) {
		t.Errorf("round 3 event: %+v", last)
	}
}

func TestCampaignCandidatesFile(t *testing.T) {
	screen := campaignScreenDir(t)
	sc, err := drugcomb.Open(screen)
	if err != nil {
		t.Fatal(err)
	}
	measured := map[[2]int]bool{}
	for _, p := range sc.Pairs {
		measured[[2]int{p.A, p.B}] = true
	}
	var free [][2]int
	for a := 0; a < len(sc.Drugs) && len(free) < 3; a++ {
		for b := a + 1; b < len(sc.Drugs) && len(free) < 3; b++ {
			if !measured[[2]int{a, b}] {
				free = append(free, [2]int{a, b})
			}
		}
	}
	m := sc.Pairs[0]
	name := func(i int) string { return sc.Drugs[i].ID }
	tmp := t.TempDir()
	good := filepath.Join(tmp, "cands.csv")
	body := "drug_a,drug_b\n"
	for _, p := range free {
		body += name(p[0]) + "," + name(p[1]) + "\n"
	}
	os.WriteFile(good, []byte(body), 0o644)
	bad := filepath.Join(tmp, "bad.csv")
	os.WriteFile(bad, []byte(body+name(m.B)+","+name(m.A)+"\n"+name(free[0][1])+","+name(free[0][0])+"\n"), 0o644)
	_, errs, code := run(t, "campaign", "init", "--screen", screen, "--candidates", bad, "--model", "deup-ridge", filepath.Join(tmp, "c1"))
	if code != 1 || !strings.Contains(errs, "bad.csv:5: pair already measured") || !strings.Contains(errs, "bad.csv:6: pair listed twice (first on line 2)") {
		t.Errorf("bad candidates: exit %d stderr:\n%s", code, errs)
	}
	// A batch of 3 from the 3 candidates (the default 30 is refused:
	// larger than the pool).
	if _, errs, code := run(t, "campaign", "init", "--screen", screen, "--candidates", good, "--model", "deup-ridge", filepath.Join(tmp, "c3")); code != 2 || !strings.Contains(errs, "a batch of 30 is larger than the pool of 3 open candidate pairs") {
		t.Errorf("batch 30 from 3 candidates: exit %d stderr:\n%s", code, errs)
	}
	out := mustRun(t, "campaign", "init", "--screen", screen, "--candidates", good, "--batch", "3", "--model", "deup-ridge", filepath.Join(tmp, "c2"))
	if !strings.Contains(out, "150 initial pairs, 3 candidates") {
		t.Errorf("init output: %s", out)
	}
}

// lines2 returns one result row for the first suggestion of the open round.
func lines2(t *testing.T, dir string) string {
	evs := ledgerEvents(t, dir)
	var cfg active.Config
	json.Unmarshal([]byte(evs[0].Extra), &cfg)
	last := evs[len(evs)-1]
	r := last.Records[0]
	return fmt.Sprintf("%s,%s,1.25\n", cfg.Drugs[r.A].ID, cfg.Drugs[r.B].ID)
}

func ledgerFiles(t *testing.T, dir string) []string {
	ents, err := os.ReadDir(filepath.Join(dir, "ledger"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		fi, _ := e.Info()
		out = append(out, fmt.Sprintf("%s:%d", e.Name(), fi.Size()))
	}
	return out
}

// TestCampaignHelperProcess is not a test: TestCampaignKill runs the test
// binary with it as a deup process that it can SIGKILL.
func TestCampaignHelperProcess(t *testing.T) {
	if os.Getenv("DEUP_CLI_HELPER") != "1" {
		t.Skip("helper process of TestCampaignKill")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(Main(context.Background(), args, Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}

func deupProcess(env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestCampaignHelperProcess$", "--"}, args...)...)
	cmd.Env = append(append(os.Environ(), "DEUP_CLI_HELPER=1"), env...)
	return cmd
}

// TestCampaignKill kills a retrospective campaign with SIGKILL at many
// points of its rounds — inside every stage of a ledger append of the
// prefill, suggest and measure events (the process kills itself through
// ledger.CrashEnv), and at timed moments during fits — resumes it each
// time, and checks that the final ledger is event for event the ledger of
// an uninterrupted run: nothing lost, nothing duplicated. It does so for a
// campaign on one line with thompson, and for one across the two lines of
// a synthetic panel (--cell-lines all --per-line 3) with the joint,
// calibrated bucb, whose calibration and length-scale are read again from
// the ledger on every resume (issue 42).
func TestCampaignKill(t *testing.T) {
	t.Run("one line", func(t *testing.T) {
		screen := campaignScreenDir(t)
		campaignKill(t, []string{"--screen", screen, "--mode", "retrospective", "--init", "20", "--batch", "5", "--rounds", "4", "--acquisition", "thompson", "--model", "deup-ridge"})
	})
	t.Run("panel bucb", func(t *testing.T) {
		screen := filepath.Join(t.TempDir(), "panel")
		mustRun(t, "data", "synth", "--seed", "7", "--drugs", "12", "--pairs", "120", "--out", screen)
		campaignKill(t, []string{"--screen", screen, "--cell-lines", "all", "--per-line", "3", "--mode", "retrospective", "--init", "20", "--batch", "5", "--rounds", "4", "--acquisition", "bucb", "--model", "deup-ridge", "--features", "identity"})
	})
}

func campaignKill(t *testing.T, args []string) {
	ref := filepath.Join(t.TempDir(), "ref")
	mustRun(t, append(append([]string{"campaign", "init"}, args...), ref)...)
	mustRun(t, "campaign", "resume", ref)
	want := ledgerEvents(t, ref) // init, prefill, (suggest, measure) x 4
	if len(want) != 10 {
		t.Fatalf("reference run has %d events, want 10", len(want))
	}

	dir := filepath.Join(t.TempDir(), "killed")
	// Kill the init itself: before its event is linked, init left nothing.
	cmd := deupProcess([]string{ledger.CrashEnv + "=1:before-link"}, append(append([]string{"campaign", "init"}, args...), dir)...)
	if err := cmd.Run(); !killed(err) {
		t.Fatalf("init with a crash point: %v", err)
	}
	if n := len(ledgerEvents(t, dir)); n != 0 {
		t.Fatalf("init killed before link left %d events", n)
	}
	// Kill it after the event is complete: the campaign exists, its
	// human-readable campaign.json does not yet, and resume writes it.
	cmd = deupProcess([]string{ledger.CrashEnv + "=1:after-sync"}, append(append([]string{"campaign", "init"}, args...), dir)...)
	if err := cmd.Run(); !killed(err) {
		t.Fatalf("init with a crash point: %v", err)
	}
	if n := len(ledgerEvents(t, dir)); n != 1 {
		t.Fatalf("init killed after sync left %d events, want 1", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "campaign.json")); !os.IsNotExist(err) {
		t.Fatalf("campaign.json exists after a kill before it was written: %v", err)
	}

	kills := 2
	// Crash points: every stage of the prefill (2), first suggest (3) and
	// measure (4), a middle suggest (7) and the last measure (10).
	for _, seq := range []int{2, 3, 4, 7, 10} {
		for _, stage := range []string{"before-sync", "before-link", "after-link", "after-sync"} {
			have := len(ledgerEvents(t, dir))
			if have >= seq {
				continue
			}
			cmd := deupProcess([]string{fmt.Sprintf("%s=%d:%s", ledger.CrashEnv, seq, stage)}, "campaign", "resume", dir)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			if !killed(err) {
				t.Fatalf("resume with crash point %d:%s: %v\n%s", seq, stage, err, stderr.String())
			}
			kills++
			got := len(ledgerEvents(t, dir))
			switch stage {
			case "before-sync", "before-link":
				if got != seq-1 {
					t.Errorf("killed at %d:%s: %d events, want %d", seq, stage, got, seq-1)
				}
			default:
				if got != seq {
					t.Errorf("killed at %d:%s: %d events, want %d", seq, stage, got, seq)
				}
			}
			checkPrefix(t, ledgerEvents(t, dir), want)
		}
	}
	// Timed kills at moments that fall anywhere, then a resume that finishes.
	for _, d := range []time.Duration{5 * time.Millisecond, 40 * time.Millisecond, 120 * time.Millisecond} {
		cmd := deupProcess(nil, "campaign", "resume", dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(d)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		kills++
		checkPrefix(t, ledgerEvents(t, dir), want)
	}
	cmd = deupProcess(nil, "campaign", "resume", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("final resume: %v\n%s", err, out)
	}
	got := ledgerEvents(t, dir)
	if len(got) != len(want) {
		t.Fatalf("after %d kills: %d events, want %d", kills, len(got), len(want))
	}
	checkPrefix(t, got, want)
	if _, err := os.Stat(filepath.Join(dir, "campaign.json")); err != nil {
		t.Errorf("campaign.json not rewritten by resume: %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "ledger", ".tmp-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	t.Logf("%d kills, ledger identical to the uninterrupted run (%d events)", kills, len(want))
}

func killed(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// checkPrefix checks that got is a prefix of want, event for event (kinds,
// rounds, model versions and every record, NaN equal to NaN).
func checkPrefix(t *testing.T, got, want []ledger.Event) {
	t.Helper()
	if len(got) > len(want) {
		t.Fatalf("%d events, more than the %d of the uninterrupted run", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Seq != w.Seq || g.Kind != w.Kind || g.Round != w.Round || g.ModelVersion != w.ModelVersion || len(g.Records) != len(w.Records) {
			t.Fatalf("event %d: %s round %d %q (%d records), want %s round %d %q (%d records)",
				i+1, g.Kind, g.Round, g.ModelVersion, len(g.Records), w.Kind, w.Round, w.ModelVersion, len(w.Records))
		}
		for j := range g.Records {
			if !sameRecord(g.Records[j], w.Records[j]) {
				t.Fatalf("event %d record %d: %+v, want %+v", i+1, j, g.Records[j], w.Records[j])
			}
		}
	}
}

func sameRecord(a, b ledger.Record) bool {
	eq := func(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }
	return a.A == b.A && a.B == b.B && a.CellLine == b.CellLine && a.Candidate == b.Candidate && a.Rank == b.Rank && a.Reason == b.Reason &&
		eq(a.Y, b.Y) && eq(a.Mu, b.Mu) && eq(a.SigmaTotal, b.SigmaTotal) && eq(a.SigmaEpistemic, b.SigmaEpistemic) &&
		eq(a.SigmaAleatoric, b.SigmaAleatoric) && eq(a.Score, b.Score) && reflect.DeepEqual(a.Phi, b.Phi)
}

func TestCampaignSimulate(t *testing.T) {
	screen := campaignScreenDir(t)
	out := t.TempDir()
	stdout := mustRun(t, "campaign", "simulate", "--screen", screen, "--init", "20", "--batch", "5", "--rounds", "3", "--seeds", "2",
		"--acquisition", "deup-ridge-ucb,greedy,random,ensemble-ucb", "--top-frac", "0.05", "--out", out)
	for _, w := range []string{"deup-ridge-ucb", "ensemble-ucb", "mean ± standard error over 2 seeds after 3 rounds"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("output lacks %q:\n%s", w, stdout)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The default per-drug cap for a batch of 5 is max(2, ceil(5/10)) = 2,
	// recorded in the report.
	var cfg struct {
		MaxPerDrug *int `json:"max_per_drug"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil || cfg.MaxPerDrug == nil || *cfg.MaxPerDrug != 2 {
		t.Errorf("report.json max_per_drug %v (%v), want 2:\n%.300s", cfg.MaxPerDrug, err, b)
	}
	// The shape: {"acquisitions": {NAME: {"top1_found": {"mean": [...], "se": [...]}, "best": {...}}}, "rounds": R, "seeds": S}.
	var rep struct {
		Acquisitions map[string]map[string]struct {
			Mean []*float64 `json:"mean"`
			SE   []*float64 `json:"se"`
		} `json:"acquisitions"`
		Rounds int `json:"rounds"`
		Seeds  int `json:"seeds"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Rounds != 3 || rep.Seeds != 2 || len(rep.Acquisitions) != 4 {
		t.Fatalf("report.json: rounds %d seeds %d acquisitions %d", rep.Rounds, rep.Seeds, len(rep.Acquisitions))
	}
	for name, s := range rep.Acquisitions {
		for _, k := range []string{"top1_found", "best"} {
			if len(s[k].Mean) != 4 || len(s[k].SE) != 4 || s[k].Mean[3] == nil {
				t.Errorf("%s %s: %+v", name, k, s[k])
			}
		}
	}
	for _, f := range []string{"runs.csv", "summary.csv", "simulation.png", "simulation.svg"} {
		if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	runs, _ := os.ReadFile(filepath.Join(out, "runs.csv"))
	if n := strings.Count(string(runs), "\n"); n != 1+4*2*4 {
		t.Errorf("runs.csv has %d lines, want 33", n)
	}
}
