package scores

import (
	"errors"
	"fmt"
	"testing"
)

// TestShardRangesPartition checks, for many totals and shard counts
// (including N > total and N = 1), that the N ranges are contiguous,
// disjoint, cover [0, total) once and differ in size by at most one.
func TestShardRangesPartition(t *testing.T) {
	totals := []int{0, 1, 2, 3, 7, 10, 780, 1000, 8_592_585, 1 << 40}
	counts := []int{1, 2, 3, 4, 7, 8, 16, 1000, 4096}
	for _, total := range totals {
		for _, n := range counts {
			t.Run(fmt.Sprintf("total=%d/N=%d", total, n), func(t *testing.T) {
				next, small, big := 0, total, 0
				for i := 0; i < n; i++ {
					lo, hi := Shard{i, n}.Range(total)
					if lo != next {
						t.Fatalf("shard %d starts at %d, want %d (gap or overlap)", i, lo, next)
					}
					if hi < lo {
						t.Fatalf("shard %d = [%d, %d)", i, lo, hi)
					}
					small, big = min(small, hi-lo), max(big, hi-lo)
					next = hi
				}
				if next != total {
					t.Fatalf("shards end at %d, want %d", next, total)
				}
				if big-small > 1 {
					t.Fatalf("shard sizes from %d to %d, want within one", small, big)
				}
			})
		}
	}
}

// TestShardsCoverEveryPairOnce enumerates the pairs of each shard with
// Pairs and checks the union is every pair of n drugs exactly once, in
// the order of the unsharded run.
func TestShardsCoverEveryPairOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 5, 40, 101} {
		for _, parts := range []int{1, 2, 4, 7, 8, 5000} {
			t.Run(fmt.Sprintf("drugs=%d/N=%d", n, parts), func(t *testing.T) {
				var whole [][2]int
				for a := 0; a < n; a++ {
					for b := a + 1; b < n; b++ {
						whole = append(whole, [2]int{a, b})
					}
				}
				total := PairCount(n)
				if total != len(whole) {
					t.Fatalf("PairCount(%d) = %d, want %d", n, total, len(whole))
				}
				k := 0
				for i := 0; i < parts; i++ {
					lo, hi := Shard{i, parts}.Range(total)
					for a, b := range Pairs(n, lo, hi) {
						if k >= total || whole[k] != [2]int{a, b} {
							t.Fatalf("shard %d row %d = (%d, %d), want %v", i, k, a, b, whole[min(k, total-1)])
						}
						k++
					}
				}
				if k != total {
					t.Fatalf("shards yield %d pairs, want %d", k, total)
				}
			})
		}
	}
}

// TestPairAtLarge checks PairAt against row arithmetic at the edges of the
// rows of a DrugComb-sized catalogue, where the float root could round.
func TestPairAtLarge(t *testing.T) {
	const n = 4146
	for a := 0; a < n-1; a++ {
		first, last := rowStart(n, a), rowStart(n, a)+n-a-2
		for _, c := range []struct{ k, b int }{{first, a + 1}, {last, n - 1}} {
			if ga, gb := PairAt(n, c.k); ga != a || gb != c.b {
				t.Fatalf("PairAt(%d, %d) = (%d, %d), want (%d, %d)", n, c.k, ga, gb, a, c.b)
			}
		}
	}
	if PairCount(n) != 8_592_585 {
		t.Fatalf("PairCount(%d) = %d, want 8592585", n, PairCount(n))
	}
}

func TestParseShard(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	cases := []struct {
		name, in string
		getenv   func(string) string
		want     Shard
		err      bool
	}{
		{"plain", "3/8", env(), Shard{3, 8}, false},
		{"whole", "0/1", env(), Whole, false},
		{"spaces", " 1/2 ", env(), Shard{1, 2}, false},
		{"slurm", "env/8", env("SLURM_ARRAY_TASK_ID", "7"), Shard{7, 8}, false},
		{"k8s", "env/4", env("JOB_COMPLETION_INDEX", "0"), Shard{0, 4}, false},
		{"slurm first", "env/4", env("SLURM_ARRAY_TASK_ID", "2", "JOB_COMPLETION_INDEX", "1"), Shard{2, 4}, false},
		{"env unset", "env/4", env(), Shard{}, true},
		{"env out of range", "env/4", env("SLURM_ARRAY_TASK_ID", "4"), Shard{}, true},
		{"index = N", "8/8", env(), Shard{}, true},
		{"negative", "-1/8", env(), Shard{}, true},
		{"zero parts", "0/0", env(), Shard{}, true},
		{"no slash", "3", env(), Shard{}, true},
		{"words", "a/b", env(), Shard{}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseShard(c.in, c.getenv)
			if c.err {
				if !errors.Is(err, ErrShard) {
					t.Fatalf("ParseShard(%q) = %v, %v; want an ErrShard", c.in, got, err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("ParseShard(%q) = %v, %v; want %v", c.in, got, err, c.want)
			}
		})
	}
}

func TestPartNames(t *testing.T) {
	for _, s := range []Shard{{0, 1}, {3, 8}, {11, 12}} {
		if got, ok := parsePartName(PartName(s)); !ok || got != s {
			t.Errorf("parsePartName(%q) = %v, %v; want %v", PartName(s), got, ok, s)
		}
	}
	for _, bad := range []string{"part-8-of-8.parquet", "part-1-of-2.parquet.tmp", "part-01-of-2.parquet", "x.parquet", "part-1-of-2.csv"} {
		if s, ok := parsePartName(bad); ok {
			t.Errorf("parsePartName(%q) = %v, want not a part", bad, s)
		}
	}
	if got, want := PartPath("out", "NCI/ADR-RES", Shard{1, 4}), "out/cell_line=NCI%2FADR-RES/part-1-of-4.parquet"; got != want {
		t.Errorf("PartPath = %q, want %q", got, want)
	}
}

func TestSortedByID(t *testing.T) {
	ids := []string{"9", "10", "2244", "100"}
	got := SortedByID(ids)
	want := []int{1, 3, 2, 0} // byte order: "10" < "100" < "2244" < "9"
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("SortedByID(%v) = %v, want %v", ids, got, want)
	}
}
