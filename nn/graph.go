package nn

import (
	"fmt"
	"slices"
	"sync"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// buildMu serializes graph construction: gorgonia's graph building is not
// safe to run concurrently (shared internal state), running finished
// graphs concurrently is.
var buildMu sync.Mutex

// Graph builds and runs one gorgonia expression graph (a training step:
// forward pass, loss, gradients by gorgonia's symbolic differentiation).
// Build it with the node methods, which record the first error (Err) and
// return nil after it, then call Grad once and Compile; Run executes the
// whole program. Inputs are tensors bound to nodes (Matrix, Input) that
// the caller refills between runs; every op of the kit writes into
// tensors it keeps, so a run allocates little.
//
// Building holds a package-wide lock (gorgonia's graph construction is not
// safe for concurrent use) from NewGraph until Compile or Close; running
// compiled graphs concurrently is safe.
type Graph struct {
	g      *G.ExprGraph
	dt     DType
	err    error
	locked bool
	inputs map[*G.Node]bool // nodes added by Input (no gradient needed)
	reads  []read

	// The compiled program (see Compile): vals[i] is the value of the
	// i-th node in topological order; prog runs the non-leaf nodes.
	slot map[*G.Node]int
	vals []G.Value
	prog []instr
	args []G.Value // scratch of Run
}

// instr computes vals[out] = op.Do(vals[in]...).
type instr struct {
	op  G.Op
	in  []int
	out int
}

// read copies a node's value into a Value after a run.
type read struct {
	n   *G.Node
	dst *Value
}

// Node is a node of a Graph.
type Node struct {
	n *G.Node
	g *Graph
}

// NewGraph starts a graph of the given element type.
func NewGraph(dt DType) *Graph {
	buildMu.Lock()
	return &Graph{g: G.NewGraph(), dt: dt, locked: true, inputs: map[*G.Node]bool{}}
}

// DType is the graph's element type.
func (g *Graph) DType() DType { return g.dt }

// Err is the first error of the graph's construction.
func (g *Graph) Err() error { return g.err }

func (g *Graph) node(n *G.Node, err error) *Node {
	if err != nil {
		if g.err == nil {
			g.err = err
		}
		return nil
	}
	return &Node{n, g}
}

// ok reports whether construction can go on with the given nodes.
func (g *Graph) ok(ns ...*Node) bool {
	if g.err != nil {
		return false
	}
	for _, n := range ns {
		if n == nil {
			g.err = fmt.Errorf("nn: nil node")
			return false
		}
	}
	return true
}

// Matrix adds a matrix bound to t (a parameter or an input that the
// caller refills between runs; the graph reads t, never replaces it).
func (g *Graph) Matrix(name string, t *Tensor) *Node {
	if !g.ok() {
		return nil
	}
	s := t.Shape()
	if len(s) != 2 {
		g.err = fmt.Errorf("nn: matrix %s of shape %v", name, s)
		return nil
	}
	return &Node{G.NewMatrix(g.g, g.dt.gorgonia(), G.WithShape(s[0], s[1]), G.WithValue(t), G.WithName(name)), g}
}

// Input is Matrix for a data input (features, targets, weights, masks):
// products with it do not compute its gradient.
func (g *Graph) Input(name string, t *Tensor) *Node {
	n := g.Matrix(name, t)
	if n != nil {
		g.inputs[n.n] = true
	}
	return n
}

// Mask is x ⊙ m for a mask input m (dropout; see Dropout).
func (g *Graph) Mask(x, m *Node) *Node {
	if !g.ok(x, m) {
		return nil
	}
	return g.node(G.ApplyOp(&maskOp{}, x.n, m.n))
}

// SparseMul is X·W for the sparse batch x (x.Rows()×in) and the weight w
// (in×out): nnz·out multiply-adds. Its weight gradient is Xᵀ·G (written
// into grad, which graphs that never run at the same time may share; nil:
// its own).
func (g *Graph) SparseMul(x *SparseBatch, w *Node, grad *SparseGrad) *Node {
	if !g.ok(w) {
		return nil
	}
	s := w.n.Shape()
	return g.node(G.ApplyOp(&sparseMulOp{x: x, in: s[0], out: s[1], grad: grad}, w.n))
}

// Dense is the matrix product a·b through the kit's GEMM, in tensors kept
// between runs; the gradient of b (Aᵀ·G) is written into grad when not nil
// (see DenseGrad).
func (g *Graph) Dense(a, b *Node, grad *DenseGrad) *Node {
	if !g.ok(a, b) {
		return nil
	}
	return g.node(G.ApplyOp(&denseOp{wgrad: grad, constA: g.inputs[a.n]}, a.n, b.n))
}

// Linear is x·w + b (b a 1×out row added to every row), with the kit's
// GEMM and bias ops.
func (g *Graph) Linear(x, w, b *Node) *Node {
	return g.AddBias(g.Dense(x, w, nil), b)
}

// AddBias adds the 1×c row b to every row of x.
func (g *Graph) AddBias(x, b *Node) *Node {
	if !g.ok(x, b) {
		return nil
	}
	return g.node(G.ApplyOp(&biasOp{}, x.n, b.n))
}

// ReLU is max(x, 0) in the kit's op (x·[x ≥ 0], so −0 for negative x).
func (g *Graph) ReLU(x *Node) *Node {
	if !g.ok(x) {
		return nil
	}
	return g.node(G.ApplyOp(&reluOp{}, x.n))
}

// Softplus is log(1+eˣ) (numerically stable), in the kit's op.
func (g *Graph) Softplus(x *Node) *Node {
	if !g.ok(x) {
		return nil
	}
	return g.node(G.ApplyOp(&softplusOp{}, x.n))
}

// Mul is gorgonia's matrix product a·b (fresh output tensors every run;
// Dense keeps them).
func (g *Graph) Mul(a, b *Node) *Node {
	if !g.ok(a, b) {
		return nil
	}
	return g.node(G.Mul(a.n, b.n))
}

// Add is a+b (same shapes).
func (g *Graph) Add(a, b *Node) *Node {
	if !g.ok(a, b) {
		return nil
	}
	return g.node(G.Add(a.n, b.n))
}

// Sub is a−b (same shapes).
func (g *Graph) Sub(a, b *Node) *Node {
	if !g.ok(a, b) {
		return nil
	}
	return g.node(G.Sub(a.n, b.n))
}

// HadamardProd is a⊙b (same shapes).
func (g *Graph) HadamardProd(a, b *Node) *Node {
	if !g.ok(a, b) {
		return nil
	}
	return g.node(G.HadamardProd(a.n, b.n))
}

// HadamardDiv is a⊘b (same shapes).
func (g *Graph) HadamardDiv(a, b *Node) *Node {
	if !g.ok(a, b) {
		return nil
	}
	return g.node(G.HadamardDiv(a.n, b.n))
}

// Square is x⊙x.
func (g *Graph) Square(x *Node) *Node {
	if !g.ok(x) {
		return nil
	}
	return g.node(G.Square(x.n))
}

// Log is the elementwise natural logarithm.
func (g *Graph) Log(x *Node) *Node {
	if !g.ok(x) {
		return nil
	}
	return g.node(G.Log(x.n))
}

// Sum is the sum of every element (a scalar).
func (g *Graph) Sum(x *Node) *Node {
	if !g.ok(x) {
		return nil
	}
	return g.node(G.Sum(x.n))
}

// Scale is c·x for the constant c.
func (g *Graph) Scale(x *Node, c float64) *Node {
	if !g.ok(x) {
		return nil
	}
	return g.node(G.Mul(x.n, g.constant(c)))
}

// AddConst is x + c for the constant c.
func (g *Graph) AddConst(x *Node, c float64) *Node {
	if !g.ok(x) {
		return nil
	}
	return g.node(G.Add(x.n, g.constant(c)))
}

func (g *Graph) constant(c float64) *G.Node {
	if g.dt == Float64 {
		return G.NewConstant(c)
	}
	return G.NewConstant(float32(c))
}

// Loss is the weighted loss of the n×c output out against target
// (n×c for MSE and CrossEntropy, n×1 for GaussianNLL) with row or cell
// weights w (n×c for MSE, n×1 otherwise): a scalar, the weighted SUM (the
// caller divides, or scales the weights). One op forward and one backward.
func (g *Graph) Loss(kind Loss, out, target, w *Node) *Node {
	if !g.ok(out, target, w) {
		return nil
	}
	return g.node(G.ApplyOp(&lossOp{kind: kind}, out.n, target.n, w.n))
}

// Read makes Run copy x's value into *dst (values of nodes may be
// overwritten by later ops of the next run). Call before Compile.
func (g *Graph) Read(x *Node, dst *Value) {
	if !g.ok(x) {
		return
	}
	g.reads = append(g.reads, read{x.n, dst})
}

// Value receives a node's value (see Read).
type Value struct{ t *Tensor }

// Tensor is the value read (a copy the Value owns), or nil before the
// first run.
func (v *Value) Tensor() *Tensor { return v.t }

func (v *Value) set(x G.Value) error {
	t, ok := x.(*Tensor)
	if !ok {
		return fmt.Errorf("nn: read of a %T", x)
	}
	if v.t == nil || !v.t.Shape().Eq(t.Shape()) || v.t.Dtype() != t.Dtype() {
		v.t = t.Clone().(*Tensor)
		return nil
	}
	return tensor.Copy(v.t, t)
}

// Grad adds the gradient of the scalar cost with respect to each of wrt
// (gorgonia's symbolic differentiation) and returns their nodes (read
// after Run with Node.Value). Gradients are read from these nodes, not
// accumulated into dual values (which would need clearing every step).
func (g *Graph) Grad(cost *Node, wrt ...*Node) []*Node {
	if !g.ok(cost) || !g.ok(wrt...) {
		return nil
	}
	ws := make(G.Nodes, len(wrt))
	for i, w := range wrt {
		ws[i] = w.n
	}
	gs, err := G.Grad(cost.n, ws...)
	if err != nil {
		g.err = fmt.Errorf("nn: gradient: %w", err)
		return nil
	}
	out := make([]*Node, len(gs))
	for i, n := range gs {
		out[i] = &Node{n, g}
	}
	return out
}

// Compile fixes the program and releases the construction lock; it
// returns the first construction error.
//
// The program is gorgonia's graph in topological order (gorgonia.Sort),
// each op called in turn on its children's values. Run executes it
// itself rather than through gorgonia's TapeMachine, whose RunAll locks
// the OS thread and hands every run to a new goroutine through channels:
// two thread wake-ups per run, which cost more than all the arithmetic of
// a small network's step (and far more on a busy machine). The kit's ops
// keep their output tensors; gorgonia's own ops (Add, Square, …) allocate
// theirs on each run.
func (g *Graph) Compile() error {
	defer g.unlock()
	if g.err != nil {
		return g.err
	}
	sorted, err := G.Sort(g.g)
	if err != nil {
		return fmt.Errorf("nn: sorting graph: %w", err)
	}
	slices.Reverse(sorted) // leaves first
	g.slot = make(map[*G.Node]int, len(sorted))
	g.vals = make([]G.Value, len(sorted))
	for i, n := range sorted {
		g.slot[n] = i
		it := g.g.From(n.ID())
		if it == nil || it.Len() == 0 {
			if g.vals[i] = n.Value(); g.vals[i] == nil {
				return fmt.Errorf("nn: node %s has neither inputs nor a value", n.Name())
			}
			continue
		}
		in := make([]int, 0, it.Len())
		for it.Next() {
			c := it.Node().(*G.Node)
			j, ok := g.slot[c]
			if !ok {
				return fmt.Errorf("nn: node %s: input %s not sorted before it", n.Name(), c.Name())
			}
			in = append(in, j)
		}
		g.prog = append(g.prog, instr{op: n.Op(), in: in, out: i})
	}
	for _, r := range g.reads {
		if _, ok := g.slot[r.n]; !ok {
			return fmt.Errorf("nn: read of a node not in the graph")
		}
	}
	return nil
}

func (g *Graph) unlock() {
	if g.locked {
		g.locked = false
		buildMu.Unlock()
	}
}

// Run executes the compiled graph once.
func (g *Graph) Run() error {
	if g.vals == nil {
		return fmt.Errorf("nn: graph not compiled")
	}
	for _, p := range g.prog {
		args := g.args[:0]
		for _, j := range p.in {
			args = append(args, g.vals[j])
		}
		g.args = args
		v, err := p.op.Do(args...)
		if err != nil {
			return fmt.Errorf("nn: running graph: %v: %w", p.op, err)
		}
		g.vals[p.out] = v
	}
	clear(g.args)
	for _, r := range g.reads {
		if err := r.dst.set(g.vals[g.slot[r.n]]); err != nil {
			return err
		}
	}
	return nil
}

// Close releases the program and the graph (and the construction lock if
// Compile was not called); the bound tensors stay with their owners.
func (g *Graph) Close() {
	g.unlock()
	g.g, g.slot, g.vals, g.prog, g.args, g.reads, g.inputs = nil, nil, nil, nil, nil, nil, nil
}

// Value is the node's value after a run (nil before), valid until the
// next run.
func (n *Node) Value() *Tensor {
	t, _ := n.value().(*Tensor)
	return t
}

func (n *Node) value() G.Value {
	if i, ok := n.g.slot[n.n]; ok {
		return n.g.vals[i]
	}
	return n.n.Value()
}

// Scalar is the value of a scalar node after a run.
func (n *Node) Scalar() (float64, error) {
	v := n.value()
	if v == nil {
		return 0, fmt.Errorf("nn: %s: no value", n.n.Name())
	}
	switch c := v.Data().(type) {
	case float32:
		return float64(c), nil
	case float64:
		return c, nil
	}
	return 0, fmt.Errorf("nn: %s: value of type %T", n.n.Name(), v.Data())
}
