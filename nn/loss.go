package nn

import (
	"fmt"
	"hash"
	"math"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Loss selects a training loss (see Graph.Loss and TrainConfig).
type Loss uint8

const (
	MSE          Loss = iota // Σ w·(out−target)² / Σ w over all n×Out cells (weights select e.g. the taken action)
	GaussianNLL              // Out must be 2: column 0 = mean, column 1 = pre-softplus σ; target and weight n×1
	CrossEntropy             // softmax over Out logits; target n×Out probabilities (one-hot); weight n×1
)

func (l Loss) String() string {
	switch l {
	case MSE:
		return "mse"
	case GaussianNLL:
		return "gaussian-nll"
	case CrossEntropy:
		return "cross-entropy"
	}
	return fmt.Sprintf("loss(%d)", uint8(l))
}

// NLLMinSigma is added to softplus(column 1) to give GaussianNLL's σ, so
// that σ > 0 whatever the network outputs.
const NLLMinSigma = 1e-6

// targetCols is the width of the target for c output columns.
func (l Loss) targetCols(c int) int {
	if l == GaussianNLL {
		return 1
	}
	return c
}

// weightCols is the width of the weights for c output columns.
func (l Loss) weightCols(c int) int {
	if l == MSE {
		return c
	}
	return 1
}

// check validates the output width for the loss.
func (l Loss) check(c int) error {
	switch l {
	case MSE, CrossEntropy:
		if c < 1 {
			return fmt.Errorf("nn: %v loss with %d outputs", l, c)
		}
	case GaussianNLL:
		if c != 2 {
			return fmt.Errorf("nn: gaussian-nll loss needs 2 outputs (mean, pre-softplus σ), not %d", c)
		}
	default:
		return fmt.Errorf("nn: unknown loss %d", uint8(l))
	}
	return nil
}

// lossGrad computes the weighted loss SUM of the r×c out against target
// and w, accumulated in float64, and, when d is not nil, its gradient
// with respect to out scaled by g into d.
//
//	MSE:          Σ w(o−t)²;                       ∂/∂o = 2w(o−t)
//	GaussianNLL:  Σ w(log σ + (μ−y)²/(2σ²)),  σ = softplus(z) + NLLMinSigma
//	              ∂/∂μ = w(μ−y)/σ²,  ∂/∂z = w(1/σ − (μ−y)²/σ³)·sigmoid(z)
//	              (the constant ½log 2π is left out, as PyTorch's GaussianNLLLoss does)
//	CrossEntropy: Σ_i w_i(−Σ_k t_k log p_k),  p = softmax(o_i)
//	              ∂/∂o_k = w_i(p_k Σt − t_k)
func lossGrad[T float32 | float64](kind Loss, out, target, w []T, r, c int, g float64, d []T) float64 {
	sum := 0.0
	switch kind {
	case MSE:
		for i, o := range out {
			e := float64(o) - float64(target[i])
			sum += float64(w[i]) * e * e
			if d != nil {
				d[i] = T(g * 2 * float64(w[i]) * e)
			}
		}
	case GaussianNLL:
		for i := 0; i < r; i++ {
			mu, z := float64(out[2*i]), float64(out[2*i+1])
			sp, sg := Softplus64(z), sigmoid64(z)
			s := sp + NLLMinSigma
			e := mu - float64(target[i])
			wi := float64(w[i])
			sum += wi * (math.Log(s) + e*e/(2*s*s))
			if d != nil {
				d[2*i] = T(g * wi * e / (s * s))
				d[2*i+1] = T(g * wi * (1/s - e*e/(s*s*s)) * sg)
			}
		}
	case CrossEntropy:
		for i := 0; i < r; i++ {
			o, t := out[i*c:(i+1)*c], target[i*c:(i+1)*c]
			mx := math.Inf(-1)
			for _, v := range o {
				mx = max(mx, float64(v))
			}
			se, st := 0.0, 0.0
			for k, v := range o {
				se += math.Exp(float64(v) - mx)
				st += float64(t[k])
			}
			lse := mx + math.Log(se)
			wi := float64(w[i])
			l := 0.0
			for k, v := range o {
				l -= float64(t[k]) * (float64(v) - lse)
			}
			sum += wi * l
			if d != nil {
				for k, v := range o {
					p := math.Exp(float64(v) - lse)
					d[i*c+k] = T(g * wi * (p*st - float64(t[k])))
				}
			}
		}
	}
	return sum
}

// lossOp is the weighted loss sum of (out, target, w): a scalar.
type lossOp struct {
	opBase
	kind Loss
}

// lossGradOp is the loss's gradient with respect to out, for inputs
// (out, target, w, g) with g the scalar gradient of the loss.
type lossGradOp struct {
	opBase
	kind Loss
	buf  *tensor.Dense
}

func (op *lossOp) Arity() int { return 3 }
func (op *lossOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	t := G.TensorType{Dims: 2, Of: a}
	return hm.NewFnType(t, t, t, a)
}
func (op *lossOp) InferShape(...G.DimSizer) (tensor.Shape, error) { return tensor.ScalarShape(), nil }
func (op *lossOp) WriteHash(h hash.Hash)                          { fmt.Fprintf(h, "loss(%d,%p)", op.kind, op) }
func (op *lossOp) Hashcode() uint32                               { return hashOf(op) }
func (op *lossOp) String() string                                 { return "Loss(" + op.kind.String() + ")" }

// lossInputs checks (out, target, w) and returns r, c.
func lossInputs(kind Loss, ts []*tensor.Dense) (int, int, error) {
	r, c := ts[0].Shape()[0], ts[0].Shape()[1]
	if err := kind.check(c); err != nil {
		return 0, 0, err
	}
	if !ts[1].Shape().Eq(tensor.Shape{r, kind.targetCols(c)}) || !ts[2].Shape().Eq(tensor.Shape{r, kind.weightCols(c)}) {
		return 0, 0, fmt.Errorf("nn: %v loss: output %v, target %v, weight %v", kind, ts[0].Shape(), ts[1].Shape(), ts[2].Shape())
	}
	return r, c, nil
}

func (op *lossOp) Do(vals ...G.Value) (G.Value, error) {
	ts, err := dense2("loss", vals, 3)
	if err != nil {
		return nil, err
	}
	r, c, err := lossInputs(op.kind, ts)
	if err != nil {
		return nil, err
	}
	switch ts[0].Dtype() {
	case tensor.Float32:
		o := ts[0].Float32s()
		return G.NewF32(float32(lossGrad(op.kind, o, ts[1].Float32s(), ts[2].Float32s(), r, c, 0, nil))), nil
	case tensor.Float64:
		o := ts[0].Float64s()
		return G.NewF64(lossGrad(op.kind, o, ts[1].Float64s(), ts[2].Float64s(), r, c, 0, nil)), nil
	}
	return nil, fmt.Errorf("nn: loss: dtype %v", ts[0].Dtype())
}
func (op *lossOp) DiffWRT(int) []bool { return []bool{true, false, false} }
func (op *lossOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	return gradOfFirst(3, &lossGradOp{kind: op.kind}, inputs[0], inputs[1], inputs[2], grad)
}

func (op *lossGradOp) Arity() int { return 4 }
func (op *lossGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	t := G.TensorType{Dims: 2, Of: a}
	return hm.NewFnType(t, t, t, a, t)
}
func (op *lossGradOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) { return shapeOf(in, 0) }
func (op *lossGradOp) WriteHash(h hash.Hash)                             { fmt.Fprintf(h, "lossGrad(%d,%p)", op.kind, op) }
func (op *lossGradOp) Hashcode() uint32                                  { return hashOf(op) }
func (op *lossGradOp) String() string                                    { return "LossGrad(" + op.kind.String() + ")" }
func (op *lossGradOp) Do(vals ...G.Value) (G.Value, error) {
	if len(vals) != 4 {
		return nil, fmt.Errorf("nn: loss gradient: %d inputs", len(vals))
	}
	ts, err := dense2("loss gradient", vals[:3], 3)
	if err != nil {
		return nil, err
	}
	r, c, err := lossInputs(op.kind, ts)
	if err != nil {
		return nil, err
	}
	var g float64
	switch v := vals[3].Data().(type) {
	case float32:
		g = float64(v)
	case float64:
		g = v
	case []float32:
		g = float64(v[0])
	case []float64:
		g = v[0]
	default:
		return nil, fmt.Errorf("nn: loss gradient: scalar of type %T", v)
	}
	out := ownBuf(&op.buf, ts[0])
	switch ts[0].Dtype() {
	case tensor.Float32:
		o := ts[0].Float32s()
		lossGrad(op.kind, o, ts[1].Float32s(), ts[2].Float32s(), r, c, g, out.Float32s())
	case tensor.Float64:
		o := ts[0].Float64s()
		lossGrad(op.kind, o, ts[1].Float64s(), ts[2].Float64s(), r, c, g, out.Float64s())
	}
	return out, nil
}
