package model

import "github.com/deup-screening/deup/nn"

// dropout draws the inverted-dropout masks of MC-Dropout (nn.Dropout: each
// unit kept with probability 1−p and then scaled by 1/(1−p); the mask is
// an input of the graph, so the backward pass is the mask itself), with
// per-pair reseeding at prediction time.
type dropout struct {
	*nn.Dropout
	p    float64
	seed uint64
	pass uint64 // MC-Dropout prediction pass (mixed into per-pair seeds)
}

func newDropout(p float64, seed uint64) *dropout {
	return &dropout{Dropout: nn.NewDropout(p, seed), p: p, seed: seed}
}

// seedPair reseeds the masks for one pair at prediction time, from the
// unordered pair, the layer and the pass: a pair's masks do not depend on
// which other pairs are predicted with it, nor on the drug order.
func (d *dropout) seedPair(a, b, layer int) {
	if a > b {
		a, b = b, a
	}
	k := uint64(a)<<32 | uint64(b)
	d.Reseed(d.seed^(k*0x9e3779b97f4a7c15), d.pass<<8|uint64(layer))
}

// apply multiplies x by a fresh mask.
func (d *dropout) apply(x any) { d.Apply(x) }

// fill overwrites x with a fresh mask (0 or 1/(1−p)).
func (d *dropout) fill(x any) { d.Fill(x) }

// keepAll sets a mask to 1 everywhere (no unit dropped).
func keepAll(x any) {
	switch d := x.(type) {
	case []float32:
		for i := range d {
			d[i] = 1
		}
	case []float64:
		for i := range d {
			d[i] = 1
		}
	}
}
