package model

import (
	"math"
	"sync"

	"github.com/deup-screening/deup/internal/kernels"

	"gonum.org/v1/gonum/blas"
)

// Inference does not use the gorgonia graph: the first combined layer and
// the first σ layer are linear in the summed pair embedding, so
//
//	W_c1ᵀ(T(a)+T(b)) = W_c1ᵀT(a) + W_c1ᵀT(b)
//
// and the per-drug projections P(d) = W_c1ᵀT(d), Q(d) = W_s1ᵀT(d) are
// computed once per drug (the tower runs once per drug, never per pair);
// a pair then costs two CombHidden² and two SigmaHidden² products. The
// result equals the graph's forward pass up to float rounding (tested).

// Forwarder caches per-drug projections for one Features matrix. Pairs
// takes MC-Dropout masks (nil: none), which only this package makes.
type Forwarder interface {
	// pairs writes μ (and σ when the net has a σ path; bit selects in/out)
	// in standardized units for the pairs (pa[i], pb[i]). masks, when
	// non-nil, returns dropout masks for the two combined layers of pair i.
	// hid, when non-nil, receives the last combined layer's activations
	// (len(pa)×CombHidden, row-major).
	// pl holds the pairs' cell lines (nil: line 0, the only line of a
	// one-line network).
	Pairs(f *Features, pa, pb, pl []int, bit float64, drop *dropout, mu, sigma, hid []float64)
	// pairsSide is pairs without dropout, with the σ features of the
	// pairs (len(pa)×side, row-major; nil when the net has none).
	PairsSide(f *Features, pa, pb, pl []int, bit float64, side, mu, sigma, hid []float64)
	invalidate()
}

type inferer[T float32 | float64] struct {
	n     *Network
	mu    sync.Mutex
	feats *Features
	have  []bool
	// idOf maps feats' rows to the identity vectors (Config.Identity; nil
	// without them): −1 for a drug the network has no vector of.
	idOf []int
	p, q []T // numDrugs×CombHidden, numDrugs×SigmaHidden
	// lp, lq are the cell-line projections E_l·W_c1 and E_l·W_s1
	// (lines×CombHidden, lines×SigmaHidden) of a network that knows
	// several lines; nil otherwise, and until computed.
	lp, lq []T
	// scratch holds the activation buffers of pairRange, one per worker
	// of pairs (guarded by mu like the rest).
	scratch [][]T
}

// NewForwarder returns n's inference path (float32 or float64, as n was
// built).
func NewForwarder(n *Network) Forwarder {
	if n.cfg.float64 {
		return &inferer[float64]{n: n}
	}
	return &inferer[float32]{n: n}
}

func (in *inferer[T]) invalidate() {
	in.mu.Lock()
	in.feats, in.have = nil, nil
	in.lp, in.lq = nil, nil
	in.mu.Unlock()
}

func (in *inferer[T]) w(name string) []T { return in.n.byName[name].t.Data().([]T) }

