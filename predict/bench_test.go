package predict

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/uq"
)

// BenchmarkWriter measures writing one 65,536-pair chunk of
// predictions (deup predict's chunk), without and with the interval
// columns of --coverage 0.9, in each format.
func BenchmarkWriter(b *testing.B) {
	const n = 1 << 16
	ids := make([]string, 400)
	for i := range ids {
		ids[i] = "D" + strconv.Itoa(i)
	}
	pairs := make([]model.PairRef, n)
	pred := make([]model.Prediction, n)
	for i := range pairs {
		pairs[i] = model.PairRef{A: i % 400, B: (i / 400) % 400}
		pred[i] = model.Prediction{Mu: float64(i%97) - 40, SigmaTotal: 1 + float64(i%13), SigmaEpistemic: 1, SigmaAleatoric: 0.5}
	}
	// A screen's worth of measured pairs (PC-3 has about 3000).
	measured := map[drugcomb.PairKey]float64{}
	for i := 0; i < 3000; i++ {
		measured[drugcomb.NewPairKey(ids[i%400], ids[(i*7+1)%400])] = float64(i)
	}
	scores := make([]float64, 144)
	for i := range scores {
		scores[i] = 0.02 * float64(i+1)
	}
	cal := &uq.Calibrator{Method: uq.MethodConformalNormalized, N: len(scores), Scores: scores}
	for _, format := range []string{"csv", "parquet"} {
		for _, c := range []*uq.Calibrator{nil, cal} {
			name := format + "/plain"
			if c != nil {
				name = format + "/coverage"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				path := filepath.Join(b.TempDir(), "p."+format)
				for i := 0; i < b.N; i++ {
					w, err := Create(path, &Table{Cal: c, Coverage: 0.9, Drugs: Drugs{IDs: ids, Names: ids}, Lines: []string{"PC-3"}, Score: "combo_score", Measured: []map[drugcomb.PairKey]float64{measured}})
					if err != nil {
						b.Fatal(err)
					}
					if err := w.Write(pairs, pred, nil); err != nil {
						b.Fatal(err)
					}
					if err := w.Commit(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
