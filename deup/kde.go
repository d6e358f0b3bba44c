package deup

import (
	"errors"
	"fmt"
	"math"

	"github.com/deup-screening/deup/uq"
)

// Bandwidth is a KDE bandwidth selection rule.
type Bandwidth int

const (
	// Scott: h_j = sigma_j * n^(-1/(d+4)).
	Scott Bandwidth = iota
	// Silverman: h_j = sigma_j * (4/(d+2))^(1/(d+4)) * n^(-1/(d+4)).
	Silverman
	// LikelihoodCV: h_j = c * Scott_j with c maximizing the leave-one-out
	// log-likelihood over a log-spaced grid of 41 values in [0.05, 5].
	LikelihoodCV
)

func (b Bandwidth) String() string {
	switch b {
	case Scott:
		return "scott"
	case Silverman:
		return "silverman"
	case LikelihoodCV:
		return "lcv"
	}
	return fmt.Sprintf("Bandwidth(%d)", int(b))
}

// KDE is a Gaussian product-kernel density estimate
//
//	q(x) = 1/n sum_i prod_j N(x_j; x_ij, h_j^2).
type KDE struct {
	pts [][]float64
	h   []float64
}

// FitKDE fits a KDE on the rows of x with the given rule. sigma_j is the
// sample standard deviation of coordinate j; when it is 0 (one point, or all
// equal) the bandwidth of that coordinate is 1 (inputs are expected on a unit
// scale). Non-finite inputs are an error.
func FitKDE(x [][]float64, rule Bandwidth) (*KDE, error) {
	n := len(x)
	if n == 0 {
		return nil, errors.New("deup: kde on no points")
	}
	d := len(x[0])
	if err := checkPoints(x, d); err != nil {
		return nil, err
	}
	pts := make([][]float64, n)
	for i := range x {
		pts[i] = append([]float64(nil), x[i]...)
	}
	h := make([]float64, d)
	factor := math.Pow(float64(n), -1/float64(d+4))
	if rule == Silverman {
		factor *= math.Pow(4/float64(d+2), 1/float64(d+4))
	}
	col := make([]float64, n)
	for j := 0; j < d; j++ {
		for i := range pts {
			col[i] = pts[i][j]
		}
		_, sd := uq.MeanSD(col)
		if n < 2 || sd == 0 {
			h[j] = 1
		} else {
			h[j] = sd * factor
		}
	}
	k := &KDE{pts: pts, h: h}
	switch rule {
	case Scott, Silverman:
	case LikelihoodCV:
		if n > 1 {
			k.selectLCV()
		}
	default:
		return nil, fmt.Errorf("deup: unknown bandwidth rule %d", int(rule))
	}
	return k, nil
}

// Bandwidths returns the per-coordinate bandwidths (a copy).
func (k *KDE) Bandwidths() []float64 { return append([]float64(nil), k.h...) }

func (k *KDE) selectLCV() {
	base := append([]float64(nil), k.h...)
	bestC, bestLL := 1.0, math.Inf(-1)
	for g := 0; g <= 40; g++ {
		c := 0.05 * math.Pow(100, float64(g)/40)
		for j := range k.h {
			k.h[j] = base[j] * c
		}
		ll := 0.0
		for i := range k.pts {
			ll += k.logDensity(k.pts[i], i)
		}
		if ll > bestLL {
			bestLL, bestC = ll, c
		}
	}
	for j := range k.h {
		k.h[j] = base[j] * bestC
	}
}

// LogDensity returns log q(x), computed with log-sum-exp so it stays finite
// far from the data. It panics if len(x) differs from the fitted dimension.
func (k *KDE) LogDensity(x []float64) float64 { return k.logDensity(x, -1) }

// logDensity leaves out point skip (leave-one-out) when skip >= 0.
func (k *KDE) logDensity(x []float64, skip int) float64 {
	if len(x) != len(k.h) {
		panic("deup: kde: dimension mismatch")
	}
	logNorm := 0.0
	for _, h := range k.h {
		logNorm -= math.Log(h) + 0.5*math.Log(2*math.Pi)
	}
	maxE := math.Inf(-1)
	es := make([]float64, 0, len(k.pts))
	for i, p := range k.pts {
		if i == skip {
			continue
		}
		e := 0.0
		for j, h := range k.h {
			z := (x[j] - p[j]) / h
			e -= 0.5 * z * z
		}
		es = append(es, e)
		if e > maxE {
			maxE = e
		}
	}
	if len(es) == 0 || math.IsInf(maxE, -1) {
		return math.Inf(-1)
	}
	s := 0.0
	for _, e := range es {
		s += math.Exp(e - maxE)
	}
	return maxE + math.Log(s) - math.Log(float64(len(es))) + logNorm
}
