package nn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestOpGradientsFiniteDifferences checks, in float64, the gradient of
// every differentiable op of the kit against central finite differences
// (step 1e-6, tolerance 1e-6 relative + absolute): each case builds a
// scalar cost from two parameters A (r×k) and B through the op, and the
// gradients that Grad returns must match (∂cost/∂θ ≈ (f(θ+h) − f(θ−h))/2h).
func TestOpGradientsFiniteDifferences(t *testing.T) {
	const r, k, c = 5, 4, 3
	rng := rand.New(rand.NewPCG(11, 12))
	fill := func(t *Tensor, scale float64) {
		for i := range t.Data().([]float64) {
			t.Data().([]float64)[i] = scale * rng.NormFloat64()
		}
	}
	x := toyCSR(r, 9, 3, 5)
	for i := range x.Val {
		x.Val[i] = float32(0.5 + rng.Float64())
	}
	cases := []struct {
		name   string
		ashape [2]int
		bshape [2]int
		build  func(g *Graph, a, b *Node, aux *auxInputs) *Node
	}{
		{"dense+bias+relu", [2]int{r, k}, [2]int{k, c}, func(g *Graph, a, b *Node, aux *auxInputs) *Node {
			return weightedSum(g, g.ReLU(g.AddBias(g.Dense(a, b, nil), aux.bias(g, c))), aux)
		}},
		{"bias", [2]int{r, c}, [2]int{1, c}, func(g *Graph, a, b *Node, aux *auxInputs) *Node {
			return weightedSum(g, g.ReLU(g.AddBias(a, b)), aux)
		}},
		{"dense shared grad", [2]int{r, k}, [2]int{k, c}, func(g *Graph, a, b *Node, aux *auxInputs) *Node {
			return weightedSum(g, g.Dense(a, b, &DenseGrad{}), aux)
		}},
		{"input·B", [2]int{r, k}, [2]int{k, c}, func(g *Graph, a, b *Node, aux *auxInputs) *Node {
			in := g.Input("in", aux.data(r, k))
			return weightedSum(g, g.Add(g.Dense(in, b, nil), g.Dense(a, b, nil)), aux)
		}},
		{"sparse", [2]int{r + 2, 9}, [2]int{9, c}, func(g *Graph, a, b *Node, aux *auxInputs) *Node {
			sb := NewSparseBatch(r + 2) // two padding rows
			sb.Fill(x, []int{0, 1, 2, 3, 4})
			return weightedSum(g, g.Add(g.SparseMul(sb, b, &SparseGrad{}), g.Dense(a, b, nil)), aux)
		}},
		{"softplus", [2]int{r, k}, [2]int{k, c}, func(g *Graph, a, b *Node, aux *auxInputs) *Node {
			return weightedSum(g, g.Softplus(g.Scale(g.Dense(a, b, nil), 3)), aux)
		}},
		{"mask", [2]int{r, k}, [2]int{k, c}, func(g *Graph, a, b *Node, aux *auxInputs) *Node {
			m := aux.data(r, c)
			d := m.Data().([]float64)
			for i := range d {
				d[i] = float64(i%3) * 1.25
			}
			return weightedSum(g, g.Mask(g.Dense(a, b, nil), g.Input("m", m)), aux)
		}},
		{"mse", [2]int{r, k}, [2]int{k, c}, func(g *Graph, a, b *Node, aux *auxInputs) *Node {
			return g.Loss(MSE, g.Dense(a, b, nil), g.Input("t", aux.data(r, c)), g.Input("w", aux.pos(r, c)))
		}},
		{"gaussian-nll", [2]int{r, k}, [2]int{k, 2}, func(g *Graph, a, b *Node, aux *auxInputs) *Node {
			return g.Loss(GaussianNLL, g.Dense(a, b, nil), g.Input("t", aux.data(r, 1)), g.Input("w", aux.pos(r, 1)))
		}},
		{"cross-entropy", [2]int{r, k}, [2]int{k, c}, func(g *Graph, a, b *Node, aux *auxInputs) *Node {
			tg := aux.pos(r, c) // soft targets, not summing to 1: the general gradient
			return g.Loss(CrossEntropy, g.Dense(a, b, nil), g.Input("t", tg), g.Input("w", aux.pos(r, 1)))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			A := NewTensor(Float64, tc.ashape[0], tc.ashape[1])
			B := NewTensor(Float64, tc.bshape[0], tc.bshape[1])
			fill(A, 1)
			fill(B, 1)
			aux := &auxInputs{rng: rand.New(rand.NewPCG(3, 4))}
			g := NewGraph(Float64)
			defer g.Close()
			a, b := g.Matrix("A", A), g.Matrix("B", B)
			cost := tc.build(g, a, b, aux)
			grads := g.Grad(cost, a, b)
			if err := g.Compile(); err != nil {
				t.Fatal(err)
			}
			eval := func() float64 {
				if err := g.Run(); err != nil {
					t.Fatal(err)
				}
				v, err := cost.Scalar()
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			eval()
			got := [][]float64{append([]float64(nil), grads[0].Value().Data().([]float64)...), append([]float64(nil), grads[1].Value().Data().([]float64)...)}
			for pi, P := range []*Tensor{A, B} {
				d := P.Data().([]float64)
				for i := range d {
					const h = 1e-6
					v := d[i]
					d[i] = v + h
					fp := eval()
					d[i] = v - h
					fm := eval()
					d[i] = v
					fd := (fp - fm) / (2 * h)
					if math.Abs(fd-got[pi][i]) > 1e-6*(1+math.Abs(fd)) {
						t.Errorf("param %d[%d]: gradient %.9g, finite difference %.9g", pi, i, got[pi][i], fd)
					}
				}
			}
		})
	}
}

// auxInputs makes the fixed inputs of a gradient-check graph.
type auxInputs struct {
	rng *rand.Rand
	r   *Node
}

func (x *auxInputs) data(r, c int) *Tensor {
	t := NewTensor(Float64, r, c)
	for i := range t.Data().([]float64) {
		t.Data().([]float64)[i] = x.rng.NormFloat64()
	}
	return t
}

func (x *auxInputs) pos(r, c int) *Tensor {
	t := NewTensor(Float64, r, c)
	for i := range t.Data().([]float64) {
		t.Data().([]float64)[i] = 0.2 + x.rng.Float64()
	}
	return t
}

func (x *auxInputs) bias(g *Graph, c int) *Node { return g.Input("bias", x.data(1, c)) }

// weightedSum is Σ R⊙y² for a fixed random R > 0 (so every output
// element gets a different gradient).
func weightedSum(g *Graph, y *Node, x *auxInputs) *Node {
	return g.Loss(MSE, y, g.Input("zero", x.zeroLike(y)), g.Input("R", x.posLike(y)))
}

func (x *auxInputs) zeroLike(y *Node) *Tensor {
	s := y.n.Shape()
	return NewTensor(Float64, s[0], s[1])
}

func (x *auxInputs) posLike(y *Node) *Tensor {
	s := y.n.Shape()
	return x.pos(s[0], s[1])
}
