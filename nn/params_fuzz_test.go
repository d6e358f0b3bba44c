package nn

import (
	"bytes"
	"testing"
)

// FuzzParamsLoad feeds arbitrary bytes to Params.Load: it must return an
// error or load, never panic, and never change the parameters on error.
func FuzzParamsLoad(f *testing.F) {
	m, _ := NewMLP(MLPConfig{In: 2, Hidden: []int{3}, Out: 1, Seed: 1})
	var buf bytes.Buffer
	if err := m.Params().Save(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(paramsMagic))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, _ := NewMLP(MLPConfig{In: 2, Hidden: []int{3}, Out: 1, Seed: 2})
		before := append([]float32(nil), p.Params()[0].Data...)
		if err := p.Params().Load(bytes.NewReader(data)); err != nil {
			for i, v := range p.Params()[0].Data {
				if v != before[i] {
					t.Fatalf("Load failed (%v) but changed l0.w", err)
				}
			}
		}
	})
}
