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

// SpectralSparseMul is SparseMul(x, SpectralNorm(sn, w), grad): a
// spectrally normalized sparse first layer. The weight gradient is
// written into W_sn's tensor (the sparse product's backward pass does not
// read W_sn), so the layer holds two In×Out tensors besides w instead of
// three.
func (g *Graph) SpectralSparseMul(x *SparseBatch, sn *SpectralNorm, w *Node, grad *SparseGrad) *Node {
	return g.SparseMul(x, g.spectral(sn, w, gradForward), grad)
}

// SpectralLinear is Linear(x, SpectralNorm(sn, w), b): a spectrally
// normalized dense layer. The weight gradient is computed in place in the
// product's gradient Aᵀ·G (which nothing else reads), so the layer holds
// two In×Out tensors besides w instead of three.
func (g *Graph) SpectralLinear(x *Node, sn *SpectralNorm, w, b *Node) *Node {
	return g.AddBias(g.Dense(x, g.spectral(sn, w, gradInPlace), nil), b)
}

func (g *Graph) spectral(sn *SpectralNorm, w *Node, into gradTarget) *Node {
	if !g.ok(w) {
		return nil
	}
	n, err := applySpectralNorm(sn, w.n)
	if err == nil {
		n.Op().(*spectralOp).into = into
	}
	return g.node(n, err)
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