// ensure computes the projections of the listed drugs that are missing.
func (in *inferer[T]) ensure(f *Features, drugs []int) {
	cfg := in.n.cfg
	ch, sh := cfg.CombHidden, cfg.SigmaHidden
	nd := f.NumDrugs()
	if nl := cfg.lines; nl > 1 && in.lp == nil {
		to := cfg.TowerOut
		li := cfg.lineInput()
		var Wf []T
		if li.Features() > 0 {
			Wf = in.w(LineFeatureParam)
		}
		E := LineRows(li, in.w(LineEmbeddingParam), Wf) // E_l + X_l·W_f
		in.lp = make([]T, nl*ch)
		gemm(nl, ch, to, E, to, in.w("c1.w"), ch, 0, in.lp, ch)
		if in.n.sigma {
			in.lq = make([]T, nl*sh)
			gemm(nl, sh, to, E, to, in.w("s1.w"), sh, 0, in.lq, sh)
		}
	}
	if in.feats != f {
		in.feats = f
		in.have = make([]bool, nd)
		in.idOf = nil
		if cfg.identityRows() > 0 {
			in.idOf = identityIndex(cfg.IdentityIDs(), f)
		}
		in.p = make([]T, nd*ch)
		if in.n.sigma {
			in.q = make([]T, nd*sh)
		}
	}
	var todo []int
	seen := map[int]bool{}
	for _, d := range drugs {
		if !in.have[d] && !seen[d] {
			seen[d] = true
			todo = append(todo, d)
		}
	}
	if len(todo) == 0 {
		return
	}
	const chunk = 128
	th, to := cfg.TowerHidden, cfg.TowerOut
	h1 := make([]T, chunk*th)
	e := make([]T, chunk*to)
	pc := make([]T, chunk*ch)
	var qc []T
	if in.n.sigma {
		qc = make([]T, chunk*sh)
	}
	w1, b1, w2, b2 := in.w("t1.w"), in.w("t1.b"), in.w("t2.w"), in.w("t2.b")
	var idE []T
	if in.idOf != nil {
		idE = in.w(IdentityParam)
	}
	for lo := 0; lo < len(todo); lo += chunk {
		rows := todo[lo:min(lo+chunk, len(todo))]
		m := len(rows)
		for r, d := range rows {
			dst := h1[r*th : (r+1)*th]
			copy(dst, b1)
			for k := f.RowPtr[d]; k < f.RowPtr[d+1]; k++ {
				// dst += v·w1[c] (kernels.AddScaled: the product
				// rounded, then added, as the BLAS Saxpy this was,
				// which skips v = 0; eight lanes with AVX).
				if v := f.Val[k]; v != 0 {
					c := int(f.Col[k])
					kernels.AddScaled(v, w1[c*th:(c+1)*th], dst)
				}
			}
			if idE != nil {
				if k := in.idOf[d]; k >= 0 {
					axpy(1, idE[k*th:(k+1)*th], dst) // the identity vector (Config.Identity)
				}
			}
			kernels.Relu(dst)
		}
		for r := 0; r < m; r++ {
			copy(e[r*to:(r+1)*to], b2)
		}
		gemm(m, to, th, h1, th, w2, to, 1, e, to)
		gemm(m, ch, to, e, to, in.w("c1.w"), ch, 0, pc, ch)
		if in.n.sigma {
			gemm(m, sh, to, e, to, in.w("s1.w"), sh, 0, qc, sh)
		}
		for r, d := range rows {
			copy(in.p[d*ch:(d+1)*ch], pc[r*ch:(r+1)*ch])
			if in.n.sigma {
				copy(in.q[d*sh:(d+1)*sh], qc[r*sh:(r+1)*sh])
			}
			in.have[d] = true
		}
	}
}

// Pairs predicts μ and σ (and the last hidden layer, when hid is not nil)
// of the pairs (pa[i], pb[i], pl[i]) of f with the in/out bit, through the
// dropout masks drop (nil: none).
func (in *inferer[T]) Pairs(f *Features, pa, pb, pl []int, bit float64, drop *dropout, mu, sigma, hid []float64) {
	in.forward(f, pa, pb, pl, bit, drop, nil, mu, sigma, hid)
}

// PairsSide is Pairs with the σ path's side inputs (the σ features, one
// row per pair) and no dropout.
func (in *inferer[T]) PairsSide(f *Features, pa, pb, pl []int, bit float64, side, mu, sigma, hid []float64) {
	in.forward(f, pa, pb, pl, bit, nil, side, mu, sigma, hid)
}

func (in *inferer[T]) forward(f *Features, pa, pb, pl []int, bit float64, drop *dropout, side, mu, sigma, hid []float64) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.ensure(f, pa)
	in.ensure(f, pb)
	// The pairs are independent (and a pair's numbers do not depend on its
	// neighbours in a product): the caller and the helpers it can borrow
	// from the process's worker budget take an equal part each, at least
	// minPart pairs (kernels.Parts).
	const minPart = 1024
	n := len(pa)
	if drop != nil || n < 2*minPart {
		in.pairRange(0, pa, pb, pl, bit, drop, side, mu, sigma, hid)
		return
	}
	ch, k := in.n.cfg.CombHidden, in.n.cfg.side
	lines := func(lo, hi int) []int {
		if pl == nil {
			return nil
		}
		return pl[lo:hi]
	}
	rows := func(x []float64, lo, hi, width int) []float64 { // nil stays nil
		if x == nil {
			return nil
		}
		return x[lo*width : hi*width]
	}
	for len(in.scratch) < kernels.Workers() {
		in.scratch = append(in.scratch, nil)
	}
	kernels.Parts(n, minPart, len(in.scratch), func(w, lo, hi int) {
		in.pairRange(w, pa[lo:hi], pb[lo:hi], lines(lo, hi), bit, nil, rows(side, lo, hi, k), mu[lo:hi], rows(sigma, lo, hi, 1), rows(hid, lo, hi, ch))
	})
}

