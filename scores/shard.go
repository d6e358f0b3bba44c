package scores

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Shard is the Index-th of Count contiguous ranges of a run's rows.
// The zero value is invalid; Whole is the one-process run.
type Shard struct{ Index, Count int }

// Whole is the shard that holds every row: 0/1.
var Whole = Shard{0, 1}

// IndexVars are the environment variables ParseShard reads for an index
// given as "env": Slurm job arrays' and Kubernetes Indexed Jobs'.
var IndexVars = []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"}

// ErrShard is the error of a shard that cannot be parsed.
var ErrShard = errors.New("bad shard")

// ParseShard reads "i/N" (0 ≤ i < N) or "env/N", where i is read from the
// first of IndexVars that getenv returns non-empty: a Slurm array
// (--array=0-N−1) or a Kubernetes Indexed Job (completions N).
func ParseShard(s string, getenv func(string) string) (Shard, error) {
	is, ns, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Shard{}, fmt.Errorf("%w %q: want i/N (0 ≤ i < N) or env/N", ErrShard, s)
	}
	n, err := strconv.Atoi(ns)
	if err != nil || n < 1 {
		return Shard{}, fmt.Errorf("%w %q: N must be a whole number ≥ 1", ErrShard, s)
	}
	from := ""
	if is == "env" {
		for _, v := range IndexVars {
			if is = strings.TrimSpace(getenv(v)); is != "" {
				from = " (from " + v + ")"
				break
			}
		}
		if is == "" {
			return Shard{}, fmt.Errorf("%w %q: none of %s is set: give i/N, or run as a Slurm array task or a Kubernetes Indexed Job", ErrShard, s, strings.Join(IndexVars, ", "))
		}
	}
	i, err := strconv.Atoi(is)
	if err != nil || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("%w %q: index %q%s must be a whole number in [0, %d)", ErrShard, s, is, from, n)
	}
	return Shard{i, n}, nil
}

// String is "i/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Valid reports whether 0 ≤ Index < Count.
func (s Shard) Valid() bool { return s.Count >= 1 && s.Index >= 0 && s.Index < s.Count }

// Range is the shard's rows of total: [lo, hi) with lo = floor(total·i/N),
// hi = floor(total·(i+1)/N). It panics on an invalid shard or a negative
// total (programmer errors).
func (s Shard) Range(total int) (lo, hi int) {
	if !s.Valid() || total < 0 {
		panic("scores: Range of an invalid shard or a negative total")
	}
	at := func(i int) int {
		// total·i/N without overflow for any total and N below 2^31.
		q, r := total/s.Count, total%s.Count
		return q*i + r*i/s.Count
	}
	return at(s.Index), at(s.Index + 1)
}
