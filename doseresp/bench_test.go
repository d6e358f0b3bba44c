package doseresp

import (
	"os"
	"testing"

	"github.com/deup-screening/deup/internal/shareddata"
)

// BenchmarkScoreMathewsGriner scores the 466 6×6 Mathews Griner blocks
// (viability, nM) on all cores; blocks/s is the figure the issue asks for.
func BenchmarkScoreMathewsGriner(b *testing.B) {
	path := shareddata.Path(b, "doseresponse", "mathews_griner.csv.gz")
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	blocks, _, err := Read(path, f, ReadOptions{})
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	if len(blocks) != 466 {
		b.Fatalf("%d blocks, want 466", len(blocks))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, s := range ScoreAll(blocks, Options{}, nil) {
			if s.Err != nil {
				b.Fatal(s.Err)
			}
		}
	}
	b.ReportMetric(float64(len(blocks)*b.N)/b.Elapsed().Seconds(), "blocks/s")
}

// BenchmarkScoreBlock scores one 6×6 block on one goroutine.
func BenchmarkScoreBlock(b *testing.B) {
	blk := grid(doses, doses, bliss0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Score(blk, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
