package uq

import (
	"fmt"
	"math"

	"github.com/deup-screening/deup/internal/moments"
)

// metricFields lists the float metrics of m in table order with their
// names (the JSON keys), as pointers into m.
func metricFields(m *Metrics) []struct {
	name string
	v    *float64
} {
	return []struct {
		name string
		v    *float64
	}{
		{"corr", &m.Corr}, {"upper_bound", &m.UpperBound}, {"ratio", &m.Ratio},
		{"loglik", &m.LogLik}, {"coverage", &m.Coverage}, {"ci_width", &m.CIWidth},
		{"spearman", &m.Spearman}, {"rmse", &m.RMSE}, {"pearson_mu", &m.PearsonMu},
		{"crps", &m.CRPS}, {"miscal_area", &m.MiscalArea}, {"sharpness", &m.Sharpness},
	}
}

// Names returns the metric names in table order (the paper's six first).
func Names() []string {
	var m Metrics
	fs := metricFields(&m)
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.name
	}
	return out
}

// Get returns the metric with the given name (one of Names).
func (m Metrics) Get(name string) (float64, bool) {
	for _, f := range metricFields(&m) {
		if f.name == name {
			return *f.v, true
		}
	}
	return math.NaN(), false
}

// MeanSD returns the mean and the sample standard deviation (n-1
// denominator) of x: the module's one mean and sd (PopMeanSD its
// population twin), implemented in internal/moments, whose doc states the
// rule for degenerate samples (no value: both NaN; one value: the value and
// NaN; NaN propagates) and the formula.
func MeanSD(x []float64) (mean, sd float64) { return moments.MeanSD(x) }

// MeanScale is x's mean and sample sd (MeanSD), the sd replaced by 1
// where it is not positive (fewer than two values, or all equal): the
// scale that standardizes x (DUE's and the GP's targets).
func MeanScale(x []float64) (mean, scale float64) { return moments.MeanScale(x) }

// PopMeanSD returns the mean and the population standard deviation (n
// denominator) of x, summed as MeanSD sums: both NaN for no value; for one
// value the value and 0.
func PopMeanSD(x []float64) (mean, sd float64) { return moments.PopMeanSD(x) }

// Summary is a metric table row over seeds: mean and sample standard
// deviation of each metric over N runs.
type Summary struct {
	N    int     `json:"n"` // number of runs (seeds)
	Mean Metrics `json:"mean"`
	SD   Metrics `json:"sd"`
}

// Aggregate summarizes runs (one Metrics per seed) with MeanSD per metric.
// Mean.N and SD.N hold the mean number of examples per run and 0.
func Aggregate(runs []Metrics) Summary {
	s := Summary{N: len(runs)}
	mf, sf := metricFields(&s.Mean), metricFields(&s.SD)
	x := make([]float64, len(runs))
	for k := range mf {
		for i := range runs {
			x[i] = *metricFields(&runs[i])[k].v
		}
		*mf[k].v, *sf[k].v = MeanSD(x)
	}
	n := 0
	for _, r := range runs {
		n += r.N
	}
	if len(runs) > 0 {
		s.Mean.N = n / len(runs)
	}
	return s
}

// Format returns "mean ± sd" of the named metric with prec digits after
// the point ("0.47 ± 0.03"); "n/a" for NaN parts; "" for an unknown name.
func (s Summary) Format(name string, prec int) string {
	m, ok := s.Mean.Get(name)
	if !ok {
		return ""
	}
	sd, _ := s.SD.Get(name)
	return fmt.Sprintf("%s ± %s", fmtNum(m, prec), fmtNum(sd, prec))
}

func fmtNum(v float64, prec int) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf("%.*f", prec, v)
}
