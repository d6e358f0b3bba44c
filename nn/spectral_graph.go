package nn

// SpectralNorm is W_sn = W / max(1, sigma/Coeff) for the weight node w
// (sn.In×sn.Out), by the op described on the SpectralNorm type: in
// training mode (sn.Train) each run first advances the power iteration.
func (g *Graph) SpectralNorm(sn *SpectralNorm, w *Node) *Node {
	if !g.ok(w) {
		return nil
	}
	return g.node(applySpectralNorm(sn, w.n))
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
