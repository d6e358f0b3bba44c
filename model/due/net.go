package due

import (
	"fmt"
	"math/rand/v2"

	"github.com/deup-screening/deup/internal/kernels"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/nn"
	"github.com/deup-screening/deup/nn/optim"
	"gonum.org/v1/gonum/blas"

	"github.com/deup-screening/deup/internal/streams"
)

// layer is one fully connected layer y = x W_sn + b of the extractor: W
// (in×out, row major) and b (1×out) in float32, W under the kit's
// spectral normalization (nn.SpectralNorm: W_sn = W/max(1, sigma/coeff)).
type layer struct {
	name    string
	in, out int
	w, b    []float32
	sn      *nn.SpectralNorm

	optW, optB *optim.Adam[float32] // nil when not training
}

// The layers of the extractor, in order.
const (
	lT1   = iota // sparse drug features → TowerHidden
	lT2          // TowerHidden → TowerOut
	lC1          // TowerOut → CombHidden
	lC2          // CombHidden → CombHidden (residual)
	lHead        // CombHidden → Embedding
	numLayers
)

var layerNames = [numLayers]string{"t1", "t2", "c1", "c2", "head"}

// network is the two-tower feature extractor: the single-drug tower
// (sparse dim→TowerHidden, ReLU, →TowerOut), the two drugs' embeddings
// summed, the combined network (TowerOut→CombHidden, ReLU; then a residual
// block r2 = r1 + ReLU(r1 C2 + c2) as in DUE's FCResNet) and a linear map
// to the Embedding-dimensional GP input. Every weight matrix is spectrally
// normalized.
type network struct {
	dim int
	l   [numLayers]*layer
	// li is the cell-line input of a panel (model.LineInput, shared with
	// the other methods' networks), added to the summed pair embedding
	// before c1: emb its embedding E (parameter cl.e, lines×TowerOut, row
	// major), feat the map W_f of the lines' numeric features (cl.f,
	// k×TowerOut); both nil for one line, feat nil without features. Not
	// spectrally normalized (an offset per line, not a map of the pair).
	li         model.LineInput
	emb, feat  []float32
	optE, optF *optim.Adam[float32]
}

// allocLines allocates the line input's parameters of li, at 0 (they
// draw no random number: the other weights are those of a one-line
// network with the same seed).
func (n *network) allocLines(li model.LineInput) {
	n.li = li
	for _, p := range li.Params() {
		d := make([]float32, p.Rows*p.Cols)
		switch p.Name {
		case model.LineEmbeddingParam:
			n.emb = d
		case model.LineFeatureParam:
			n.feat = d
		}
	}
}

func layerSizes(cfg Config, dim int) [numLayers][2]int {
	return [numLayers][2]int{{dim, cfg.TowerHidden}, {cfg.TowerHidden, cfg.TowerOut}, {cfg.TowerOut, cfg.CombHidden},
		{cfg.CombHidden, cfg.CombHidden}, {cfg.CombHidden, cfg.Embedding}}
}

// newNetwork draws the weights and biases with the kit's initializer
// (PyTorch's nn.Linear default, U(±1/sqrt(in))) and each layer's
// power-iteration vector u, layer by layer, from one PCG stream of seed.
func newNetwork(cfg Config, dim int, seed uint64) *network {
	rng := rand.New(rand.NewPCG(seed, streams.DUENet))
	n := &network{dim: dim}
	for i, s := range layerSizes(cfg, dim) {
		l := &layer{name: layerNames[i], in: s[0], out: s[1], w: make([]float32, s[0]*s[1]), b: make([]float32, s[1])}
		nn.InitLinear(l.w, l.in, rng)
		nn.InitLinear(l.b, l.in, rng)
		l.sn = nn.NewSpectralNorm(l.w, l.in, l.out, cfg.Coeff, rng)
		l.sn.Iters = cfg.PowerIters
		n.l[i] = l
	}
	n.allocLines(cfg.lineInput())
	return n
}

