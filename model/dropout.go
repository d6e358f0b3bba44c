package model

import "math/rand/v2"

// dropout draws inverted-dropout masks: each unit is kept with probability
// 1−p and then scaled by 1/(1−p), so the expected activation is unchanged
// (gorgonia's Dropout op scales its backward pass by 1/p, and seeds from
// the clock; this one is seeded and the mask is an input of the graph, so
// the backward pass is the mask itself).
type dropout struct {
	p    float64
	seed uint64
	pcg  *rand.PCG
	rng  *rand.Rand
	pass uint64 // MC-Dropout prediction pass (mixed into per-pair seeds)
}

func newDropout(p float64, seed uint64) *dropout {
	pcg := rand.NewPCG(seed, 0x64726f706f7574) // "dropout"
	return &dropout{p: p, seed: seed, pcg: pcg, rng: rand.New(pcg)}
}

// seedPair reseeds the masks for one pair at prediction time, from the
// unordered pair, the layer and the pass: a pair's masks do not depend on
// which other pairs are predicted with it, nor on the drug order.
func (d *dropout) seedPair(a, b, layer int) {
	if a > b {
		a, b = b, a
	}
	k := uint64(a)<<32 | uint64(b)
	d.pcg.Seed(d.seed^(k*0x9e3779b97f4a7c15), d.pass<<8|uint64(layer))
}

func (d *dropout) keep() float64 {
	if d.rng.Float64() < d.p {
		return 0
	}
	return 1 / (1 - d.p)
}

func dropApply[T float32 | float64](d *dropout, x []T) {
	for i := range x {
		x[i] *= T(d.keep())
	}
}

func (d *dropout) apply(x any) {
	switch x := x.(type) {
	case []float32:
		dropApply(d, x)
	case []float64:
		dropApply(d, x)
	}
}

func dropFill[T float32 | float64](d *dropout, x []T) {
	for i := range x {
		x[i] = T(d.keep())
	}
}

// fill overwrites x with a fresh mask (0 or 1/(1−p)).
func (d *dropout) fill(x any) {
	switch x := x.(type) {
	case []float32:
		dropFill(d, x)
	case []float64:
		dropFill(d, x)
	}
}
