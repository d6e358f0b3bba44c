package model

import (
	"fmt"
	"runtime"
	"sync"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// buildMu serializes graph construction: gorgonia's graph building is not
// safe to run concurrently (shared internal state), running finished
// machines concurrently is.
var buildMu sync.Mutex

type lossKind uint8

const (
	lossNLL      lossKind = iota // Gaussian NLL, updates every parameter (DEUP in-sample step, NLL ensemble)
	lossNLLSigma                 // Gaussian NLL, updates the σ path only (DEUP out-of-sample step)
	lossMSE                      // squared error of μ, updates tower, combined net and μ head
)

// graph is one compiled training step for batches of at most b pairs over
// at most u unique drugs. Inputs are refilled before each run.
type graph struct {
	net   *network
	kind  lossKind
	g     *G.ExprGraph
	vm    G.VM
	x     *sparseBatch
	u, b  int
	s     *tensor.Dense   // b×u pair-to-drug incidence (1 per drug slot, 2 for a drug paired with itself)
	y, w  *tensor.Dense   // b×1 standardized targets and loss weights (0 for padding rows)
	bit   *tensor.Dense   // b×(1+side) σ side inputs: the in/out-of-sample bit, then the σ features (σ path only)
	masks []*tensor.Dense // dropout masks after combined layers 1 and 2 (b×CombHidden), nil without dropout
	mu    *G.Node
	sigma *G.Node
	// muV and sigmaV receive copies of μ and σ during the forward pass
	// (node values may be overwritten by the backward pass).
	muV, sigmaV G.Value
	cost        *G.Node
	nodes       []*G.Node // aligned with net.params; nil where the param is not in the graph
	train       []int     // indices into net.params that this step updates
	grads       []*G.Node // gradient nodes, aligned with train
}

// gb accumulates the first error of a chain of gorgonia calls.
type gb struct{ err error }

func (b *gb) do(n *G.Node, err error) *G.Node {
	if b.err == nil && err != nil {
		b.err = err
	}
	return n
}

func (b *gb) linear(x, w, bias *G.Node) *G.Node {
	if b.err != nil {
		return nil
	}
	y := b.do(G.Mul(x, w))
	if b.err != nil {
		return nil
	}
	return b.do(G.BroadcastAdd(y, bias, nil, []byte{0}))
}

func (b *gb) relu(x *G.Node) *G.Node {
	if b.err != nil {
		return nil
	}
	return b.do(G.Rectify(x))
}

func scalar(dt tensor.Dtype, v float64) any {
	if dt == tensor.Float32 {
		return float32(v)
	}
	return v
}

// gradShare holds the tensors that all graphs of one trainer share: the
// weight gradients of the tower's two layers (8 MB each at the paper's
// sizes), whose shapes do not depend on the batch. Graphs that share them
// must not run at the same time, and a gradient is valid until the next
// run of any of them.
type gradShare struct {
	t1 tmulState
	t2 sharedTensor
}

// buildGraph compiles a training step. dropout adds mask inputs after both
// combined layers (MC-Dropout). sh, when not nil, provides the tower's
// weight-gradient tensors (see gradShare).
func (n *network) buildGraph(u, b int, kind lossKind, dropout bool, sh *gradShare) (*graph, error) {
	if kind != lossMSE && !n.sigma {
		return nil, fmt.Errorf("model: NLL loss needs the σ path")
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	gr := &graph{net: n, kind: kind, g: G.NewGraph(), x: &sparseBatch{rows: u}, u: u, b: b}
	g, dt, cfg := gr.g, n.dt, n.cfg
	gr.nodes = make([]*G.Node, len(n.params))
	for i, p := range n.params {
		if p.group == groupSigma && kind == lossMSE {
			continue
		}
		gr.nodes[i] = G.NewMatrix(g, dt, G.WithShape(p.rows, p.cols), G.WithValue(p.t), G.WithName(p.name))
	}
	P := func(name string) *G.Node {
		for i, p := range n.params {
			if p.name == name {
				return gr.nodes[i]
			}
		}
		panic("model: no parameter " + name)
	}
	input := func(name string, r, c int) (*tensor.Dense, *G.Node) {
		t := tensor.New(tensor.WithShape(r, c), tensor.Of(dt))
		return t, G.NewMatrix(g, dt, G.WithShape(r, c), G.WithValue(t), G.WithName(name))
	}
	var sN, yN, wN, bitN *G.Node
	gr.s, sN = input("S", b, u)
	gr.y, yN = input("y", b, 1)
	gr.w, wN = input("w", b, 1)

	var bl gb
	if sh == nil {
		sh = &gradShare{}
	}
	h1 := bl.do(G.ApplyOp(&sparseMulOp{x: gr.x, in: n.dim, out: cfg.TowerHidden, grad: &sh.t1}, P("t1.w")))
	if bl.err == nil {
		h1 = bl.do(G.BroadcastAdd(h1, P("t1.b"), nil, []byte{0}))
	}
	if bl.err == nil {
		h1 = bl.do(G.ApplyOp(&reluOp{}, h1)) // Rectify, in tensors kept between runs
	}
	// The tower's second layer: a denseOp, so its products write into
	// tensors kept between runs (see denseOp).
	var emb *G.Node
	if bl.err == nil {
		y := bl.do(G.ApplyOp(&denseOp{wgrad: &sh.t2}, h1, P("t2.w")))
		if bl.err == nil {
			emb = bl.do(G.BroadcastAdd(y, P("t2.b"), nil, []byte{0}))
		}
	}
	var pe *G.Node
	if bl.err == nil {
		pe = bl.do(G.Mul(sN, emb)) // b×TowerOut: summed embeddings of each pair
	}
	c1 := bl.relu(bl.linear(pe, P("c1.w"), P("c1.b")))
	if dropout && bl.err == nil {
		var mN *G.Node
		var mt *tensor.Dense
		mt, mN = input("mask1", b, cfg.CombHidden)
		gr.masks = append(gr.masks, mt)
		c1 = bl.do(G.HadamardProd(c1, mN))
	}
	c2 := bl.relu(bl.linear(c1, P("c2.w"), P("c2.b")))
	if dropout && bl.err == nil {
		var mN *G.Node
		var mt *tensor.Dense
		mt, mN = input("mask2", b, cfg.CombHidden)
		gr.masks = append(gr.masks, mt)
		c2 = bl.do(G.HadamardProd(c2, mN))
	}
	gr.mu = bl.linear(c2, P("mu.w"), P("mu.b"))
	var cost *G.Node
	if bl.err != nil {
		return nil, fmt.Errorf("model: building graph: %w", bl.err)
	}
	diff := bl.do(G.Sub(gr.mu, yN))
	if kind == lossMSE {
		cost = bl.do(G.Sum(bl.do(G.HadamardProd(bl.do(G.Square(diff)), wN))))
	} else {
		gr.bit, bitN = input("bit", b, 1+cfg.side)
		s1 := bl.do(G.Mul(pe, P("s1.w")))
		if bl.err == nil {
			s1 = bl.do(G.Add(s1, bl.do(G.Mul(bitN, P("s1.bit")))))
		}
		if bl.err == nil {
			s1 = bl.relu(bl.do(G.BroadcastAdd(s1, P("s1.b"), nil, []byte{0})))
		}
		s2 := bl.relu(bl.linear(s1, P("s2.w"), P("s2.b")))
		z := bl.linear(s2, P("sig.w"), P("sig.b"))
		if bl.err == nil {
			gr.sigma = bl.do(G.Add(bl.do(G.Softplus(z)), G.NewConstant(scalar(dt, cfg.MinSigma))))
		}
		if bl.err == nil {
			// NLL = log σ + (μ−y)²/(2σ²), constant log √(2π) dropped.
			q := bl.do(G.HadamardDiv(bl.do(G.Square(diff)), bl.do(G.Square(gr.sigma))))
			nll := bl.do(G.Add(bl.do(G.Log(gr.sigma)), bl.do(G.Mul(q, G.NewConstant(scalar(dt, 0.5))))))
			cost = bl.do(G.Sum(bl.do(G.HadamardProd(nll, wN))))
		}
	}
	if bl.err != nil {
		return nil, fmt.Errorf("model: building graph: %w", bl.err)
	}
	gr.cost = cost
	G.Read(gr.mu, &gr.muV)
	if gr.sigma != nil {
		G.Read(gr.sigma, &gr.sigmaV)
	}
	var wrt []*G.Node
	for i, p := range n.params {
		if gr.nodes[i] == nil {
			continue
		}
		if kind == lossNLLSigma && p.group != groupSigma {
			continue
		}
		gr.train = append(gr.train, i)
		wrt = append(wrt, gr.nodes[i])
	}
	grads, err := G.Grad(cost, wrt...)
	if err != nil {
		return nil, fmt.Errorf("model: building gradient: %w", err)
	}
	gr.grads = grads
	// The gradients are read from the gradient nodes' values, not from
	// dual values bound to the parameters: binding makes gorgonia add each
	// gradient into an accumulator that must then be cleared, two extra
	// passes over every parameter per step.
	gr.vm = G.NewTapeMachine(g)
	return gr, nil
}

// grad returns the gradient tensor of the k-th trained parameter
// (gr.train[k]) after a run; it is valid until the next run.
func (gr *graph) grad(k int) (*tensor.Dense, error) {
	i := gr.train[k]
	v := gr.grads[k].Value()
	if v == nil {
		return nil, fmt.Errorf("model: gradient of %s: no value", gr.net.params[i].name)
	}
	t, ok := v.(*tensor.Dense)
	if !ok {
		return nil, fmt.Errorf("model: gradient of %s: unexpected %T", gr.net.params[i].name, v)
	}
	return t, nil
}

// run executes the step on the loaded inputs; grads are valid until the
// next run.
func (gr *graph) run() (float64, error) {
	gr.vm.Reset()
	if err := gr.vm.RunAll(); err != nil {
		return 0, fmt.Errorf("model: running graph: %w", err)
	}
	switch c := gr.cost.Value().Data().(type) {
	case float32:
		return float64(c), nil
	case float64:
		return c, nil
	}
	return 0, fmt.Errorf("model: cost of type %T", gr.cost.Value().Data())
}

// close releases the machine. gorgonia sets a finalizer on every
// TapeMachine, and the machine sits in a reference cycle (machine →
// program → graph → nodes → machine state), which the Go runtime never
// collects when one of its objects has a finalizer: without clearing it,
// every graph of every training, with its gradient tensors, stayed in
// memory for the life of the process.
func (gr *graph) close() {
	gr.vm.Close()
	runtime.SetFinalizer(gr.vm, nil)
	gr.vm = nil
}

// setInputs loads a batch: drugs are the unique drug rows (≤ u), pairs
// reference positions in drugs, y the standardized targets, wt the loss
// weights, bit the in/out bit. Rows beyond len(pairs) get weight 0.
func (gr *graph) setInputs(f *Features, drugs []int, pa, pb []int, y, wt []float64, bit float64) {
	gr.x.fill(f, drugs)
	setAll := func(t *tensor.Dense, fn func(i int) float64) {
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
