package model

import (
	"fmt"

	"github.com/deup-screening/deup/nn"
)

// Loss is what a training step minimizes, and so which parameters it
// updates.
type Loss uint8

const (
	LossNLL      Loss = iota // Gaussian NLL, updates every parameter (DEUP in-sample step, NLL ensemble)
	LossNLLSigma             // Gaussian NLL, updates the σ path only (DEUP out-of-sample step)
	LossMSE                  // squared error of μ, updates tower, combined net and μ head
	LossLogSigma             // squared error of log σ against log |μ−y| + logAbsGauss, updates the σ path only (σ refit with SigmaLoss "log")
)

// logAbsGauss is −E[log |z|] for z ~ N(0, 1), (γ + ln 2)/2: the log-σ
// regression's target log |μ−y| + logAbsGauss is unbiased for log σ when
// μ−y ~ N(0, σ²).
const logAbsGauss = 0.6351814227307392

// logSigmaEps is ε of the log-σ regression's target ½ log((μ−y)² + ε²)
// (standardized units): a residual of exactly 0 has a finite target.
const logSigmaEps = 1e-3

// graph is one compiled training step for batches of at most b pairs over
// at most u unique drugs. Inputs are refilled before each run.
type graph struct {
	net   *Network
	kind  Loss
	g     *nn.Graph
	x     *nn.SparseBatch
	u, b  int
	s     *nn.Tensor   // b×u pair-to-drug incidence (1 per drug slot, 2 for a drug paired with itself)
	l     *nn.Tensor   // b×lines one-hot cell line of each pair (nil for a one-line network)
	id    *nn.Tensor   // u×identity rows: one-hot identity vector of each drug slot (nil without Config.Identity)
	y, w  *nn.Tensor   // b×1 standardized targets and loss weights (0 for padding rows)
	bit   *nn.Tensor   // b×(1+side) σ side inputs: the in/out-of-sample bit, then the σ features (σ path only)
	masks []*nn.Tensor // dropout masks after combined layers 1 and 2 (b×CombHidden), nil without dropout
	mu    *nn.Node
	sigma *nn.Node
	// muV and sigmaV receive copies of μ and σ during the forward pass
	// (node values may be overwritten by the backward pass).
	muV, sigmaV nn.Value
	cost        *nn.Node
	nodes       []*nn.Node // aligned with net.params; nil where the param is not in the graph
	train       []int      // indices into net.params that this step updates
	grads       []*nn.Node // gradient nodes, aligned with train
}

// gradShare holds the tensors that all graphs of one trainer share: the
// weight gradients of the tower's two layers (8 MB each at the paper's
// sizes), whose shapes do not depend on the batch. Graphs that share them
// must not run at the same time, and a gradient is valid until the next
// run of any of them.
//
// A trainer fuses them (fuse): each is then computed inside the Adam step
// of its weight, a block of rows at a time, never stored whole (the same
// numbers, tested; 16 MB less written and read back per step).
type gradShare struct {
	t1 nn.SparseGrad
	t2 nn.DenseGrad
}

func (sh *gradShare) fuse() {
	sh.t1.Fuse()
	sh.t2.Fuse()
}

