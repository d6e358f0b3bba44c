package pairs

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/deup-screening/deup/active"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/tui"
)

// catalogue builds the table of every unordered pair of nd synthetic drugs on
// one cell line (nd = 4146, the DrugComb catalogue, gives 8,592,585 rows),
// 1,474 of them measured (the size of the ALMANAC PC-3 screen).
func catalogue(b *testing.B, nd int) *Table {
	b.Helper()
	rng := rand.New(rand.NewPCG(7, 7))
	s := &drugcomb.Screen{Name: "catalogue", ScoreNames: []string{"score"}, CellLines: []string{"PC-3"}}
	for d := range nd {
		id := strconv.Itoa(100000 + d*37)
		s.Drugs = append(s.Drugs, drugcomb.Drug{ID: id, Name: "drug-" + strconv.FormatInt(int64(d)*7919%1000003, 36)})
	}
	for len(s.Pairs) < 1474 {
		a, c := rng.IntN(nd), rng.IntN(nd)
		if a == c {
			continue
		}
		s.Pairs = append(s.Pairs, drugcomb.Pair{A: min(a, c), B: max(a, c), N: 1, Mean: []float64{rng.NormFloat64() * 46}})
	}
	// drop accidental duplicate measured pairs
	seen := map[[2]int]bool{}
	ps := s.Pairs[:0]
	for _, p := range s.Pairs {
		if !seen[[2]int{p.A, p.B}] {
			seen[[2]int{p.A, p.B}] = true
			ps = append(ps, p)
		}
	}
	s.Pairs = ps
	bl, err := NewBuilder(s, nd*(nd-1)/2, active.DefaultKappa)
	if err != nil {
		b.Fatal(err)
	}
	for a := range nd {
		for c := a + 1; c < nd; c++ {
			mu := rng.NormFloat64() * 20
			se, sa := rng.ExpFloat64()*5, rng.ExpFloat64()*10
			if err := bl.Add(a, c, 0, Scored{Mu: mu, SigmaTotal: se + sa, SigmaEpistemic: se, SigmaAleatoric: sa, Acquisition: mu + se}); err != nil {
				b.Fatal(err)
			}
		}
	}
	t, err := bl.Build()
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// BenchmarkCatalogue measures queries over the 8,592,585 pairs of the
// 4,146-drug catalogue. Run with
//
//	go test ./tui/pairs -run '^$' -bench Catalogue -benchtime 5x
func BenchmarkCatalogue(b *testing.B) {
	t := catalogue(b, 4146)
	if t.Len() != 8592585 {
		b.Fatalf("%d rows, want 8592585", t.Len())
	}
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		q    tui.Query
	}{
		{"all/unsorted-acq", tui.AllRows()},
		{"all/sigma_epi", tui.Query{Sort: tui.ColSigmaEpistemic, Desc: true, Drug: -1, CellLine: -1}},
		{"all/drugA", tui.Query{Sort: tui.ColDrugA, Drug: -1, CellLine: -1}},
		{"text-1char/mu", tui.Query{Text: "a", Sort: tui.ColMu, Desc: true, Drug: -1, CellLine: -1}},
		{"text-3char/mu", tui.Query{Text: "g-a", Sort: tui.ColMu, Desc: true, Drug: -1, CellLine: -1}},
		{"unmeasured/sigma_epi", tui.Query{Sort: tui.ColSigmaEpistemic, Desc: true, Drug: -1, CellLine: -1, Measured: tui.OnlyUnmeasured}},
		{"measured/measured", tui.Query{Sort: tui.ColMeasured, Drug: -1, CellLine: -1, Measured: tui.OnlyMeasured}},
		{"one-drug/mu", tui.Query{Drug: 17, Sort: tui.ColMu, Desc: true, CellLine: -1}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v, err := t.Select(ctx, bc.q)
				if err != nil || v.Len() == 0 {
					b.Fatal(err, v.Len())
				}
			}
		})
	}
	// Baselines in the same run, for ratios on a shared, noisy machine: one
	// sequential pass over a float32 column, and the comparison sort a
	// straightforward implementation would use.
	b.Run("baseline/scan", func(b *testing.B) {
		b.ReportAllocs()
		var sum float32
		for b.Loop() {
			for _, x := range t.sigmaE {
				sum += x
			}
		}
		_ = sum
	})
	b.Run("baseline/slices.SortFunc", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			perm := make([]int32, t.Len())
			for i := range perm {
				perm[i] = int32(i)
			}
			col := t.sigmaE
			slices.SortStableFunc(perm, func(i, j int32) int { return cmp.Compare(col[j], col[i]) })
		}
	})
	b.Run("nearest", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := t.Nearest(ctx, 12345, 8); err != nil {
				b.Fatal(err)
			}
		}
	})
}
