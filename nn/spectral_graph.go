package nn

import (
	"fmt"

	G "gorgonia.org/gorgonia"
)

// SpectralNorm is W_sn = W / max(1, sigma/Coeff) for the weight node w
// (sn.In×sn.Out), by the op described on the SpectralNorm type: in
// training mode (sn.Train) each run first advances the power iteration.
func (g *Graph) SpectralNorm(sn *SpectralNorm, w *Node) *Node {
	if !g.ok(w) {
		return nil
	}
	return g.node(applySpectralNorm(sn, w.n))
}

// SpectralSparseMul is SparseMul(x, SpectralNorm(sn, w)) computed as
// s·(X·W) (s = sn.Scale()), without materializing W_sn, its weight
// gradient written in place: a spectrally normalized sparse first layer
// holding one In×Out tensor besides w (see spectral_fused.go).
func (g *Graph) SpectralSparseMul(x *SparseBatch, sn *SpectralNorm, w *Node) *Node {
	if !g.ok(w) {
		return nil
	}
	if s := w.n.Shape(); len(s) != 2 || s[0] != sn.In || s[1] != sn.Out {
		g.err = fmt.Errorf("nn: spectral sparse product: weight %v, want %d×%d", s, sn.In, sn.Out)
		return nil
	}
	return g.node(G.ApplyOp(&snSparseOp{x: x, sn: sn}, w.n))
}

// SpectralLinear is Linear(x, SpectralNorm(sn, w), b) computed as
// s·(x·W) + b, without materializing W_sn, its weight gradient written in
// place: a spectrally normalized dense layer holding one In×Out tensor
// besides w (see spectral_fused.go).
func (g *Graph) SpectralLinear(x *Node, sn *SpectralNorm, w, b *Node) *Node {
	if !g.ok(x, w) {
		return nil
	}
	if s := w.n.Shape(); len(s) != 2 || s[0] != sn.In || s[1] != sn.Out {
		g.err = fmt.Errorf("nn: spectral linear: weight %v, want %d×%d", s, sn.In, sn.Out)
		return nil
	}
	return g.AddBias(g.node(G.ApplyOp(&snDenseOp{sn: sn}, x.n, w.n)), b)
}

// ExternalLoss is the scalar L(x) of the matrix node x, computed by fn
// outside the graph with its gradient (see ExternalLossFunc); Grad of a
// cost built on it back-propagates fn's gradient into the graph.
func (g *Graph) ExternalLoss(x *Node, fn ExternalLossFunc) *Node {
	if !g.ok(x) {
		return nil
	}
	n, _, err := externalLoss(x.n, fn)
	return g.node(n, err)
}
