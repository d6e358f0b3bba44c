package model

import (
	"bytes"
	"context"
	"testing"
)

// FuzzLoad: Load never panics on any input, and whatever it accepts saves
// back to the same bytes.
func FuzzLoad(f *testing.F) {
	tp := makeToy(15, 8, 16, 4, 0.3)
	cfg := Config{TowerHidden: 6, TowerOut: 4, CombHidden: 3, SigmaHidden: 3, MaxEpochs: 1, Seed: 1}
	for _, m := range []Method{NewDEUP(cfg), NewEnsemble(cfg, 2, true), NewMCDropout(cfg, 0.2, 3)} {
		if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
			f.Fatal(err)
		}
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Add([]byte(fileMagic))
	f.Add([]byte("DEUPMODEL\n\x01\x00\x00\x00\xff\xff\xff\x7f{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Load(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatalf("accepted model does not save: %v", err)
		}
		if _, err := Load(&buf); err != nil {
			t.Fatalf("re-saved model does not load: %v", err)
		}
	})
}
