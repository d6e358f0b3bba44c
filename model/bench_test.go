package model_test

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/internal/shareddata"
	"github.com/deup-screening/deup/model"
)

// BenchmarkDEUPEpochPC3 measures one DEUP training epoch on PC-3 with the
// paper's network and batch 64 (40/30/30 split): 9 in-sample steps, 9
// out-of-sample σ steps and the validation pass. Reported as s/epoch,
// excluding the first epoch (graph compilation), in wall time and in CPU
// time of the process (user+system, all threads): on a shared machine the
// wall time includes waiting for a core, the CPU time does not.
func BenchmarkDEUPEpochPC3(b *testing.B) {
	sc, d := loadPC3(b)
	split := drugcomb.SplitRandom(len(sc.Pairs), [3]float64{0.4, 0.3, 0.3}, 1)
	b.ReportAllocs()
	m := model.NewDEUP(model.Config{Seed: 1, MaxEpochs: b.N + 1, Patience: 1 << 30})
	var first, last, cpuFirst, cpuLast float64
	b.ResetTimer()
	err := m.Fit(context.Background(), d, split, func(p model.Progress) {
		if p.Epoch == 1 {
			first, cpuFirst = p.Elapsed.Seconds(), cpuSeconds()
		}
		if !p.Done {
			last, cpuLast = p.Elapsed.Seconds(), cpuSeconds()
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric((last-first)/float64(b.N), "s/epoch")
	b.ReportMetric((cpuLast-cpuFirst)/float64(b.N), "cpu-s/epoch")
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// BenchmarkAllPairsCatalogue scores every unordered pair of the 4,146-drug
// DrugComb catalogue (../shared/data/drugcomb/drugs.csv; 8.6 million pairs)
// with a model trained one epoch on PC-3: the tower runs once per drug,
// then the combined network and σ path per pair, in chunks of 65,536 pairs
// as deup predict --all-pairs does. One op is the whole catalogue.
func BenchmarkAllPairsCatalogue(b *testing.B) {
	sc, d := loadPC3(b)
	split := drugcomb.SplitRandom(len(sc.Pairs), [3]float64{0.4, 0.3, 0.3}, 1)
	m := model.NewDEUP(model.Config{Seed: 1, MaxEpochs: 1})
	if err := m.Fit(context.Background(), d, split, nil); err != nil {
		b.Fatal(err)
	}
	fh, err := os.Open(shareddata.Path(b, "drugcomb", "drugs.csv"))
	if err != nil {
		b.Fatal(err)
	}
	rows, err := csv.NewReader(fh).ReadAll()
	fh.Close()
	if err != nil {
		b.Fatal(err)
	}
	var drugs []drugcomb.Drug
	for _, r := range rows[1:] {
		drugs = append(drugs, drugcomb.Drug{ID: r[0], SMILES: r[1]})
	}
	f, kept, _, err := features.BuildLenient(drugs, features.Config{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	n := len(kept)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	pairs := 0
	for i := 0; i < b.N; i++ {
		fi := *f // a new matrix: the per-drug tower cache starts empty
		buf := make([]model.Pair, 0, 1<<16)
		for a := 0; a < n; a++ {
			for c := a + 1; c < n; c++ {
				buf = append(buf, model.Pair{A: a, B: c})
				if len(buf) == cap(buf) || (a == n-2 && c == n-1) {
					if _, err := m.Predict(&fi, buf); err != nil {
						b.Fatal(err)
					}
					pairs += len(buf)
					buf = buf[:0]
				}
			}
		}
	}
	b.ReportMetric(float64(pairs)/b.Elapsed().Seconds(), "pairs/s")
	b.ReportMetric(float64(pairs)/(cpuSeconds()-cpu0), "pairs/cpu-s")
	b.ReportMetric(float64(n), "drugs")
}
