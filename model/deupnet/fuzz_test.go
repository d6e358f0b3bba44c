package deupnet

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/deup-screening/deup/model"
)

// FuzzLoad: Load never panics on any input, and whatever it accepts saves
// back to the same bytes.
func FuzzLoad(f *testing.F) {
	tp := makeToy(15, 8, 16, 4, 0.3)
	cfg := model.Config{TowerHidden: 6, TowerOut: 4, CombHidden: 3, SigmaHidden: 3, MaxEpochs: 1, Seed: 1}
	for _, m := range []model.Method{New(Config{Config: cfg}), model.NewEnsemble(cfg, 2, true), model.NewMCDropout(cfg, 0.2, 3)} {
		if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
			f.Fatal(err)
		}
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Add([]byte("DEUPMODEL\n"))
	f.Add([]byte("DEUPMODEL\n\x01\x00\x00\x00\xff\xff\xff\x7f{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := loadAny(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatalf("accepted model does not save: %v", err)
		}
		if _, err := loadAny(&buf); err != nil {
			t.Fatalf("re-saved model does not load: %v", err)
		}
	})
}

// FuzzSaveLoad: a model trained with a fuzzed seed, method and layer
// sizes, saved and loaded back, predicts exactly (bit for bit) what the
// trained model predicts, and saves back to the same bytes.
func FuzzSaveLoad(f *testing.F) {
	f.Add(uint64(1), uint8(0), uint8(6), uint8(4), uint8(3), uint8(3))
	f.Add(uint64(2), uint8(1), uint8(1), uint8(1), uint8(1), uint8(1))
	f.Add(uint64(3), uint8(2), uint8(9), uint8(2), uint8(5), uint8(2))
	f.Add(uint64(4), uint8(3), uint8(2), uint8(7), uint8(2), uint8(8))
	f.Fuzz(func(t *testing.T, seed uint64, method, th, to, ch, sh uint8) {
		size := func(v uint8) int { return 1 + int(v)%12 }
		cfg := model.Config{TowerHidden: size(th), TowerOut: size(to), CombHidden: size(ch), SigmaHidden: size(sh), MaxEpochs: 1, Seed: seed}
		tp := makeToy(seed, 10, 12, 3, 0.3)
		var m model.Method
		switch method % 4 {
		case 0:
			m = New(Config{Config: cfg})
		case 1:
			m = model.NewEnsemble(cfg, 2, true)
		case 2:
			m = model.NewEnsemble(cfg, 2, false)
		default:
			m = model.NewMCDropout(cfg, 0.2, 3)
		}
		if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		saved := append([]byte(nil), buf.Bytes()...)
		back, err := loadAny(&buf)
		if err != nil {
			t.Fatalf("saved model does not load: %v", err)
		}
		want, err := m.Predict(tp.d.Features, tp.d.Pairs)
		if err != nil {
			t.Fatal(err)
		}
		got, err := back.Predict(tp.d.Features, tp.d.Pairs)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if !samePrediction(got[i], want[i]) {
				t.Fatalf("%s: pair %d: loaded model predicts %+v, trained %+v", m.Name(), i, got[i], want[i])
			}
		}
		var again bytes.Buffer
		if err := back.Save(&again); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.Bytes(), saved) {
			t.Fatalf("%s: re-saved model differs from the saved one", m.Name())
		}
	})
}

func samePrediction(a, b model.Prediction) bool {
	eq := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
	return eq(a.Mu, b.Mu) && eq(a.SigmaTotal, b.SigmaTotal) && eq(a.SigmaEpistemic, b.SigmaEpistemic) && eq(a.SigmaAleatoric, b.SigmaAleatoric)
}
