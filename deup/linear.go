package deup

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Linear is a Learner of least squares with an intercept, w = (A^T A +
// Ridge I)^-1 A^T y on A = [1 x]: the paper's "simple linear regressor" for
// the aleatoric estimate. Ridge 0 means 1e-9 (keeps collinear inputs solvable;
// the intercept is not penalized).
type Linear struct{ Ridge float64 }

// Fit implements Learner.
func (l Linear) Fit(x [][]float64, y []float64) (Predictor, error) {
	n := len(x)
	if n == 0 || n != len(y) {
		return nil, fmt.Errorf("deup: linear fit on %d inputs and %d targets", n, len(y))
	}
	d := len(x[0])
	a := mat.NewDense(n, d+1, nil)
	for i, r := range x {
		if len(r) != d {
			return nil, fmt.Errorf("deup: linear fit: row %d has %d columns, want %d", i, len(r), d)
		}
		a.Set(i, 0, 1)
		for j, v := range r {
			a.Set(i, j+1, v)
		}
	}
	ridge := l.Ridge
	if ridge <= 0 {
		ridge = 1e-9
	}
	var ata mat.SymDense
	ata.SymOuterK(1, a.T())
	for j := 1; j <= d; j++ {
		ata.SetSym(j, j, ata.At(j, j)+ridge)
	}
	var aty mat.VecDense
	aty.MulVec(a.T(), mat.NewVecDense(n, append([]float64(nil), y...)))
	var w mat.VecDense
	if err := w.SolveVec(&ata, &aty); err != nil {
		return nil, errors.Join(errors.New("deup: linear fit is singular"), err)
	}
	return linearModel{w: w.RawVector().Data}, nil
}

type linearModel struct{ w []float64 }

func (m linearModel) Predict(x []float64) float64 {
	s := m.w[0]
	for j, v := range x {
		s += m.w[j+1] * v
	}
	return s
}
