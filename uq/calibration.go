package uq

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// CalibrationLevels is the number of levels of MiscalibrationArea.
const CalibrationLevels = 100

// CalibrationPoint is one point of a calibration curve: at nominal level
// Expected, the fraction Observed of examples inside the central
// Expected-probability interval of their predictive Gaussian.
type CalibrationPoint struct {
	Expected float64 `json:"expected"`
	Observed float64 `json:"observed"`
}

// Levels returns n evenly spaced levels strictly inside (0, 1):
// k/(n+1), k = 1..n.
func Levels(n int) []float64 {
	p := make([]float64, n)
	for k := range p {
		p[k] = float64(k+1) / float64(n+1)
	}
	return p
}

// Calibration returns the calibration curve at the given levels (each in
// [0, 1]): for level p, the fraction of i with
// |y_i - mu_i| <= sigma_i * Phi^-1(0.5 + p/2). The comparison is made in
// that multiplied form, so sigma_i = 0 counts as inside exactly when
// y_i = mu_i. With no examples, or any NaN, every Observed is NaN.
func Calibration(y, mu, sigma, levels []float64) []CalibrationPoint {
	checkLen(y, mu, sigma)
	pts := make([]CalibrationPoint, len(levels))
	// t_i = |y_i - mu_i| / sigma_i, with 0/0 = 0 and r/0 = +Inf, so that
	// t_i <= q iff r_i <= sigma_i q for every finite q >= 0.
	t := make([]float64, len(y))
	bad := len(y) == 0
	for i := range y {
		r := math.Abs(y[i] - mu[i])
		switch {
		case math.IsNaN(r) || math.IsNaN(sigma[i]):
			bad = true
		case r == 0:
			t[i] = 0
		default:
			t[i] = r / sigma[i]
		}
	}
	sort.Float64s(t)
	for k, p := range levels {
		pts[k].Expected = p
		if bad {
			pts[k].Observed = math.NaN()
			continue
		}
		q := distuv.UnitNormal.Quantile(0.5 + p/2)
		// number of t_i <= q
		n := sort.Search(len(t), func(i int) bool { return t[i] > q })
		pts[k].Observed = float64(n) / float64(len(t))
	}
	return pts
}

// MiscalibrationArea is the "miscal_area" metric: the area between the
// calibration curve at Levels(CalibrationLevels) and the diagonal, over
// [1/101, 100/101] (see AreaFromDiagonal). 0 is perfect; the largest
// possible value is a little under 0.5.
func MiscalibrationArea(y, mu, sigma []float64) float64 {
	return AreaFromDiagonal(Calibration(y, mu, sigma, Levels(CalibrationLevels)))
}

// AreaFromDiagonal returns the area between the piecewise-linear curve
// through pts (sorted by Expected) and the diagonal Observed = Expected,
// from the first point's Expected to the last's: the trapezoid rule applied
// to |Observed - Expected|, with a segment whose ends lie on opposite sides
// of the diagonal split where it crosses, so the area is exact for the
// piecewise-linear curve. NaN if any point is NaN or there are fewer than
// two points.
func AreaFromDiagonal(pts []CalibrationPoint) float64 {
	if len(pts) < 2 {
		return math.NaN()
	}
	var area float64
	for k := 0; k+1 < len(pts); k++ {
		h := pts[k+1].Expected - pts[k].Expected
		d0 := pts[k].Observed - pts[k].Expected
		d1 := pts[k+1].Observed - pts[k+1].Expected
		a0, a1 := math.Abs(d0), math.Abs(d1)
		switch {
		case math.IsNaN(d0 + d1 + h):
			return math.NaN()
		case (d0 >= 0) == (d1 >= 0) || a0+a1 == 0:
			area += h * (a0 + a1) / 2
		default:
			// Two triangles meeting where d crosses zero.
			area += h * (a0*a0 + a1*a1) / (2 * (a0 + a1))
		}
	}
	return area
}
