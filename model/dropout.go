package model

import "math/rand/v2"

// dropout draws inverted-dropout masks: each unit is kept with probability
// 1−p and then scaled by 1/(1−p), so the expected activation is unchanged
// (gorgonia's Dropout op scales its backward pass by 1/p, and seeds from
// the clock; this one is seeded and the mask is an input of the graph, so
// the backward pass is the mask itself).
type dropout struct {
	p   float64
	rng *rand.Rand
}

func newDropout(p float64, seed uint64) *dropout {
	return &dropout{p: p, rng: rand.New(rand.NewPCG(seed, 0x64726f706f7574))} // "dropout"
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