// params is the network's parameter set for saving: per layer w (in×out),
// b (1×out) and, when normalized, the power-iteration vectors u (in) and
// v (out). The Data slices are the network's own.
func (n *network) params() nn.Params {
	var ps nn.Params
	for _, l := range n.l {
		ps = append(ps, &nn.Param{Name: l.name + ".w", Shape: []int{l.in, l.out}, Data: l.w},
			&nn.Param{Name: l.name + ".b", Shape: []int{1, l.out}, Data: l.b})
		if l.sn.Coeff > 0 {
			ps = append(ps, &nn.Param{Name: l.name + ".u", Shape: []int{l.in}, Data: l.sn.U},
				&nn.Param{Name: l.name + ".v", Shape: []int{l.out}, Data: l.sn.V})
		}
	}
	for _, p := range n.li.Params() {
		ps = append(ps, &nn.Param{Name: p.Name, Shape: []int{p.Rows, p.Cols}, Data: n.lineParam(p.Name)})
	}
	return ps
}

// lineParam is the values of the line input's parameter name.
func (n *network) lineParam(name string) []float32 {
	if name == model.LineFeatureParam {
		return n.feat
	}
	return n.emb
}

// refresh sets every layer's sigma from its stored u, v (evaluation mode);
// inference reads the resulting scales.
func (n *network) refresh() {
	for _, l := range n.l {
		l.sn.Refresh(l.w)
	}
}

// setTrain switches the power iteration of every layer's graph op.
func (n *network) setTrain(on bool) {
	for _, l := range n.l {
		l.sn.Train = on
	}
}

// step applies Adam (PyTorch's coupled weight decay, package nn/optim) to
// every layer with the gradients gw[i], gb[i], and to the line input with
// ge (E) and gf (W_f); the optimizer state is created on the first step.
func (n *network) step(gw, gb [][]float32, ge, gf []float32, lr, wd float64) {
	if n.emb != nil {
		adamStep(&n.optE, n.emb, ge, lr, wd)
	}
	if n.feat != nil {
		adamStep(&n.optF, n.feat, gf, lr, wd)
	}
	for i, l := range n.l {
		adamStep(&l.optW, l.w, gw[i], lr, wd)
		adamStep(&l.optB, l.b, gb[i], lr, wd)
	}
}

// adamStep applies one Adam step to w with gradient g, creating the
// optimizer state *opt on the first.
func adamStep(opt **optim.Adam[float32], w, g []float32, lr, wd float64) {
	if *opt == nil {
		*opt = optim.NewAdam[float32](lr, wd)
	}
	(*opt).Step(w, g)
}

// endTraining releases the optimizer state: a trained network holds only
// its parameters and spectral-norm vectors.
func (n *network) endTraining() {
	for _, l := range n.l {
		l.optW, l.optB = nil, nil
	}
	n.optE, n.optF = nil, nil
	n.setTrain(false)
}

// snapshot copies every parameter (w, b, u, v, and the line input's E and
// W_f) into s, reusing its buffers when an earlier call filled it.
func (n *network) snapshot(s [][]float32) [][]float32 {
	if len(s) != 4*numLayers+2 {
		s = make([][]float32, 4*numLayers+2)
	}
	s[4*numLayers] = append(s[4*numLayers][:0], n.emb...)
	s[4*numLayers+1] = append(s[4*numLayers+1][:0], n.feat...)
	for i, l := range n.l {
		s[4*i] = append(s[4*i][:0], l.w...)
		s[4*i+1] = append(s[4*i+1][:0], l.b...)
		s[4*i+2] = append(s[4*i+2][:0], l.sn.U...)
		s[4*i+3] = append(s[4*i+3][:0], l.sn.V...)
	}
	return s
}

func (n *network) restore(s [][]float32) {
	for i, l := range n.l {
		copy(l.w, s[4*i])
		copy(l.b, s[4*i+1])
		copy(l.sn.U, s[4*i+2])
		copy(l.sn.V, s[4*i+3])
	}
	copy(n.emb, s[4*numLayers])
	copy(n.feat, s[4*numLayers+1])
	n.refresh()
}

