package model

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// minReplicatedPairs is the fewest pairs with replicates for which an
// aleatoric regressor is fitted.
const minReplicatedPairs = 30

// aleatoric is a ridge regression a(x) = max(0, wᵀh(x) + c) of the
// replicate variance on the trained network's last combined-layer
// activations h(x), in standardized units. Its targets are the per-pair
// sample variances (n−1 denominator), i.e. K/(K−1) × the empirical
// variance, whose expectation is the noise variance of one measurement
// (paper §3, Eq. au-estimator); squared loss makes the fit an estimate of
// that variance. A strong ridge penalty keeps it simple, as the paper's
// linear regressor is, to avoid overfitting.
type aleatoric struct {
	W     []float64 `json:"w"`
	C     float64   `json:"c"`
	Pairs int       `json:"pairs"` // replicated pairs it was fitted on
	// RepN is the mean replicate count of the training targets: a target
	// is a mean of RepN measurements, so its noise variance is a(x)/RepN.
	RepN float64 `json:"rep_n"`
}

// fitAleatoric fits on the pairs of idx with ≥2 replicates; hid holds their
// activations (len(idx)×h). It returns nil when there are too few.
func fitAleatoric(d *Dataset, idx []int, hid []float64, h int, sd float64) (*aleatoric, error) {
	var rows []int
	repN := 0.0
	for k, i := range idx {
		repN += float64(d.N[i])
		if d.N[i] >= 2 && !math.IsNaN(d.Var[i]) {
			rows = append(rows, k)
		}
	}
	if len(rows) < minReplicatedPairs {
		return nil, nil
	}
	repN /= float64(len(idx))
	n := len(rows)
	X := mat.NewDense(n, h+1, nil)
	y := mat.NewVecDense(n, nil)
	for r, k := range rows {
		for j := 0; j < h; j++ {
			X.Set(r, j, hid[k*h+j])
		}
		X.Set(r, h, 1)
		y.SetVec(r, d.Var[idx[k]]/(sd*sd))
	}
	var xtx mat.SymDense
	xtx.SymOuterK(1, X.T())
	// λ = the mean diagonal of XᵀX over the features: strong shrinkage,
	// because single sample variances of 2–3 replicates are very noisy
	// (χ² with 1–2 degrees of freedom) and a(x) is clipped at 0, so an
	// overfitted regressor would be biased upward. No penalty on the
	// intercept.
	lambda := 0.0
	for j := 0; j < h; j++ {
		lambda += xtx.At(j, j)
	}
	lambda = max(lambda/float64(h), 1e-6)
	for j := 0; j < h; j++ {
		xtx.SetSym(j, j, xtx.At(j, j)+lambda)
	}
	xtx.SetSym(h, h, xtx.At(h, h)+1e-9)
	var xty mat.VecDense
	xty.MulVec(X.T(), y)
	var chol mat.Cholesky
	if !chol.Factorize(&xtx) {
		return nil, fmt.Errorf("model: aleatoric regression: singular normal equations")
	}
	var w mat.VecDense
	if err := chol.SolveVecTo(&w, &xty); err != nil {
		return nil, fmt.Errorf("model: aleatoric regression: %w", err)
	}
	a := &aleatoric{W: make([]float64, h), Pairs: n, RepN: repN}
	for j := 0; j < h; j++ {
		a.W[j] = w.AtVec(j)
	}
	a.C = w.AtVec(h)
	return a, nil
}

// variance returns a(x) (one measurement, standardized units) for
// activations hid (h values).
func (a *aleatoric) variance(hid []float64) float64 {
	v := a.C
	for j, w := range a.W {
		v += w * hid[j]
	}
	return max(v, 0)
}