// pairRange is pairs on projections already ensured, for worker w (its
// scratch buffers); it only reads the rest of the inferer's state.
func (in *inferer[T]) pairRange(w int, pa, pb, pl []int, bit float64, drop *dropout, side, mu, sigma, hid []float64) {
	cfg := in.n.cfg
	ch, sh, k := cfg.CombHidden, cfg.SigmaHidden, cfg.side
	const chunk = 512
	if w >= len(in.scratch) {
		in.scratch = append(in.scratch, make([][]T, w+1-len(in.scratch))...)
	}
	if need := 2 * chunk * (ch + sh); len(in.scratch[w]) < need {
		in.scratch[w] = make([]T, need)
	}
	buf := in.scratch[w] // every row is written before it is read
	c1, c2 := buf[:chunk*ch], buf[chunk*ch:2*chunk*ch]
	var s1, s2 []T
	if in.n.sigma && sigma != nil {
		s1, s2 = buf[2*chunk*ch:2*chunk*ch+chunk*sh], buf[2*chunk*ch+chunk*sh:2*chunk*(ch+sh)]
	}
	bc1, wc2, bc2, wmu, bmu := in.w("c1.b"), in.w("c2.w"), in.w("c2.b"), in.w("mu.w"), in.w("mu.b")
	var film []T
	if cfg.filmOn() {
		film = in.w(LineFiLMParam)
	}
	for lo := 0; lo < len(pa); lo += chunk {
		m := min(chunk, len(pa)-lo)
		for r := 0; r < m; r++ {
			a, b := pa[lo+r], pb[lo+r]
			dst := c1[r*ch : (r+1)*ch]
			xa, xb := in.p[a*ch:(a+1)*ch], in.p[b*ch:(b+1)*ch]
			for j := range dst {
				dst[j] = xa[j] + xb[j] + bc1[j]
			}
			if in.lp != nil {
				l := LineOf(pl, lo+r)
				axpy(1, in.lp[l*ch:(l+1)*ch], dst)
				if film != nil { // z ⊙ (1 + G_l) (Config.LineFiLM)
					for j, v := range film[l*ch : (l+1)*ch] {
						dst[j] += dst[j] * v
					}
				}
			}
			kernels.Relu(dst)
			if drop != nil {
				drop.seedPair(a, b, 1)
				drop.apply(dst)
			}
			copy(c2[r*ch:(r+1)*ch], bc2)
		}
		gemm(m, ch, ch, c1, ch, wc2, ch, 1, c2, ch)
		for r := 0; r < m; r++ {
			row := c2[r*ch : (r+1)*ch]
			kernels.Relu(row)
			if drop != nil {
				drop.seedPair(pa[lo+r], pb[lo+r], 2)
				drop.apply(row)
			}
			mu[lo+r] = float64(dot(row, wmu) + bmu[0])
			if hid != nil {
				for j, v := range row {
					hid[(lo+r)*ch+j] = float64(v)
				}
			}
		}
		if s1 == nil {
			continue
		}
		bs1, wbit, ws2, bs2, wsig, bsig := in.w("s1.b"), in.w("s1.bit"), in.w("s2.w"), in.w("s2.b"), in.w("sig.w"), in.w("sig.b")
		for r := 0; r < m; r++ {
			a, b := pa[lo+r], pb[lo+r]
			dst := s1[r*sh : (r+1)*sh]
			qa, qb := in.q[a*sh:(a+1)*sh], in.q[b*sh:(b+1)*sh]
			for j := range dst {
				dst[j] = qa[j] + qb[j] + T(bit)*wbit[j] + bs1[j]
			}
			if in.lq != nil {
				l := LineOf(pl, lo+r)
				axpy(1, in.lq[l*sh:(l+1)*sh], dst)
			}
			if side != nil {
				// The σ features: rows 1…k of s1.bit.
				for x, v := range side[(lo+r)*k : (lo+r+1)*k] {
					axpy(T(v), wbit[(1+x)*sh:(2+x)*sh], dst)
				}
			}
			kernels.Relu(dst)
			copy(s2[r*sh:(r+1)*sh], bs2)
		}
		gemm(m, sh, sh, s1, sh, ws2, sh, 1, s2, sh)
		for r := 0; r < m; r++ {
			row := s2[r*sh : (r+1)*sh]
			kernels.Relu(row)
			z := float64(dot(row, wsig) + bsig[0])
			sigma[lo+r] = Softplus(z) + cfg.MinSigma
		}
	}
}

// Softplus(z) = log(1+e^z), computed stably.
func Softplus(z float64) float64 {
	if z > 30 {
		return z
	}
	return math.Log1p(math.Exp(z))
}

func dot[T float32 | float64](x, y []T) T {
	var s T
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

func axpy[T float32 | float64](a T, x, y []T) {
	switch xs := any(x).(type) {
	case []float32:
		kernels.Impl().Saxpy(len(xs), float32(a), xs, 1, any(y).([]float32), 1)
	case []float64:
		kernels.Impl().Daxpy(len(xs), float64(a), xs, 1, any(y).([]float64), 1)
	}
}

// gemm computes C = A·B + beta·C for row-major A (m×k), B (k×n), C (m×n).
func gemm[T float32 | float64](m, n, k int, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	if m == 0 {
		return
	}
	switch as := any(a).(type) {
	case []float32:
		kernels.Impl().Sgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, as, lda, any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		kernels.Impl().Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, as, lda, any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	}
}
