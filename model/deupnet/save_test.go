package deupnet

import (
	"errors"

	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/deup-screening/deup/model"
)

func TestSaveLoadRoundTrip(t *testing.T) {
	tp := makeToy(12, 20, 64, 8, 0.3)
	cfg := toyConfig(2)
	cfg.MaxEpochs = 3
	m := New(cfg)
	if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
		t.Fatal(err)
	}
	got := saveLoadSame(t, m, tp)
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	file := buf.Bytes() // damaged below
	if got.FeatureConfig() != m.FeatureConfig() || got.AleatoricNote() != m.AleatoricNote() {
		t.Error("feature config or aleatoric note lost")
	}
	t.Run("mismatched features", func(t *testing.T) {
		f := *tp.d.Features
		f.Config.Radius = 2
		if _, err := got.Predict(&f, tp.d.Pairs[:1]); err == nil {
			t.Error("no error for features built with another radius")
		}
	})
	for _, tc := range []struct {
		name string
		data func() []byte
	}{
		{"empty", func() []byte { return nil }},
		{"not a model", func() []byte { return []byte("name,smiles\nx,CC\n") }},
		{"truncated", func() []byte { return file[:len(file)/2] }},
		{"flipped parameter byte", func() []byte { c := slices.Clone(file); c[len(c)-100] ^= 1; return c }},
		{"flipped header byte", func() []byte { c := slices.Clone(file); c[20] ^= 0x20; return c }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(bytes.NewReader(tc.data()))
			if !errors.Is(err, model.ErrFormat) {
				t.Fatalf("err = %v, want ErrFormat", err)
			}
		})
	}
}
