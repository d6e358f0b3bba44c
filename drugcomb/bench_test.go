package drugcomb

import (
	"path/filepath"
	"testing"

	"github.com/deup-screening/deup/internal/shareddata"
)

func BenchmarkImportAlmanacPC3(b *testing.B) {
	pairs := shareddata.Path(b, "almanac", "synergy_PC-3.csv")
	drugs := shareddata.Path(b, "almanac", "drugs.csv")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, err := ImportAlmanac(pairs, drugs); err != nil {
			b.Fatal(err)
		}
	}
}

func benchScreen(b *testing.B) *Screen {
	s, _, err := ImportAlmanac(shareddata.Path(b, "almanac", "synergy_PC-3.csv"), shareddata.Path(b, "almanac", "drugs.csv"))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func BenchmarkSave(b *testing.B) {
	s := benchScreen(b)
	dir := b.TempDir()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := Save(filepath.Join(dir, "s"), s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOpen(b *testing.B) {
	for _, form := range []struct {
		name string
		f    Form
	}{{"arrow", FormArrow}, {"parquet", FormParquet}} {
		b.Run(form.name, func(b *testing.B) {
			s := benchScreen(b)
			dir := filepath.Join(b.TempDir(), "s")
			if err := Save(dir, s); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := OpenForm(dir, form.f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
