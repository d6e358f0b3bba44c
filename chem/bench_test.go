package chem

import (
	"testing"

	"github.com/deup-screening/deup/internal/shareddata"
)

func referenceSMILES(b *testing.B) []string {
	rows := readReference(b, shareddata.Path(b, "fingerprints", "rdkit_morgan.tsv"))
	s := make([]string, len(rows))
	for i, r := range rows {
		s[i] = r.smiles
	}
	return s
}

// BenchmarkMorganBits parses and fingerprints (radius 3, 1024 bits) the
// 4,233 reference molecules one after the other on one goroutine.
func BenchmarkMorganBits(b *testing.B) {
	smiles := referenceSMILES(b)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		for _, s := range smiles {
			if _, err := MorganBits(s, 3, 1024); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportThroughput(b, len(smiles), cpu0)
}

// BenchmarkFingerprinter reuses one Fingerprinter on one goroutine.
func BenchmarkFingerprinter(b *testing.B) {
	smiles := referenceSMILES(b)
	var f Fingerprinter
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		for _, s := range smiles {
			if _, err := f.Bits(s, 3, 1024); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportThroughput(b, len(smiles), cpu0)
}

// BenchmarkMorganBitsAll is the batch API on all cores.
func BenchmarkMorganBitsAll(b *testing.B) {
	smiles := referenceSMILES(b)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		_, errs := MorganBitsAll(smiles, 3, 1024, 0)
		for _, err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	reportThroughput(b, len(smiles), cpu0)
}

// BenchmarkParseSMILES is the parser and perception alone.
func BenchmarkParseSMILES(b *testing.B) {
	smiles := referenceSMILES(b)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		for _, s := range smiles {
			if _, err := ParseSMILES(s); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportThroughput(b, len(smiles), cpu0)
}

// reportThroughput reports molecules per wall-clock second and per CPU
// second (the latter is what one core does, independent of other load).
func reportThroughput(b *testing.B, n int, cpu0 float64) {
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "molecules/s")
	if cpu0 >= 0 {
		if d := cpuSeconds() - cpu0; d > 0 {
			b.ReportMetric(float64(b.N*n)/d, "molecules/cpu-s")
		}
	}
}
