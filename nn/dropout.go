package nn

import (
	"math/rand/v2"

	"github.com/deup-screening/deup/internal/streams"
)

// Dropout draws inverted-dropout masks: each unit is kept with
// probability 1−p and then scaled by 1/(1−p), so the expected activation
// is unchanged. The masks are graph inputs (Graph.Mask), so the backward
// pass is the mask itself, and every draw comes from the seeded stream
// (gorgonia's Dropout op seeds from the clock).
type Dropout struct {
	p   float64
	pcg *rand.PCG
	rng *rand.Rand
}

// NewDropout returns masks of drop probability p in [0, 1) drawn from a
// PCG stream seeded from seed.
func NewDropout(p float64, seed uint64) *Dropout {
	pcg := rand.NewPCG(seed, streams.Dropout)
	return &Dropout{p: p, pcg: pcg, rng: rand.New(pcg)}
}

// P is the drop probability.
func (d *Dropout) P() float64 { return d.p }

// Reseed restarts the stream at the PCG state (seed, seq): for masks
// that must not depend on what was drawn before (per-pair masks).
func (d *Dropout) Reseed(seed, seq uint64) { d.pcg.Seed(seed, seq) }

// Keep draws one mask value: 0 or 1/(1−p).
func (d *Dropout) Keep() float64 { return keep(d.rng, d.p) }

func keep(rng *rand.Rand, p float64) float64 {
	if rng.Float64() < p {
		return 0
	}
	return 1 / (1 - p)
}

// Fill overwrites x ([]float32 or []float64) with a fresh mask.
func (d *Dropout) Fill(x any) {
	switch x := x.(type) {
	case []float32:
		// Keep's draws and values, drawn from the PCG directly (as
		// rand.Rand.Float64 does) and the scale computed once: a small
		// network's masks cost as much as its products otherwise.
		p, scale := d.p, float32(1/(1-d.p))
		for i := range x {
			m := scale
			if float64(d.pcg.Uint64()<<11>>11)/(1<<53) < p {
				m = 0
			}
			x[i] = m
		}
	case []float64:
		for i := range x {
			x[i] = d.Keep()
		}
	}
}

// Apply multiplies x ([]float32 or []float64) by a fresh mask.
func (d *Dropout) Apply(x any) {
	switch x := x.(type) {
	case []float32:
		for i := range x {
			x[i] *= float32(d.Keep())
		}
	case []float64:
		for i := range x {
			x[i] *= d.Keep()
		}
	}
}
