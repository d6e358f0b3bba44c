package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/deup-screening/deup/active"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/arrowguard"
	"github.com/deup-screening/deup/suggest"
	"github.com/deup-screening/deup/tui/pairs"
)

// deupCmd is the test binary run as deup (see TestMain and asMain): the
// tests that kill it or run the README's commands need a process, and
// this one needs no build.
func deupCmd(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), asMain+"=1")
	cmd.Dir = dir
	return cmd
}

// killFixture is what the kill tests share: a small model trained once on
// a synthetic screen, and a generated catalogue of killDrugs drugs (the
// synthetic screen's generated SMILES) whose all-pairs prediction takes
// long enough that kills land while the file is being written.
type killFixture struct {
	dir            string
	model, catalog string
	drugs          []drugcomb.Drug
	cellLines      []string // the model's screen's
	screen         string   // a small screen directory (the model's)
	pairsCSV       string   // a pairs table of the catalogue's drugs, for data import
}

const killDrugs = 300 // 44,850 pairs: a few tenths of a second of writing on a CI core

var (
	fixOnce sync.Once
	fix     *killFixture
	fixErr  string
	fixDir  string // removed by TestMain
)

func killSetup(t *testing.T) *killFixture {
	t.Helper()
	if testing.Short() {
		t.Skip("kills deup processes (about a minute)")
	}
	fixOnce.Do(func() {
		dir, err := os.MkdirTemp("", "deup-kill-")
		if err != nil {
			fixErr = err.Error()
			return
		}
		fixDir = dir
		f := &killFixture{dir: dir, model: filepath.Join(dir, "m.model"), catalog: filepath.Join(dir, "catalogue.csv"),
			screen: filepath.Join(dir, "small"), pairsCSV: filepath.Join(dir, "pairs.csv")}
		for _, args := range [][]string{
			{"data", "synth", "--seed", "1", "--drugs", "20", "--pairs", "150", "--cell-lines", "1", "--out", "small"},
			{"train", "--screen", "small", "--out", "m.model", "--epochs", "5"},
			{"data", "synth", "--seed", "2", "--drugs", fmt.Sprint(killDrugs), "--pairs", "20000", "--cell-lines", "1", "--out", "big"},
		} {
			if out, err := deupCmd(t, dir, args...).CombinedOutput(); err != nil {
				fixErr = fmt.Sprintf("deup %s: %v\n%s", strings.Join(args, " "), err, out)
				return
			}
		}
		big, err := drugcomb.Open(filepath.Join(dir, "big"))
		if err != nil {
			fixErr = err.Error()
			return
		}
		small, err := drugcomb.Open(f.screen)
		if err != nil {
			fixErr = err.Error()
			return
		}
		f.drugs, f.cellLines = big.Drugs, small.CellLines
		if err := writeCSV(f.catalog, [][]string{{"id", "name", "smiles"}}, func(emit func(...string)) {
			for _, d := range big.Drugs {
				emit(d.ID, d.Name, d.SMILES)
			}
		}); err != nil {
			fixErr = err.Error()
			return
		}
		if err := writeCSV(f.pairsCSV, [][]string{{"drug_a", "drug_b", "cell_line", "score"}}, func(emit func(...string)) {
			for _, p := range big.Pairs {
				emit(big.Drugs[p.A].ID, big.Drugs[p.B].ID, big.CellLines[p.CellLine], fmt.Sprint(p.Mean[0]))
			}
		}); err != nil {
			fixErr = err.Error()
			return
		}
		fix = f
	})
	if fix == nil {
		t.Fatal(fixErr)
	}
	return fix
}

func writeCSV(path string, head [][]string, rows func(emit func(...string))) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.WriteAll(head)
	rows(func(r ...string) { w.Write(r) })
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// killTally counts, for one output, how the kills ended.
type killTally struct {
	kills    int // processes killed while running
	finished int // runs that ended before their kill (not counted in kills)
	none     int // killed: no file under the final name
	complete int // killed: a complete file under the final name (killed after the rename)
	midWrite int // killed with a temporary file left beside the output
	// anyTime: the output is written too fast to be seen by polling; the
	// kills land at random moments of the whole run.
	anyTime bool
}