// buildGraph compiles a training step. dropout adds mask inputs after both
// combined layers (MC-Dropout). sh, when not nil, provides the tower's
// weight-gradient tensors (see gradShare).
func (n *Network) buildGraph(u, b int, kind Loss, dropout bool, sh *gradShare) (*graph, error) {
	if kind != LossMSE && !n.sigma {
		return nil, fmt.Errorf("model: NLL loss needs the σ path")
	}
	gr := &graph{net: n, kind: kind, g: nn.NewGraph(n.dt), x: nn.NewSparseBatch(u), u: u, b: b}
	g, dt, cfg := gr.g, n.dt, n.cfg
	gr.nodes = make([]*nn.Node, len(n.params))
	for i, p := range n.params {
		if p.group == groupSigma && kind == LossMSE {
			continue
		}
		gr.nodes[i] = g.Matrix(p.name, p.t)
	}
	P := func(name string) *nn.Node {
		for i, p := range n.params {
			if p.name == name {
				return gr.nodes[i]
			}
		}
		panic("model: no parameter " + name)
	}
	input := func(name string, r, c int) (*nn.Tensor, *nn.Node) {
		t := nn.NewTensor(dt, r, c)
		return t, g.Input(name, t)
	}
	var sN, yN, wN, bitN *nn.Node
	gr.s, sN = input("S", b, u)
	gr.y, yN = input("y", b, 1)
	gr.w, wN = input("w", b, 1)

	if sh == nil {
		sh = &gradShare{}
	}
	// The tower: the kit's sparse first layer, ReLU, and its dense layer
	// (products written into tensors kept between runs; the two weight
	// gradients shared by the trainer's graphs, see gradShare).
	pre := g.SparseMul(gr.x, P("t1.w"), &sh.t1)
	if k := cfg.identityRows(); k > 0 {
		// The identity vectors beside the fingerprint (Config.Identity):
		// a one-hot input per drug slot (a zero row: none) times id.e.
		var idN *nn.Node
		gr.id, idN = input("ID", u, k)
		pre = g.Add(pre, g.Dense(idN, P(IdentityParam), nil))
	}
	h1 := g.ReLU(g.AddBias(pre, P("t1.b")))
	emb := g.AddBias(g.Dense(h1, P("t2.w"), &sh.t2), P("t2.b"))
	// b×TowerOut: summed embeddings of each pair. The tower ran once per
	// distinct drug of the batch (u rows), never once per pair row.
	pe := g.Dense(sN, emb, nil)
	if li := n.cfg.lineInput(); li.On() {
		var Wf *nn.Node
		if li.Features() > 0 {
			Wf = P(LineFeatureParam)
		}
		pe, gr.l = li.AddTo(g, pe, P(LineEmbeddingParam), Wf, b)
	}
	c1 := g.Linear(pe, P("c1.w"), P("c1.b"))
	if cfg.filmOn() {
		// z ⊙ (1 + G_l) (Config.LineFiLM): the pairs' one-hot lines, a
		// second node on the line input's tensor, times the gains.
		lf := g.Input("LF", gr.l)
		c1 = g.Add(c1, g.HadamardProd(c1, g.Dense(lf, P(LineFiLMParam), nil)))
	}
	c1 = g.ReLU(c1)
	if dropout {
		mt, mN := input("mask1", b, cfg.CombHidden)
		gr.masks = append(gr.masks, mt)
		c1 = g.Mask(c1, mN)
	}
	c2 := g.ReLU(g.Linear(c1, P("c2.w"), P("c2.b")))
	if dropout {
		mt, mN := input("mask2", b, cfg.CombHidden)
		gr.masks = append(gr.masks, mt)
		c2 = g.Mask(c2, mN)
	}
	gr.mu = g.Linear(c2, P("mu.w"), P("mu.b"))
	diff := g.Sub(gr.mu, yN)
	var cost *nn.Node
	if kind == LossMSE {
		cost = g.Sum(g.HadamardProd(g.Square(diff), wN))
	} else {
		gr.bit, bitN = input("bit", b, 1+cfg.side)
		s1 := g.Add(g.Dense(pe, P("s1.w"), nil), g.Dense(bitN, P("s1.bit"), nil))
		s1 = g.ReLU(g.AddBias(s1, P("s1.b")))
		s2 := g.ReLU(g.Linear(s1, P("s2.w"), P("s2.b")))
		z := g.Linear(s2, P("sig.w"), P("sig.b"))
		gr.sigma = g.AddConst(g.Softplus(z), cfg.MinSigma)
		if kind == LossLogSigma {
			// (log σ − ½ log((μ−y)² + ε²) − logAbsGauss)²
			t := g.Scale(g.Log(g.AddConst(g.Square(diff), logSigmaEps*logSigmaEps)), 0.5)
			e := g.AddConst(g.Sub(g.Log(gr.sigma), t), -logAbsGauss)
			cost = g.Sum(g.HadamardProd(g.Square(e), wN))
		} else {
			// NLL = log σ + (μ−y)²/(2σ²), constant log √(2π) dropped.
			q := g.HadamardDiv(g.Square(diff), g.Square(gr.sigma))
			nll := g.Add(g.Log(gr.sigma), g.Scale(q, 0.5))
			cost = g.Sum(g.HadamardProd(nll, wN))
		}
	}
	gr.cost = cost
	g.Read(gr.mu, &gr.muV)
	if gr.sigma != nil {
		g.Read(gr.sigma, &gr.sigmaV)
	}
	var wrt []*nn.Node
	for i, p := range n.params {
		if gr.nodes[i] == nil {
			continue
		}
		if (kind == LossNLLSigma || kind == LossLogSigma) && p.group != groupSigma {
			continue
		}
		gr.train = append(gr.train, i)
		wrt = append(wrt, gr.nodes[i])
	}
	gr.grads = g.Grad(cost, wrt...)
	// The gradients are read from the gradient nodes' values, not from
	// dual values bound to the parameters: binding makes gorgonia add each
	// gradient into an accumulator that must then be cleared, two extra
	// passes over every parameter per step.
	if err := g.Compile(); err != nil {
		g.Close()
		return nil, fmt.Errorf("model: building graph: %w", err)
	}
	return gr, nil
}

