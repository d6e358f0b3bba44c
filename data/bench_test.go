package data

import "testing"

func BenchmarkSynthDefault(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Synth(DefaultSynth(uint64(i))); err != nil {
			b.Fatal(err)
		}
	}
}
