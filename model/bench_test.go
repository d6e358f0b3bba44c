package model_test

import (
	"context"
	"encoding/csv"
	"flag"
	"math"
	"os"
	"runtime"
	"runtime/metrics"
	"syscall"
	"testing"
	"time"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/internal/shareddata"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
	"github.com/deup-screening/deup/model/due"
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
	m := deupnet.New(deupnet.Config{Config: model.Config{Seed: 1, MaxEpochs: b.N + 1, Patience: 1 << 30}})
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
	m := deupnet.New(deupnet.Config{Config: model.Config{Seed: 1, MaxEpochs: 1}})
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
		buf := make([]model.PairRef, 0, 1<<16)
		for a := 0; a < n; a++ {
			for c := a + 1; c < n; c++ {
				buf = append(buf, model.PairRef{A: a, B: c})
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

// BenchmarkFitPC3 is one whole training per op of each method of the bench
// table on PC-3 (40/30/30 split, seed 1, the paper's network; at most
// -fit-epochs epochs, default 20, so a run stays short: the memory a
// training holds does not grow with epochs). It reports the wall and CPU
// seconds of a fit and its memory: peak-MB is the most memory the Go
// runtime had mapped from the system (heap, stacks and runtime structures,
// minus what it returned; sampled every 2 ms during the fit), retained-MB
// the heap still live after the fit with the trained model kept (what a
// caller holding the model pays). Run one method at a time
// (-bench 'FitPC3/deup') for a peak that no earlier sub-benchmark's
// garbage inflates.
func BenchmarkFitPC3(b *testing.B) {
	sc, d := loadPC3(b)
	split := drugcomb.SplitRandom(len(sc.Pairs), [3]float64{0.4, 0.3, 0.3}, 1)
	cfg := model.Config{Seed: 1, MaxEpochs: *fitEpochs}
	for _, tc := range []struct {
		name string
		new  func() model.Method
	}{
		{"deup", func() model.Method { return deupnet.New(deupnet.Config{Config: cfg}) }},
		{"ensemble", func() model.Method { return model.NewEnsemble(cfg, 3, false) }},
		{"mcdropout", func() model.Method { return model.NewMCDropout(cfg, 0.1, 3) }},
		{"due", func() model.Method { return due.New(due.Config{Seed: 1, MaxEpochs: *fitEpochs}) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			runtime.GC()
			var peak, retained uint64
			cpu0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				m := tc.new()
				stop := sampleMapped(&peak)
				err := m.Fit(context.Background(), d, split, nil)
				stop()
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				retained = max(retained, ms.HeapAlloc)
				runtime.KeepAlive(m)
				b.StartTimer()
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/fit")
			b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/fit")
			b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
			b.ReportMetric(float64(retained)/(1<<20), "retained-MB")
		})
	}
}

var fitEpochs = flag.Int("fit-epochs", 20, "maximum epochs of a training in BenchmarkFitPC3")

// sampleMapped records in *peak the most memory the Go runtime has mapped
// and not returned, sampled every 2 ms until stop is called.
func sampleMapped(peak *uint64) (stop func()) {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	read := func() {
		metrics.Read(s)
		*peak = max(*peak, s[0].Value.Uint64()-s[1].Value.Uint64())
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			read()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished; read() }
}