// grad returns the gradient tensor of the k-th trained parameter
// (gr.train[k]) after a run; it is valid until the next run.
func (gr *graph) grad(k int) (*nn.Tensor, error) {
	t := gr.grads[k].Value()
	if t == nil {
		return nil, fmt.Errorf("model: gradient of %s: no value", gr.net.params[gr.train[k]].name)
	}
	return t, nil
}

// run executes the step on the loaded inputs; grads are valid until the
// next run.
func (gr *graph) run() (float64, error) {
	if err := gr.g.Run(); err != nil {
		return 0, err
	}
	return gr.cost.Scalar()
}

// close releases the machine (see nn.Graph.Close).
func (gr *graph) close() { gr.g.Close() }

// setInputs loads a batch: drugs are the unique drug rows (≤ u), pairs
// reference positions in drugs, y the standardized targets, wt the loss
// weights, bit the in/out bit. Rows beyond len(pairs) get weight 0.
//
// lines holds the cell line of each pair (ignored by a one-line network).
func (gr *graph) setInputs(f *Features, drugs []int, pa, pb, lines []int, y, wt []float64, bit float64) {
	gr.x.Fill(f.csr(), drugs)
	setAll := func(t *nn.Tensor, fn func(i int) float64) {
		switch d := t.Data().(type) {
		case []float32:
			for i := range d {
				d[i] = float32(fn(i))
			}
		case []float64:
			for i := range d {
				d[i] = fn(i)
			}
		}
	}
	u := gr.u
	setAll(gr.s, func(k int) float64 {
		i, j := k/u, k%u
		if i >= len(pa) {
			return 0
		}
		v := 0.0
		if pa[i] == j {
			v++
		}
		if pb[i] == j {
			v++
		}
		return v
	})
	if gr.l != nil {
		FillLines(gr.l, lines, len(lines))
	}
	setAll(gr.y, func(i int) float64 {
		if i < len(y) {
			return y[i]
		}
		return 0
	})
	setAll(gr.w, func(i int) float64 {
		if i < len(wt) {
			return wt[i]
		}
		return 0
	})
	if gr.bit != nil {
		k := 1 + gr.net.cfg.side
		setAll(gr.bit, func(i int) float64 {
			if i%k == 0 {
				return bit
			}
			return 0
		})
	}
}

// setIdentity loads the identity input: slot k of the batch's drugs uses
// identity vector rows[k] (−1: none); padding slots have none.
func (gr *graph) setIdentity(rows []int) {
	if gr.id == nil {
		return
	}
	k := gr.id.Shape()[1]
	switch d := gr.id.Data().(type) {
	case []float32:
		clear(d)
		for s, r := range rows {
			if r >= 0 {
				d[s*k+r] = 1
			}
		}
	case []float64:
		clear(d)
		for s, r := range rows {
			if r >= 0 {
				d[s*k+r] = 1
			}
		}
	}
}

// setSide loads the σ features of the batch's pairs (len(pairs)×side,
// row-major) beside the bit set by setInputs; padding rows stay 0.
func (gr *graph) setSide(side []float64) {
	k := gr.net.cfg.side
	if gr.bit == nil || k == 0 {
		return
	}
	switch d := gr.bit.Data().(type) {
	case []float32:
		for r := 0; r < len(side)/k; r++ {
			for j := range k {
				d[r*(1+k)+1+j] = float32(side[r*k+j])
			}
		}
	case []float64:
		for r := 0; r < len(side)/k; r++ {
			copy(d[r*(1+k)+1:(r+1)*(1+k)], side[r*k:(r+1)*k])
		}
	}
}
