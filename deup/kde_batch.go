package deup

import (
	"errors"
	"fmt"
	"math"
)

// NewKDE returns a Gaussian product-kernel KDE on the rows of x with the
// given per-coordinate bandwidths (each finite and > 0), for example a
// bandwidth chosen by FitKDE on a subsample and rescaled to len(x)
// centres. Non-finite inputs are an error.
func NewKDE(x [][]float64, h []float64) (*KDE, error) {
	if len(x) == 0 {
		return nil, errors.New("deup: kde on no points")
	}
	d := len(h)
	for j, v := range h {
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("deup: kde: bandwidth %d is %v", j, v)
		}
	}
	pts := make([][]float64, len(x))
	flat := make([]float64, len(x)*d)
	for i, r := range x {
		if len(r) != d {
			return nil, fmt.Errorf("deup: kde: row %d has %d columns, want %d", i, len(r), d)
		}
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("deup: kde: row %d column %d is %v", i, j, v)
			}
		}
		pts[i] = flat[i*d : (i+1)*d : (i+1)*d]
		copy(pts[i], r)
	}
	return &KDE{pts: pts, h: append([]float64(nil), h...)}, nil
}

// kdeDrop is how far below the largest exponent a kernel term may be and
// still be summed: dropped terms add at most n·e^−50 relative error.
const kdeDrop = 50

// LogDensityInto is LogDensity for the rows of x (each of the fitted
// dimension, else it panics), written into dst (grown if too short) and
// returned. It makes one streaming log-sum-exp pass over the centres per
// row and does not allocate when dst has room; terms more than 50 below
// the running maximum exponent are skipped (relative error at most
// n·e^−50 ≈ n·2e−22). Safe for concurrent use.
func (k *KDE) LogDensityInto(dst []float64, x [][]float64) []float64 {
	if cap(dst) < len(x) {
		dst = make([]float64, len(x))
	}
	dst = dst[:len(x)]
	d := len(k.h)
	logNorm := -math.Log(float64(len(k.pts)))
	var invBuf [16]float64
	inv := invBuf[:0]
	if d > len(invBuf) {
		inv = make([]float64, 0, d)
	}
	for _, h := range k.h {
		logNorm -= math.Log(h) + 0.5*math.Log(2*math.Pi)
		inv = append(inv, 1/h)
	}
	for r, q := range x {
		if len(q) != d {
			panic("deup: kde: dimension mismatch")
		}
		maxE, s := math.Inf(-1), 0.0
		for _, p := range k.pts {
			e := 0.0
			for j, v := range p {
				z := (q[j] - v) * inv[j]
				e += z * z
			}
			e *= -0.5
			switch {
			case e > maxE:
				s = s*math.Exp(maxE-e) + 1
				maxE = e
			case e > maxE-kdeDrop:
				s += math.Exp(e - maxE)
			}
		}
		dst[r] = maxE + math.Log(s) + logNorm
	}
	return dst
}
