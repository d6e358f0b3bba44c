package due

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Sparse is a drug feature matrix in compressed sparse row form, laid out
// like model.Features: row i holds the values Val[RowPtr[i]:RowPtr[i+1]] at
// columns Col[RowPtr[i]:RowPtr[i+1]]; absent entries are 0.
type Sparse struct {
	Dim    int
	RowPtr []int
	Col    []int32
	Val    []float32
}

// NumRows is the number of rows (drugs).
func (s *Sparse) NumRows() int { return len(s.RowPtr) - 1 }

// Validate checks the CSR invariants and finiteness.
func (s *Sparse) Validate() error {
	if s == nil || len(s.RowPtr) == 0 {
		return fmt.Errorf("due: features: empty matrix")
	}
	if s.Dim <= 0 {
		return fmt.Errorf("due: features: dimension %d", s.Dim)
	}
	if s.RowPtr[0] != 0 || s.RowPtr[len(s.RowPtr)-1] != len(s.Col) || len(s.Col) != len(s.Val) {
		return fmt.Errorf("due: features: inconsistent row pointers")
	}
	for i := 0; i < s.NumRows(); i++ {
		if s.RowPtr[i+1] < s.RowPtr[i] {
			return fmt.Errorf("due: features: row %d: decreasing row pointer", i)
		}
		for k := s.RowPtr[i]; k < s.RowPtr[i+1]; k++ {
			if c := s.Col[k]; c < 0 || int(c) >= s.Dim {
				return fmt.Errorf("due: features: row %d: column %d outside [0,%d)", i, c, s.Dim)
			}
			if v := float64(s.Val[k]); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("due: features: row %d column %d: value %v", i, s.Col[k], v)
			}
		}
	}
	return nil
}

// network is the two-tower feature extractor: the single-drug tower
// (sparse dim→TowerHidden, ReLU, →TowerOut), the two drugs' embeddings
// summed, the combined network (TowerOut→CombHidden, ReLU; then a residual
// block r2 = r1 + ReLU(r1 C2 + c2) as in DUE's FCResNet) and a linear map
// to the Embedding-dimensional GP input. Every weight matrix is spectrally
// normalized.
type network struct {
	t1, t2, c1, c2, head *layer
}

func newNetwork(cfg Config, dim int, seed uint64) *network {
	rng := rand.New(rand.NewPCG(seed, 0x6475655f6e6574)) // "due_net"
	c := cfg.Coeff
	return &network{
		t1:   newLayer(dim, cfg.TowerHidden, c, rng),
		t2:   newLayer(cfg.TowerHidden, cfg.TowerOut, c, rng),
		c1:   newLayer(cfg.TowerOut, cfg.CombHidden, c, rng),
		c2:   newLayer(cfg.CombHidden, cfg.CombHidden, c, rng),
		head: newLayer(cfg.CombHidden, cfg.Embedding, c, rng),
	}
}

func (n *network) layers() []*layer { return []*layer{n.t1, n.t2, n.c1, n.c2, n.head} }

// pass holds one forward pass's activations for backward.
type pass struct {
	drugs  []int // feature rows of the unique drugs
	pa, pb []int // per pair: positions in drugs
	z1, h1 []float64
	emb    []float64
	pe     []float64
	a1, r1 []float64
	a2, r2 []float64
	f      []float64 // pairs×Embedding
}

// forward runs the network on pairs (pa[i], pb[i]) of positions into
// drugs. train runs one power iteration per layer first (training mode);
// otherwise the stored estimates are used. It returns the pass (features
// in p.f).
func (n *network) forward(X *Sparse, drugs, pa, pb []int, train bool, iters int) *pass {
	for _, l := range n.layers() {
		if train {
			l.powerIterate(iters)
		} else {
			l.updateSigma()
		}
	}
	return n.run(X, drugs, pa, pb)
}

