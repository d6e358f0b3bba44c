package deupnet

import (
	"fmt"
	"math"

	"github.com/deup-screening/deup/model"
	"gonum.org/v1/gonum/stat"
)

// BoundMultiple is the stated multiple of the bound on σ_total (sigmaBound).
const BoundMultiple = 3.0

// sigmaBound is what the data can support of σ (issue 43): on a pair of
// line l about which the model knew nothing, the error of μ would be that
// of a random draw of the line's scores, whose root mean square is
//
//	B_l(μ) = sqrt(sd_l² + (μ − mean_l)²)
//
// with mean_l and sd_l the mean and population standard deviation of the
// line's in-sample targets (D_in; a line without them takes those of all
// of D_in). σ_total above B_l(μ) claims less than knowing nothing, so
// Predict caps σ_total at BoundMultiple·B_l(μ), σ_aleatoric at the same,
// and σ_epistemic² = σ_total² − σ_aleatoric² with them. Values are in
// standardized target units. A file written before the bound has none and
// predicts as it did.
type sigmaBound struct {
	Mean []float64 `json:"mean"` // per line
	SD   []float64 `json:"sd"`
	// AllMean, AllSD are over every D_in pair: a line without D_in pairs
	// (a line of --cell-features only) takes them.
	AllMean float64 `json:"all_mean"`
	AllSD   float64 `json:"all_sd"`
	K       float64 `json:"k"` // BoundMultiple when fitted
}

// fitBound computes the bound from the targets of the pairs train (D_in)
// of d, standardized by mean and sd.
func fitBound(d *model.Dataset, train []int, mean, sd float64) *sigmaBound {
	if len(train) == 0 || !(sd > 0) {
		return nil
	}
	nl := d.Lines()
	by := make([][]float64, nl)
	all := make([]float64, 0, len(train))
	for _, i := range train {
		z := (d.Y[i] - mean) / sd
		by[d.Pairs[i].Line] = append(by[d.Pairs[i].Line], z)
		all = append(all, z)
	}
	b := &sigmaBound{Mean: make([]float64, nl), SD: make([]float64, nl), K: BoundMultiple}
	b.AllMean, b.AllSD = stat.PopMeanStdDev(all, nil)
	for l, ys := range by {
		b.Mean[l], b.SD[l] = b.AllMean, b.AllSD
		if len(ys) >= 2 {
			b.Mean[l], b.SD[l] = stat.PopMeanStdDev(ys, nil)
		}
	}
	return b
}

// limit is K·B_l(μ) (standardized units) for a pair of line l with mean μ.
func (b *sigmaBound) limit(l int, mu float64) float64 {
	m, s := b.AllMean, b.AllSD
	if l >= 0 && l < len(b.Mean) {
		m, s = b.Mean[l], b.SD[l]
	}
	return b.K * math.Hypot(s, mu-m)
}

// apply caps p (target units; sd the standardization's) as the type says.
func (b *sigmaBound) apply(p *model.Prediction, l int, mean, sd float64) {
	lim := b.limit(l, (p.Mu-mean)/sd) * sd
	if !(p.SigmaTotal > lim) {
		return
	}
	p.SigmaTotal = lim
	p.SigmaAleatoric = min(p.SigmaAleatoric, lim)
	p.SigmaEpistemic = math.Sqrt(max(lim*lim-p.SigmaAleatoric*p.SigmaAleatoric, 0))
}

// check validates a bound read from a file for a model of lines lines.
func (b *sigmaBound) check(lines int) error {
	ok := len(b.Mean) == len(b.SD) && len(b.Mean) <= max(lines, 1) && b.K > 0 && !math.IsInf(b.K, 0) &&
		b.AllSD >= 0 && !math.IsInf(b.AllSD, 0) && !math.IsNaN(b.AllMean) && !math.IsInf(b.AllMean, 0)
	for l := range b.Mean {
		ok = ok && b.SD[l] >= 0 && !math.IsInf(b.SD[l], 0) && !math.IsNaN(b.Mean[l]) && !math.IsInf(b.Mean[l], 0)
	}
	if !ok {
		return fmt.Errorf("sigma bound: %d means, %d sds for %d lines, k %v", len(b.Mean), len(b.SD), lines, b.K)
	}
	return nil
}

// SigmaNote says how σ is bounded, for the TUI's pair detail ("" for a
// model file without the bound).
func (m *DEUP) SigmaNote() string {
	if m.bound == nil {
		return ""
	}
	return fmt.Sprintf("σ_total ≤ %g·√(sd_line² + (μ − mean_line)²), the line's training scores: more would claim less than knowing nothing", m.bound.K)
}

// note says the bound for AleatoricNote ("" without one).
func (b *sigmaBound) note() string {
	if b == nil {
		return ""
	}
	return fmt.Sprintf("; sigma_total at most %g x sqrt(sd_line^2 + (mu - mean_line)^2), the line's training scores", b.K)
}

// LineFeatures of the network (model.LineAdder).
func (m *DEUP) LineFeatures() [][]float64 { return m.cfg.Config.LineFeatures() }

// AddLines gives the trained network the lines of x (model.LineAdder): a
// new line has no D_in pairs, so its σ features, aleatoric level and bound
// are those of a line without measurements.
func (m *DEUP) AddLines(x [][]float64) error {
	if !m.trained {
		return fmt.Errorf("model: add lines: model is not trained")
	}
	c, err := m.net.AddLines(x)
	if err != nil {
		return err
	}
	m.cfg.Config, m.fwd = c, model.NewForwarder(m.net)
	return nil
}