// stepGraph is one compiled training step (package nn's gorgonia graph):
// the extractor on a batch of at most b pairs over at most u unique drugs,
// its features fed to an external loss (the SVGP's -ELBO/n), and the
// gradients of every weight and bias. The graph reads the network's
// parameter slices in place (float32) or float64 copies of them (tests).
type stepGraph struct {
	g     *nn.Graph
	x     *nn.SparseBatch
	u, b  int
	s     *nn.Tensor   // b×u pair-to-drug incidence (1 per drug slot, 2 for a drug paired with itself; 0 rows for padding)
	l     *nn.Tensor   // b×lines one-hot cell line of each pair (nil for one line; model.LineInput.AddTo)
	wts   []*nn.Tensor // weight and bias tensors per layer: w0, b0, w1, b1, ..., then the line input's E and W_f
	grads []*nn.Node   // their gradients, same order
	feat  nn.Value     // the features of the last run (b×Embedding)
}

// buildGraph compiles a training step with cost loss(features).
func (n *network) buildGraph(dt nn.DType, u, b int, loss nn.ExternalLossFunc) (*stepGraph, error) {
	sg := &stepGraph{g: nn.NewGraph(dt), x: nn.NewSparseBatch(u), u: u, b: b}
	g := sg.g
	tensorOf := func(data []float32, r, c int) (*nn.Tensor, error) {
		if dt == nn.Float32 {
			return nn.TensorFrom(data, r, c)
		}
		d := make([]float64, len(data))
		for i, v := range data {
			d[i] = float64(v)
		}
		return nn.TensorFrom(d, r, c)
	}
	var W, B [numLayers]*nn.Node
	var wrt []*nn.Node
	for i, l := range n.l {
		wt, err := tensorOf(l.w, l.in, l.out)
		if err != nil {
			g.Close()
			return nil, err
		}
		bt, err := tensorOf(l.b, 1, l.out)
		if err != nil {
			g.Close()
			return nil, err
		}
		sg.wts = append(sg.wts, wt, bt)
		W[i], B[i] = g.Matrix(l.name+".w", wt), g.Matrix(l.name+".b", bt)
		wrt = append(wrt, W[i], B[i])
	}
	sg.s = nn.NewTensor(dt, b, u)
	S := g.Input("S", sg.s)
	lin := func(x *nn.Node, i int) *nn.Node { return g.SpectralLinear(x, n.l[i].sn, W[i], B[i]) }
	h1 := g.ReLU(g.AddBias(g.SpectralSparseMul(sg.x, n.l[lT1].sn, W[lT1]), B[lT1]))
	emb := lin(h1, lT2)
	pe := g.Dense(S, emb, nil)
	if n.li.On() {
		var ln [2]*nn.Node // E, W_f
		for i, p := range n.li.Params() {
			t, err := tensorOf(n.lineParam(p.Name), p.Rows, p.Cols)
			if err != nil {
				g.Close()
				return nil, err
			}
			sg.wts = append(sg.wts, t)
			ln[i] = g.Matrix(p.Name, t)
			wrt = append(wrt, ln[i])
		}
		pe, sg.l = n.li.AddTo(g, pe, ln[0], ln[1], b)
	}
	r1 := g.ReLU(lin(pe, lC1))
	r2 := g.Add(r1, g.ReLU(lin(r1, lC2)))
	f := lin(r2, lHead)
	g.Read(f, &sg.feat)
	sg.grads = g.Grad(g.ExternalLoss(f, loss), wrt...)
	if err := g.Compile(); err != nil {
		g.Close()
		return nil, fmt.Errorf("due: building graph: %w", err)
	}
	return sg, nil
}

// fill loads a batch: drugs are the unique feature rows (≤ u), pairs
// (pa[i], pb[i]) positions in drugs (≤ b pairs; the rest are padding).
//
// lines holds the pairs' cell lines (nil: line 0; ignored for one line).
func (sg *stepGraph) fill(X *nn.CSR, drugs, pa, pb, lines []int) {
	sg.x.Fill(X, drugs)
	if sg.l != nil {
		model.FillLines(sg.l, lines, len(pa))
	}
	u := sg.u
	switch d := sg.s.Data().(type) {
	case []float32:
		clear(d)
		for i := range pa {
			d[i*u+pa[i]]++
			d[i*u+pb[i]]++
		}
	case []float64:
		clear(d)
		for i := range pa {
			d[i*u+pa[i]]++
			d[i*u+pb[i]]++
		}
	}
}

