package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/shareddata"
)

// update is the one switch that rewrites expected output: with
// go test ./cmd/deup/internal/cli -run TestScript -update, every
// "cmp stdout NAME" / "cmp stderr NAME" in testdata/script/*.txtar gets
// NAME's section replaced by what deup printed.
var update = flag.Bool("update", false, "rewrite the expected output in testdata/script/*.txtar")

// TestScript runs the scripts in testdata/script (go-internal's testscript
// language). Besides the builtin commands a script has:
//
//	deup [<FILE] ARGS...
//	               runs deup in this process through Main, in the script's
//	               directory, with the script's stdout and stderr, FILE
//	               (or nothing) on its stdin, and the clock of
//	               scriptClock; "! deup" expects a failure.
//	status N       checks the exit status of the last deup (0, 1 or 2).
//	mkscreen [-truncated] [-campaign] DIR
//	               saves smallScreen (with -campaign, smallCampaignScreen) as a
//	               screen directory DIR; with -truncated its pairs.arrow is
//	               cut short (unreadable).
//
// and the conditions
//
// The variable $REPO is the module's root directory (for its testdata).
//
//	[data:REL]     the real-data file or directory REL exists under
//	               ../shared/data (or $DEUP_DATA); the script finds the
//	               data directory as $DATA. When it is missing, the
//	               condition is false (a script says [!data:REL] skip),
//	               except under DEUP_REQUIRE_DATA=1, where it fails.
func TestScript(t *testing.T) {
	// The data directory is found once, here, from the package directory:
	// shareddata.Dir walks up from the working directory, which the scripts'
	// in-process runs change while other scripts evaluate conditions.
	dataDir, dataErr := shareddata.Dir()
	testscript.Run(t, testscript.Params{
		// Absolute: the in-process runs change the working directory.
		Dir:                 filepath.Join(pkgDir, "testdata", "script"),
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(e *testscript.Env) error {
			e.Values[statusKey{}] = new(int)
			d := dataDir
			if dataErr != nil {
				d = filepath.Join(e.WorkDir, "no-shared-data")
			}
			e.Setenv("DATA", d)
			e.Setenv("REPO", repoRoot)
			return nil
		},
		Condition: func(cond string) (bool, error) {
			rel, ok := strings.CutPrefix(cond, "data:")
			if !ok {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			err := dataErr
			if err == nil {
				_, err = os.Stat(filepath.Join(dataDir, filepath.FromSlash(rel)))
			}
			if err != nil {
				if shareddata.Required() {
					return false, fmt.Errorf("%v (%s=1)", err, shareddata.RequireVar)
				}
				return false, nil
			}
			return true, nil
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"deup":     cmdDeup,
			"status":   cmdStatus,
			"mkscreen": cmdMkscreen,
		},
	})
}

type statusKey struct{}

// pkgDir is this package's directory, the working directory the test
// binary starts in, and repoRoot the module's root four levels above.
var (
	pkgDir = func() string {
		d, err := os.Getwd()
		if err != nil {
			panic(err)
		}
		return d
	}()
	repoRoot = filepath.Join(pkgDir, "..", "..", "..", "..")
)

// smallScreen is a synthetic screen of 8 drugs and 20 pairs on one cell
// line, for tests that need a screen directory but not its numbers.
func smallScreen() (*drugcomb.Screen, error) {
	return data.Synth(data.SynthConfig{Seed: 3, Drugs: 8, CellLines: 1, Pairs: 20, ReplicateFrac: 0.2, MaxReplicates: 2,
		LatentDim: 2, Scale: 10, NoiseMin: 1, NoiseMax: 3, RareWeight: 0.1, RareEffect: 1})
}

func cmdMkscreen(ts *testscript.TestScript, neg bool, args []string) {
	mk, truncated := smallScreen, false
	for len(args) > 1 {
		switch args[0] {
		case "-truncated":
			truncated = true
		case "-campaign":
			mk = smallCampaignScreen
		default:
			ts.Fatalf("mkscreen: unknown option %s", args[0])
		}
		args = args[1:]
	}
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkscreen [-truncated] [-campaign] DIR")
	}
	sc, err := mk()
	ts.Check(err)
	dir := ts.MkAbs(args[0])
	ts.Check(drugcomb.Save(dir, sc))
	if truncated {
		ts.Check(os.WriteFile(filepath.Join(dir, drugcomb.PairsArrowFile), []byte("ARROW1\x00\x00truncated"), 0o644))
	}
}

// deupMu serialises the in-process runs: each changes the process's
// working directory to its script's for the time of the call.
var deupMu sync.Mutex

func cmdDeup(ts *testscript.TestScript, neg bool, args []string) {
	deupMu.Lock()
	defer deupMu.Unlock()
	wd, err := os.Getwd()
	ts.Check(err)
	stdin := ""
	if len(args) > 0 && strings.HasPrefix(args[0], "<") {
		stdin = ts.ReadFile(args[0][1:])
		args = args[1:]
	}
	ts.Check(os.Chdir(ts.MkAbs(".")))
	defer func() { ts.Check(os.Chdir(wd)) }()
	code := Main(context.Background(), args, Env{
		Stdin:  strings.NewReader(stdin),
		Stdout: ts.Stdout(),
		Stderr: ts.Stderr(),
		Now:    scriptClock(),
	})
	*ts.Value(statusKey{}).(*int) = code
	switch {
	case neg && code == 0:
		ts.Fatalf("deup %s: succeeded, want a failure", strings.Join(args, " "))
	case !neg && code != 0:
		ts.Fatalf("deup %s: exit status %d", strings.Join(args, " "), code)
	}
}

func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: status N")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	if got := *ts.Value(statusKey{}).(*int); got != want {
		ts.Fatalf("deup exit status %d, want %d", got, want)
	}
}

// scriptClock is the clock of a scripted deup run: it starts at
// 2026-01-01T00:00:00Z and each reading is one second after the previous
// one, so a command's elapsed times depend only on how many times it read
// the clock, and a script compares its timing lines exactly.
func scriptClock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Second)
		return t
	}
}

// runMain runs deup in this process with stdin and returns what it printed
// and its exit status: the one helper for the Go tests that check values
// rather than printed text.
func runMain(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

// run is runMain with nothing on stdin.
func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runMain(t, "", args...)
}
