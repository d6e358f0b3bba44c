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
	if err := checkPoints(x, d); err != nil {
		return nil, err
	}
	pts := make([][]float64, len(x))
	flat := make([]float64, len(x)*d)
	for i, r := range x {
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
// n·e^−50 ≈ n·2e−22), the others' exponentials are computed by expNeg
// (relative error below 3e−10), so the result is within about 1e−9 of
// LogDensity's. Safe for concurrent use.
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
				s += expNeg(e - maxE)
			}
		}
		dst[r] = maxE + math.Log(s) + logNorm
	}
	return dst
}

// expNeg is e^x for x in [−50, 0] (the range LogDensityInto needs), about
// four times faster than math.Exp: x·log2(e) = n + f with n an integer and
// |f| ≤ ½, 2^f by its degree-8 Taylor polynomial in f·ln 2 (relative error
// below 2.8e−10 on |f| ≤ ½: (½ln 2)^9/9! plus rounding), scaled by 2^n
// through the exponent bits.
func expNeg(x float64) float64 {
	y := x * math.Log2E
	n := math.Floor(y + 0.5)
	t := (y - n) * math.Ln2
	p := 1 + t*(1+t*(1.0/2+t*(1.0/6+t*(1.0/24+t*(1.0/120+t*(1.0/720+t*(1.0/5040+t*(1.0/40320))))))))
	return p * math.Float64frombits(uint64(int64(n)+1023)<<52)
}

// checkPoints checks that every row of x has d finite coordinates.
func checkPoints(x [][]float64, d int) error {
	for i, r := range x {
		if len(r) != d {
			return fmt.Errorf("deup: kde: row %d has %d columns, want %d", i, len(r), d)
		}
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("deup: kde: row %d column %d is %v", i, j, v)
			}
		}
	}
	return nil
}
