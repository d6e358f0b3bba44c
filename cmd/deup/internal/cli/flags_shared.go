package cli

import (
	"flag"
	"fmt"
	"runtime"
	"strings"
)

// workersFlag defines --workers, the one worker flag: N jobs (the noun
// says which: trainings, runs, molecules) run at the same time, 0 one per
// CPU (GOMAXPROCS). No command's results depend on it. def is the
// command's default; deprecated names (smo's --jobs) set the same value.
func workersFlag(fs *flag.FlagSet, def int, jobs string, deprecated ...string) *int {
	n := new(int)
	fs.IntVar(n, "workers", def, "number of "+jobs+" at the same time (0: one per CPU, GOMAXPROCS; the results do not depend on it)")
	for _, d := range deprecated {
		fs.IntVar(n, d, def, "deprecated: the old name of --workers, same meaning")
	}
	return n
}

// checkWorkers refuses a negative --workers.
func checkWorkers(n int) error {
	if n < 0 {
		return fmt.Errorf("%w: --workers %d: want 0 (one per CPU) or more", ErrUsage, n)
	}
	return nil
}

// workerCount is the number of workers --workers n means.
func workerCount(n int) int {
	if n == 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// seedFlag defines --seed, the one seed spelling: the seed of a single run,
// or the first of a series of runs (run s uses seed+s-1, or seed+s where
// the command says so). --first-seed, its old name in rl and smo, is kept
// as a deprecated alias that sets the same value.
func seedFlag(fs *flag.FlagSet, usage string, deprecated ...string) *uint64 {
	s := new(uint64)
	fs.Uint64Var(s, "seed", 1, usage)
	for _, d := range deprecated {
		fs.Uint64Var(s, d, 1, "deprecated: the old name of --seed, same meaning")
	}
	return s
}

// splitList splits a comma-separated flag value, dropping empty entries
// and the spaces around each.
func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}
