package model

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkTowerStep compares, in the same run, one training step's
// forward and backward pass (the gorgonia graph; the Adam update, whose
// cost is the same either way, excluded) of the paper's network on a
// panel-sized problem: 87 drugs with 1024-bit fingerprints (~45 bits set),
// 43 cell lines, 512 pairs per batch. "distinct" runs the tower once per
// distinct drug of the batch (what training does: makeBatch); "per-row"
// runs it once per pair row and drug slot (2·512 tower rows), the naive
// way. The ratio of the two ns/op is the tower speed-up.
func BenchmarkTowerStep(b *testing.B) {
	const nDrugs, dim, bits, lines, batchSize = 87, 1024, 45, 43, 512
	rng := rand.New(rand.NewPCG(1, 2))
	f := &Features{Config: FeatureConfig{Kind: "fp", Radius: 3, NBits: dim}, RowPtr: []int{0}}
	for range nDrugs {
		perm := rng.Perm(dim)[:bits]
		sortInts(perm)
		for _, c := range perm {
			f.Col = append(f.Col, int32(c))
			f.Val = append(f.Val, 1)
		}
		f.RowPtr = append(f.RowPtr, len(f.Col))
	}
	d := &Dataset{Features: f}
	for l := range lines {
		d.LineNames = append(d.LineNames, fmt.Sprint(l))
	}
	for range batchSize {
		a, c := rng.IntN(nDrugs), rng.IntN(nDrugs-1)
		if c >= a {
			c++
		}
		d.Pairs = append(d.Pairs, PairRef{A: a, B: c, Line: rng.IntN(lines)})
		d.Y = append(d.Y, rng.NormFloat64())
	}
	idx := make([]int, batchSize)
	for i := range idx {
		idx[i] = i
	}
	cfg := Config{BatchSize: batchSize, lines: lines}.WithDefaults()
	n := NewNetwork(cfg, dim, true, 1)
	var distinct batch
	d.makeBatch(idx, 0, 1, &distinct)
	// The per-row batch: every pair row has its own two tower rows.
	perRow := batch{y: distinct.y, w: distinct.w, line: distinct.line}
	for _, i := range idx {
		perRow.pa = append(perRow.pa, len(perRow.drugs))
		perRow.pb = append(perRow.pb, len(perRow.drugs)+1)
		perRow.drugs = append(perRow.drugs, d.Pairs[i].A, d.Pairs[i].B)
	}
	for _, c := range []struct {
		name string
		b    *batch
	}{{"distinct", &distinct}, {"per-row", &perRow}} {
		b.Run(c.name, func(b *testing.B) {
			var sh gradShare
			sh.fuse()
			g, err := n.buildGraph(len(c.b.drugs), batchSize, LossNLL, false, &sh)
			if err != nil {
				b.Fatal(err)
			}
			defer g.close()
			g.setInputs(f, c.b.drugs, c.b.pa, c.b.pb, c.b.line, c.b.y, c.b.w, 0)
			b.ReportAllocs()
			b.ReportMetric(float64(len(c.b.drugs)), "tower-rows")
			b.ResetTimer()
			for range b.N {
				if _, err := g.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