func (k killTally) String() string {
	when := "while writing"
	if k.anyTime {
		when = "at random moments of the run (its output is written in under 1 ms)"
	}
	return fmt.Sprintf("%d kills %s (%d left a temporary file): outputs after them: %d absent, %d complete; %d runs finished before their kill",
		k.kills, when, k.midWrite, k.none, k.complete, k.finished)
}

// killRuns runs `deup args` in dir until n runs were killed (at most 4n
// runs), each at a random moment while it writes: once the first
// temporary output file appears, after a seeded random delay uniform in
// [0, the writing time of a full run) (for an output written faster than
// the 1 ms polling sees, at a random moment of the whole run). It then calls check on each output
// path: check must accept a complete file and refuse anything else; a
// missing file is fine. Temporary files left by a kill are counted and
// removed; outputs are removed before each run, so that a file found after
// a kill was written by that run.
func killRuns(t *testing.T, dir string, seed uint64, n int, outputs []string, check func(path string) error, args ...string) killTally {
	t.Helper()
	clean := func() {
		for _, o := range outputs {
			os.RemoveAll(filepath.Join(dir, o))
		}
	}
	// Two full runs: their outputs must pass the check, and the faster
	// measures the writing time (first temporary file to exit; the first
	// run of a process is the slower).
	// On a loaded machine the polling goroutine can be starved for longer
	// than the writing takes, so a run that misses the temporary file is
	// repeated (at most 6 runs) until 2 runs have seen it; only an output
	// that no run saw is taken as written too fast to poll.
	var writing, whole time.Duration // whole: the shortest full run
	seen := 0
	for try := 0; seen < 2 && try < 6; try++ {
		clean()
		cmd := deupCmd(t, dir, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		start := time.Now()
		firstTmp, err := waitTemporary(t, dir, done)
		if err == nil {
			seen++
		}
		if err := <-done; err != nil {
			t.Fatalf("deup %s: %v\n%s", strings.Join(args, " "), err, out.String())
		}
		// An output written faster than the polling sees (a small CSV) is
		// timed from the start: if no run sees it, the kills land at random
		// moments of the whole run.
		w := time.Since(start)
		if whole == 0 || w < whole {
			whole = w
		}
		if err == nil {
			w = time.Since(firstTmp)
		}
		if err == nil && seen == 1 || (err == nil || seen == 0) && (writing == 0 || w < writing) {
			writing = w
		}
		for _, o := range outputs {
			if err := check(filepath.Join(dir, o)); err != nil {
				t.Fatalf("after a complete run of deup %s: %v", strings.Join(args, " "), err)
			}
		}
	}
	fromStart := seen == 0
	rng := rand.New(rand.NewPCG(seed, 30))
	k := killTally{anyTime: fromStart}
	// A run that finishes before its kill shrinks the window by a fifth:
	// later runs can be faster than the measured ones (warm caches), and
	// the kills must still land while writing.
	shrink := func() { writing = max(writing*4/5, 100*time.Microsecond) }
	for run := 0; k.kills < n && run < 4*n; run++ {
		// An output whose writing the kills keep missing (half the runs
		// gone and more runs finished than killed: it is written faster
		// than polling and signalling take) is then killed at random
		// moments of the whole run, as one written too fast to poll.
		if !fromStart && run >= 2*n && k.finished > k.kills {
			fromStart, k.anyTime, writing = true, true, whole
		}
		clean()
		delay := time.Duration(rng.Float64() * float64(writing))
		cmd := deupCmd(t, dir, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		if !fromStart {
			if _, err := waitTemporary(t, dir, done); err != nil {
				k.finished++ // exited before writing anything temporary
				shrink()
				continue
			}
		}
		select {
		case <-done:
			k.finished++
			shrink()
			continue
		case <-time.After(delay):
		}
		cmd.Process.Signal(syscall.SIGKILL)
		if err := <-done; err == nil {
			k.finished++ // it exited on its own just before the signal
			shrink()
			continue
		}
		k.kills++
		tmps := temporaries(t, dir)
		if len(tmps) > 0 {
			k.midWrite++
		}
		for _, p := range tmps {
			os.RemoveAll(p)
		}
		for _, o := range outputs {
			path := filepath.Join(dir, o)
			if _, err := os.Stat(path); os.IsNotExist(err) {
				k.none++
				continue
			}
			if err := check(path); err != nil {
				t.Errorf("kill %v into the writing: %s is under its final name but incomplete: %v", delay, o, err)
				continue
			}
			k.complete++
		}
	}
	return k
}

// waitTemporary polls dir until a temporary output file appears and
// returns when it did; an error if the process exits first (its status is
// then put back on done).
func waitTemporary(t *testing.T, dir string, done chan error) (time.Time, error) {
	for {
		if len(temporaries(t, dir)) > 0 {
			return time.Now(), nil
		}
		select {
		case err := <-done:
			done <- err
			return time.Time{}, fmt.Errorf("exited (%v) before writing a temporary file", err)
		case <-time.After(time.Millisecond):
		}
	}
}

// workDir returns a directory of its own for one kill test (temporary
// files of parallel tests must not mix), with links to the fixture's files.
func (f *killFixture) workDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"m.model", "catalogue.csv", "small", "pairs.csv"} {
		if err := os.Symlink(filepath.Join(f.dir, name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// temporaries lists the hidden temporary files and directories
// (.NAME.*.tmp) under dir, one level of subdirectories included.
func temporaries(t *testing.T, dir string) []string {
	var out []string
	for _, pat := range []string{filepath.Join(dir, ".*.tmp"), filepath.Join(dir, "*", ".*.tmp")} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	return out
}

// TestKillPredict kills `deup predict --all-pairs --drugs` writing CSV,
// Parquet and Arrow at random moments, at least 20 times per format, and
// reads every file found back with the TUI's prediction reader: each holds
// all 44,850 pairs.
func TestKillPredict(t *testing.T) {
	f := killSetup(t)
	want := killDrugs * (killDrugs - 1) / 2
	sc := &drugcomb.Screen{Drugs: f.drugs, CellLines: f.cellLines, ScoreNames: []string{"score"}}
	check := func(path string) error {
		bl, err := pairs.NewBuilder(sc, want, active.DefaultKappa)
		if err != nil {
			return err
		}
		n, err := bl.ReadPredictions(path, 0)
		if err != nil {
			return err
		}
		if n != want {
			return fmt.Errorf("%d pairs, want %d", n, want)
		}
		return nil
	}
	for i, ext := range []string{"csv", "parquet", "arrow"} {
		t.Run(ext, func(t *testing.T) {
			out := "all." + ext
			k := killRuns(t, f.workDir(t), uint64(i+1), 20, []string{out}, check,
				"predict", "--model", "m.model", "--all-pairs", "--drugs", "catalogue.csv", "--out", out)
			t.Logf("predict --out %s: %v", out, k)
			if k.kills < 20 || k.midWrite < 10 {
				t.Errorf("predict --out %s: %v; want at least 20 kills, some while writing", out, k)
			}
		})
	}
}

// TestKillOutputs kills bench, suggest, fingerprint and data import at
// random moments and opens every output found with the project's readers:
// bench's results.json (JSON), predictions.parquet (the guarded Parquet
// reader) and figures (PNG, SVG: complete files end with their trailer);
// suggest's CSV and Parquet (suggest.ReadFile); fingerprint's CSV and
// Parquet; the screen directory of data import (drugcomb.Open, and its
// report.json).
func TestKillOutputs(t *testing.T) {
	f := killSetup(t)
	parquetRows := func(path string) (int64, error) {
		fh, err := os.Open(path)
		if err != nil {
			return 0, err
		}
		defer fh.Close()
		st, err := fh.Stat()
		if err != nil {
			return 0, err
		}
		tbl, err := arrowguard.ReadParquet(fh, st.Size(), memory.DefaultAllocator)
		if err != nil {
			return 0, err
		}
		defer tbl.Release()
		return tbl.NumRows(), nil
	}
	benchCheck := func(path string) error {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		switch filepath.Ext(path) {
		case ".json":
			var v map[string]any
			return json.Unmarshal(b, &v)
		case ".parquet":
			n, err := parquetRows(path)
			if err == nil && n == 0 {
				err = errors.New("no rows")
			}
			return err
		case ".png":
			_, err := png.Decode(bytes.NewReader(b))
			return err
		case ".svg":
			if !bytes.HasSuffix(bytes.TrimSpace(b), []byte("</svg>")) {
				return errors.New("svg without its closing tag")
			}
		}
		return nil
	}
	fpCheck := func(path string) error {
		if filepath.Ext(path) == ".parquet" {
			n, err := parquetRows(path)
			if err == nil && n != killDrugs {
				err = fmt.Errorf("%d rows, want %d", n, killDrugs)
			}
			return err
		}
		fh, err := os.Open(path)
		if err != nil {
			return err
		}
		defer fh.Close()
		rows, err := csv.NewReader(fh).ReadAll()
		if err == nil && len(rows) != killDrugs+1 {
			err = fmt.Errorf("%d rows, want %d", len(rows)-1, killDrugs)
		}
		return err
	}
	suggestCheck := func(path string) error {
		s, err := suggest.ReadFile(path)
		if err == nil && len(s) != 10 {
			err = fmt.Errorf("%d suggestions, want 10", len(s))
		}
		return err
	}
	importCheck := func(path string) error {
		sc, err := drugcomb.Open(path)
		if err != nil {
			return err
		}
		if len(sc.Drugs) != killDrugs {
			return fmt.Errorf("%d drugs, want %d", len(sc.Drugs), killDrugs)
		}
		b, err := os.ReadFile(filepath.Join(path, drugcomb.ReportFile))
		if err != nil {
			return err
		}
		var r drugcomb.Report
		return json.Unmarshal(b, &r)
	}
	benchOuts := []string{"bench-out/results.json", "bench-out/predictions.parquet"}
	for _, fig := range []string{"pairs", "calibration", "residuals", "conformal"} {
		benchOuts = append(benchOuts, "bench-out/"+fig+".png", "bench-out/"+fig+".svg")
	}
	tests := []struct {
		name    string
		kills   int
		outputs []string
		check   func(string) error
		args    []string
	}{
		{"bench", 10, benchOuts, benchCheck, []string{"bench", "--screen", "small", "--seeds", "1", "--methods", "deup", "--epochs", "5", "--out", "bench-out"}},
		{"suggest csv", 10, []string{"next.csv"}, suggestCheck, []string{"suggest", "--model", "m.model", "--batch", "10", "--out", "next.csv"}},
		{"suggest parquet", 10, []string{"next.parquet"}, suggestCheck, []string{"suggest", "--model", "m.model", "--batch", "10", "--out", "next.parquet"}},
		{"fingerprint csv", 10, []string{"fp.csv"}, fpCheck, []string{"fingerprint", "catalogue.csv", "--out", "fp.csv"}},
		{"fingerprint parquet", 10, []string{"fp.parquet"}, fpCheck, []string{"fingerprint", "catalogue.csv", "--out", "fp.parquet"}},
		{"data import", 10, []string{"imported"}, importCheck, []string{"data", "import", "--format", "table", "--pairs", "pairs.csv", "--drug-a", "drug_a", "--drug-b", "drug_b", "--cell-line", "cell_line", "--score", "score", "--drugs", "catalogue.csv", "--out", "imported"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := killRuns(t, f.workDir(t), uint64(100+i), tt.kills, tt.outputs, tt.check, tt.args...)
			t.Logf("%s: %v", tt.name, k)
			if k.kills < tt.kills {
				t.Errorf("%s: %v; want %d kills", tt.name, k, tt.kills)
			}
		})
	}
}

// TestInterruptRemovesPartialOutput: Ctrl-C (SIGINT) while predict writes
// each format stops it with an error and leaves nothing: no file under the
// final name, no temporary file beside it.
func TestInterruptRemovesPartialOutput(t *testing.T) {
	f := killSetup(t)
	for _, ext := range []string{"csv", "parquet", "arrow"} {
		t.Run(ext, func(t *testing.T) {
			dir := f.workDir(t)
			out := "all." + ext
			cmd := deupCmd(t, dir, "predict", "--model", "m.model", "--all-pairs", "--drugs", "catalogue.csv", "--out", out)
			var buf bytes.Buffer
			cmd.Stdout, cmd.Stderr = &buf, &buf
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			if _, err := waitTemporary(t, dir, done); err != nil {
				t.Skipf("predict finished before its output could be interrupted: %v", err)
			}
			cmd.Process.Signal(os.Interrupt)
			if err := <-done; err == nil {
				t.Fatalf("predict interrupted while writing exited 0:\n%s", buf.String())
			}
			if _, serr := os.Stat(filepath.Join(dir, out)); !os.IsNotExist(serr) {
				t.Errorf("after Ctrl-C, %s exists (%v)", out, serr)
			}
			if tmps := temporaries(t, dir); len(tmps) > 0 {
				t.Errorf("after Ctrl-C, temporary files are left: %v", tmps)
			}
		})
	}
}