// run is forward with the current normalization scales.
func (n *network) run(X *Sparse, drugs, pa, pb []int) *pass {
	u, b := len(drugs), len(pa)
	th, to, ch := n.t1.out, n.t2.out, n.c1.out
	p := &pass{drugs: drugs, pa: pa, pb: pb,
		z1: make([]float64, u*th), h1: make([]float64, u*th), emb: make([]float64, u*to),
		pe: make([]float64, b*to), a1: make([]float64, b*ch), r1: make([]float64, b*ch),
		a2: make([]float64, b*ch), r2: make([]float64, b*ch), f: make([]float64, b*n.head.out)}
	// Sparse first layer.
	t1 := n.t1
	for i, r := range drugs {
		z := p.z1[i*th : (i+1)*th]
		for k := X.RowPtr[r]; k < X.RowPtr[r+1]; k++ {
			a := t1.scale * float64(X.Val[k])
			w := t1.w[int(X.Col[k])*th : (int(X.Col[k])+1)*th]
			for j, wv := range w {
				z[j] += a * wv
			}
		}
		for j := range z {
			z[j] += t1.b[j]
		}
	}
	reluTo(p.h1, p.z1)
	n.t2.forward(p.h1, u, p.emb)
	for i := 0; i < b; i++ {
		dst := p.pe[i*to : (i+1)*to]
		ea, eb := p.emb[pa[i]*to:(pa[i]+1)*to], p.emb[pb[i]*to:(pb[i]+1)*to]
		for j := range dst {
			dst[j] = ea[j] + eb[j]
		}
	}
	n.c1.forward(p.pe, b, p.a1)
	reluTo(p.r1, p.a1)
	n.c2.forward(p.r1, b, p.a2)
	reluTo(p.r2, p.a2)
	for j := range p.r2 {
		p.r2[j] += p.r1[j]
	}
	n.head.forward(p.r2, b, p.f)
	return p
}

// backward accumulates parameter gradients (with respect to W, after the
// spectral-normalization chain rule) given dF, the loss gradient with
// respect to p.f. Gradients are zeroed first.
func (n *network) backward(X *Sparse, p *pass, dF []float64) {
	for _, l := range n.layers() {
		l.zeroGrad()
	}
	u, b := len(p.drugs), len(p.pa)
	th, to, ch := n.t1.out, n.t2.out, n.c1.out
	dR2 := make([]float64, b*ch)
	n.head.backward(p.r2, b, dF, dR2)
	dA2 := make([]float64, b*ch)
	for j, g := range dR2 {
		if p.a2[j] > 0 {
			dA2[j] = g
		}
	}
	dR1 := make([]float64, b*ch)
	n.c2.backward(p.r1, b, dA2, dR1)
	for j := range dR1 {
		dR1[j] += dR2[j]
		if p.a1[j] <= 0 {
			dR1[j] = 0 // now dA1
		}
	}
	dPE := make([]float64, b*to)
	n.c1.backward(p.pe, b, dR1, dPE)
	dEmb := make([]float64, u*to)
	for i := 0; i < b; i++ {
		src := dPE[i*to : (i+1)*to]
		da, db := dEmb[p.pa[i]*to:(p.pa[i]+1)*to], dEmb[p.pb[i]*to:(p.pb[i]+1)*to]
		for j, g := range src {
			da[j] += g
			db[j] += g
		}
	}
	dH1 := make([]float64, u*th)
	n.t2.backward(p.h1, u, dEmb, dH1)
	t1 := n.t1
	for i, r := range p.drugs {
		dz := dH1[i*th : (i+1)*th]
		for j := range dz {
			if p.z1[i*th+j] <= 0 {
				dz[j] = 0
			}
			t1.gb[j] += dz[j]
		}
		for k := X.RowPtr[r]; k < X.RowPtr[r+1]; k++ {
			a := float64(X.Val[k])
			g := t1.gw[int(X.Col[k])*th : (int(X.Col[k])+1)*th]
			for j, d := range dz {
				g[j] += a * d
			}
		}
	}
	for _, l := range n.layers() {
		l.finishSN()
	}
}

func (n *network) step(lr, wd float64) {
	for _, l := range n.layers() {
		l.step(lr, wd)
	}
}

// snapshot copies the weights, biases and power-iteration vectors into
// s, reusing its buffers when an earlier call filled it (a new 34 MB copy
// at every improving epoch was garbage that raised the training's peak).
func (n *network) snapshot(s [][]float64) [][]float64 {
	ls := n.layers()
	if len(s) != 4*len(ls) {
		s = make([][]float64, 4*len(ls))
	}
	for i, l := range ls {
		s[4*i] = append(s[4*i][:0], l.w...)
		s[4*i+1] = append(s[4*i+1][:0], l.b...)
		s[4*i+2] = append(s[4*i+2][:0], l.u...)
		s[4*i+3] = append(s[4*i+3][:0], l.v...)
	}
	return s
}

func (n *network) restore(s [][]float64) {
	for i, l := range n.layers() {
		copy(l.w, s[4*i])
		copy(l.b, s[4*i+1])
		copy(l.u, s[4*i+2])
		copy(l.v, s[4*i+3])
		l.updateSigma()
	}
}

func reluTo(dst, src []float64) {
	for i, v := range src {
		if v > 0 {
			dst[i] = v
		} else {
			dst[i] = 0
		}
	}
}