func (sg *stepGraph) close() { sg.g.Close() }

// infer holds the scratch buffers of one inference forward pass.
type infer struct {
	h1, emb, p []float32 // per drug: u×TowerHidden, u×TowerOut, u×CombHidden
	r1, a2, f  []float32 // per pair: b×CombHidden, b×CombHidden, b×Embedding
}

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// forward computes the features (len(pa)×Embedding, into out) of the pairs
// (pa[i], pb[i]) of positions into drugs, rows of X, with the current
// normalization scales (no power iteration; read-only on the network). It
// does not use the graph: the first combined layer is linear in the
// summed pair embedding, so
//
//	(T(a) + T(b)) C1 = T(a) C1 + T(b) C1
//
// is computed once per drug; a pair then costs CombHidden additions and
// the CombHidden² and CombHidden×Embedding products. Equal to the graph's
// forward pass up to float rounding (tested).
func (n *network) forward(X *nn.CSR, drugs, pa, pb, lines []int, in *infer, out []float64) {
	t1, t2, c1, c2, hd := n.l[lT1], n.l[lT2], n.l[lC1], n.l[lC2], n.l[lHead]
	u, b := len(drugs), len(pa)
	th, to, ch, e := t1.out, t2.out, c1.out, hd.out
	bl := kernels.Impl()
	in.h1 = grow(in.h1, u*th)
	s1 := float32(t1.sn.Scale())
	for i, r := range drugs {
		lo, hi := X.RowPtr[r], X.RowPtr[r+1]
		row := in.h1[i*th : (i+1)*th]
		kernels.Accumulate(X.Col[lo:hi], X.Val[lo:hi], t1.w, th, 0, th, row)
		for j := range row {
			row[j] = s1*row[j] + t1.b[j]
		}
	}
	kernels.Relu(in.h1)
	in.emb = grow(in.emb, u*to)
	linearTo(bl, in.emb, in.h1, u, t2)
	in.p = grow(in.p, u*ch)
	bl.Sgemm(blas.NoTrans, blas.NoTrans, u, ch, to, float32(c1.sn.Scale()), in.emb, to, c1.w, ch, 0, in.p, ch)
	in.r1 = grow(in.r1, b*ch)
	var lp []float32 // ((E_l + X_l·W_f) C1)·scale per line: the line's term of the first combined layer
	if n.li.On() {
		nl := n.li.Lines
		lp = make([]float32, nl*ch)
		bl.Sgemm(blas.NoTrans, blas.NoTrans, nl, ch, to, float32(c1.sn.Scale()), model.LineRows(n.li, n.emb, n.feat), to, c1.w, ch, 0, lp, ch)
	}
	for i := range pa {
		row, x, y := in.r1[i*ch:(i+1)*ch], in.p[pa[i]*ch:(pa[i]+1)*ch], in.p[pb[i]*ch:(pb[i]+1)*ch]
		for j := range row {
			row[j] = x[j] + y[j] + c1.b[j]
		}
		if lp != nil {
			l := model.LineOf(lines, i)
			for j, v := range lp[l*ch : (l+1)*ch] {
				row[j] += v
			}
		}
	}
	kernels.Relu(in.r1)
	in.a2 = grow(in.a2, b*ch)
	linearTo(bl, in.a2, in.r1, b, c2)
	kernels.Relu(in.a2)
	for j, v := range in.r1 {
		in.a2[j] += v
	}
	in.f = grow(in.f, b*e)
	linearTo(bl, in.f, in.a2, b, hd)
	for i, v := range in.f {
		out[i] = float64(v)
	}
}

// linearTo writes dst (rows×l.out) = scale · x W + b for x (rows×l.in).
func linearTo(bl kernels.BLAS, dst, x []float32, rows int, l *layer) {
	bl.Sgemm(blas.NoTrans, blas.NoTrans, rows, l.out, l.in, float32(l.sn.Scale()), x, l.in, l.w, l.out, 0, dst, l.out)
	for i := 0; i < rows; i++ {
		row := dst[i*l.out : (i+1)*l.out]
		for j, v := range l.b {
			row[j] += v
		}
	}
}
