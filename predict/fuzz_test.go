package predict

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/deup-screening/deup/active"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/tui/pairs"
)

// FuzzPredictionsRoundTrip: predictions written by `deup predict` (CSV,
// Arrow, Parquet) read back with tui/pairs, the reader of the TUI, give
// the same pairs and the same numbers: exactly as float32 (the TUI's
// precision) from Arrow and Parquet, within the 7 significant digits the
// CSV writer prints (half a unit of the 7th digit plus one float32 ulp);
// NaN stays NaN.
func FuzzPredictionsRoundTrip(f *testing.F) {
	f.Add(uint64(1), uint8(10), uint8(0))
	f.Add(uint64(2), uint8(40), uint8(3))
	f.Add(uint64(3), uint8(1), uint8(255))
	f.Fuzz(func(t *testing.T, seed uint64, n, special uint8) {
		rng := rand.New(rand.NewPCG(seed, 19))
		// Drug ids with the characters CSV quotes.
		ids := []string{"5702198", "a,b", `q"t`, "line\nbreak", "D 5", "x"}
		s := &drugcomb.Screen{Name: "p", ScoreNames: []string{"s"}, CellLines: []string{"PC-3"}}
		for _, id := range ids {
			s.Drugs = append(s.Drugs, drugcomb.Drug{ID: id})
		}
		var ps []model.PairRef
		for a := range ids {
			for b := a + 1; b < len(ids); b++ {
				if rng.IntN(2) == 0 {
					ps = append(ps, model.PairRef{A: b, B: a}) // either order
				} else {
					ps = append(ps, model.PairRef{A: a, B: b})
				}
			}
		}
		rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
		ps = ps[:int(n)%len(ps)+1]
		// What Predict can give: finite means, standard deviations >= 0,
		// NaN where there is no estimate (the reader refuses infinities
		// and negative standard deviations).
		value := func(k int) float64 {
			v := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
			if special&(1<<uint(k%8)) != 0 {
				v = []float64{math.NaN(), 0, math.Copysign(0, -1), 1e-30, 3.4e38, -3.4e38}[rng.IntN(6)]
			}
			if k%4 != 0 && v < 0 {
				v = -v
			}
			return v
		}
		pred := make([]model.Prediction, len(ps))
		for i := range pred {
			pred[i] = model.Prediction{Mu: value(4 * i), SigmaTotal: value(4*i + 1), SigmaEpistemic: value(4*i + 2), SigmaAleatoric: value(4*i + 3)}
		}
		for _, format := range []string{"csv", "arrow", "parquet"} {
			path := filepath.Join(t.TempDir(), "p."+format)
			w, err := Create(path, &Table{Drugs: Drugs{IDs: ids, Names: ids}, Lines: []string{""}})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write(ps, pred, nil); err != nil {
				t.Fatal(err)
			}
			if err := w.Commit(); err != nil {
				t.Fatal(err)
			}
			bl, err := pairs.NewBuilder(s, 0, active.DefaultKappa)
			if err != nil {
				t.Fatal(err)
			}
			got, err := bl.ReadPredictions(path, 0)
			if err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			if got != len(ps) {
				t.Fatalf("%s: %d predictions read, %d written", format, got, len(ps))
			}
			tab, err := bl.Build()
			if err != nil {
				t.Fatal(err)
			}
			byPair := map[[2]int]int{}
			for i, p := range ps {
				byPair[[2]int{min(p.A, p.B), max(p.A, p.B)}] = i
			}
			for r := range tab.Len() {
				row := tab.Row(r)
				i, ok := byPair[[2]int{row.A, row.B}]
				if !ok {
					t.Fatalf("%s: row %d is pair %d-%d, not written", format, r, row.A, row.B)
				}
				want := pred[i]
				for k, c := range [][2]float64{{row.Mu, want.Mu}, {row.SigmaTotal, want.SigmaTotal}, {row.SigmaEpistemic, want.SigmaEpistemic}, {row.SigmaAleatoric, want.SigmaAleatoric}} {
					if !sameValue(c[0], c[1], format == "csv") {
						t.Fatalf("%s: pair %s-%s value %d: read %v, wrote %v", format, ids[row.A], ids[row.B], k, c[0], c[1])
					}
				}
			}
		}
	})
}

// sameValue compares a value read back (float32 precision) with the one
// written.
func sameValue(got, wrote float64, csv bool) bool {
	switch {
	case math.IsNaN(wrote):
		return math.IsNaN(got)
	case !csv:
		return got == float64(float32(wrote))
	}
	// 7 significant digits: |error| <= 0.5e-6 |wrote|, then float32
	// rounding (2^-24 relative), and float32 underflow near 1e-38.
	tol := 0.5e-6*math.Abs(wrote) + math.Abs(wrote)*0x1p-23 + 0x1p-149
	return math.Abs(got-wrote) <= tol
}
