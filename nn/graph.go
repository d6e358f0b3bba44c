package nn

import (
	"fmt"
	"runtime"
	"sync"

	G "gorgonia.org/gorgonia"
)

// buildMu serializes graph construction: gorgonia's graph building is not
// safe to run concurrently (shared internal state), running finished
// machines concurrently is.
var buildMu sync.Mutex

// Graph builds and runs one compiled gorgonia expression graph (a training
// step: forward pass, loss, gradients). Build it with the node methods,
// which record the first error (Err) and return nil after it, then call
// Grad once and Compile; Run executes the whole tape. Inputs are tensors
// bound to nodes (Matrix) that the caller refills between runs; every
// op of the kit writes into tensors it keeps, so a run allocates little.
//
// Building holds a package-wide lock (gorgonia's graph construction is not
// safe for concurrent use) from NewGraph until Compile or Close; running
// compiled graphs concurrently is safe.
type Graph struct {
	g      *G.ExprGraph
	dt     DType
	vm     G.VM
	err    error
	locked bool
	inputs map[*G.Node]bool // nodes added by Input (no gradient needed)
}

// Node is a node of a Graph.
type Node struct{ n *G.Node }

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
	return &Node{n}
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
	return &Node{G.NewMatrix(g.g, g.dt.gorgonia(), G.WithShape(s[0], s[1]), G.WithValue(t), G.WithName(name))}
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

// Read makes the graph copy x's value into *dst during the forward pass
// (node values may be overwritten by the backward pass). Call before
// Compile.
func (g *Graph) Read(x *Node, dst *Value) {
	if !g.ok(x) {
		return
	}
	G.Read(x.n, &dst.v)
}

// Value receives a node's value (see Read).
type Value struct{ v G.Value }

// Tensor is the value read, or nil before the first run.
func (v *Value) Tensor() *Tensor {
	t, _ := v.v.(*Tensor)
	return t
}

// Grad adds the gradient of the scalar cost with respect to each of wrt
// and returns their nodes (read after Run with Node.Value). Gradients are
// read from these nodes, not accumulated into dual values (which would
// need clearing every step).
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
		out[i] = &Node{n}
	}
	return out
}

// Compile compiles the graph into a tape machine and releases the
// construction lock; it returns the first construction error.
func (g *Graph) Compile() error {
	defer g.unlock()
	if g.err != nil {
		return g.err
	}
	g.vm = G.NewTapeMachine(g.g)
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
	if g.vm == nil {
		return fmt.Errorf("nn: graph not compiled")
	}
	g.vm.Reset()
	if err := g.vm.RunAll(); err != nil {
		return fmt.Errorf("nn: running graph: %w", err)
	}
	return nil
}

// Close releases the machine (and the construction lock if Compile was
// not called). gorgonia sets a finalizer on every TapeMachine, and the
// machine sits in a reference cycle (machine → program → graph → nodes →
// machine state), which the Go runtime never collects when one of its
// objects has a finalizer: without clearing it, every graph with its
// gradient tensors stays in memory for the life of the process.
func (g *Graph) Close() {
	g.unlock()
	if g.vm != nil {
		g.vm.Close()
		runtime.SetFinalizer(g.vm, nil)
		g.vm = nil
	}
	g.g = nil
}

// Value is the node's value after a run (nil before), valid until the
// next run.
func (n *Node) Value() *Tensor {
	t, _ := n.n.Value().(*Tensor)
	return t
}

// Scalar is the value of a scalar node after a run.
func (n *Node) Scalar() (float64, error) {
	v := n.n.Value()
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
