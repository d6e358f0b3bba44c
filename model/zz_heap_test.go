package model_test

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

func TestZZHeap(t *testing.T) {
	out := os.Getenv("HEAPPROF")
	if out == "" {
		t.Skip()
	}
	sc, d := loadPC3(t)
	split := drugcomb.SplitRandom(len(sc.Pairs), [3]float64{0.4, 0.3, 0.3}, 1)
	m := model.NewDEUP(model.Config{Seed: 1, MaxEpochs: 8, Patience: 1 << 30})
	err := m.Fit(context.Background(), d, split, func(p model.Progress) {
		if p.Epoch == 6 && !p.Done {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			t.Logf("heap inuse %d MB", ms.HeapInuse>>20)
			f, _ := os.Create(out)
			pprof.WriteHeapProfile(f)
			f.Close()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("after fit heap inuse %d MB alloc %d MB", ms.HeapInuse>>20, ms.HeapAlloc>>20)
	f, _ := os.Create(out + ".after")
	pprof.WriteHeapProfile(f)
	f.Close()
	runtime.KeepAlive(m)
}
