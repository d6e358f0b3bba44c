package methods

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
	"github.com/deup-screening/deup/model/neighbors"
	"github.com/deup-screening/deup/uq"
)

// printer writes formatted lines to w and keeps the first write error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, a ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, a...)
	}
}

// WriteText says, in deup train's words, which pairs h holds out for the
// calibration and how it splits the rest: split is the split as written
// (--split), calFrac the calibration fraction (--calibration) and seed the
// seed of h.
func (h Holdout) WriteText(w io.Writer, split string, calFrac float64, seed uint64) error {
	p := &printer{w: w}
	n := len(h.Cal) + len(h.Rest)
	if len(h.Cal) > 0 {
		p.printf("calibration: %d of %d pairs (--calibration %v, seed %d) held out before the split, never seen by mu or sigma\n", len(h.Cal), n, calFrac, seed)
	} else {
		p.printf("calibration: none (--calibration 0): the model gives no intervals (deup predict --coverage)\n")
	}
	by := ""
	if h.OOSBy != "" && h.OOSBy != drugcomb.ByPairs {
		by = ", drawn by " + h.OOSBy
	}
	if h.Benchmark() {
		p.printf("split %s (seed %d): train %d, validation %d (sigma path, early stopping%s), test %d (never seen in training)\n",
			split, seed, len(h.Split.Train), len(h.Split.Val), by, len(h.Split.Test))
	} else {
		p.printf("split %s (seed %d) of the other %d pairs: %d in-sample (mu fitted), %d out-of-sample (sigma path, early stopping%s)\n",
			split, seed, len(h.Rest), len(h.Split.Train), len(h.Split.Val), by)
	}
	return p.err
}

// WriteText writes the report of m's fit with holdout h in deup train's
// words: the epochs and time, the sigma features of m's DEUP (deup's or
// deup-neighbors' inner one), the validation (or
// out-of-sample) RMSE against the trivial references, the test scores
// under a benchmark split, the method's aleatoric note, the calibration
// stored and its test coverage.
func (r *Report) WriteText(w io.Writer, m model.Method, h Holdout) error {
	p := &printer{w: w}
	part := "out-of-sample"
	if h.Benchmark() {
		part = "validation"
	}
	chose := "the stopping epoch"
	epochs := fmt.Sprintf("%d epochs in all (last run: %d, best epoch %d) in %s (%.3f s/epoch, BLAS %s)",
		r.Epochs, r.LastEpoch, r.BestEpoch, r.FitTime.Round(time.Millisecond), r.FitTime.Seconds()/float64(max(r.Epochs, 1)), model.BLAS())
	switch c := m.(type) {
	case *neighbors.Method: // no epochs: a K chosen from a grid
		chose = "K"
		p.printf("trained %s: K = %d neighbours, chosen from %s on the %s RMSE, in %s\n",
			m.Name(), c.K(), kList(), part, r.FitTime.Round(time.Millisecond))
	case *neighbors.Stacked:
		p.printf("trained %s: the neighbour estimate at K = %d (from %s), then %s on its residuals: %s\n",
			m.Name(), c.K(), kList(), c.Inner().Name(), epochs)
	default:
		p.printf("trained %s: %s\n", m.Name(), epochs)
	}
	if sf := sigmaFeatures(m); sf != (deupnet.SigmaFeatures{}) {
		p.printf("sigma features: %s, relative to the %d in-sample pairs (docs/sigma-features.md)\n", sf, len(h.Split.Train))
	}
	p.printf("%s RMSE %.4g on %d pairs; trivial references: predicting the in-sample mean %.4g, %s\n",
		part, r.ValRMSE, len(h.Split.Val), r.ValRefs.MeanRMSE, r.ValRefs.noiseText())
	if h.Benchmark() {
		p.printf("test RMSE %.4g on %d pairs (predicting the training mean: %.4g); corr(sigma_total, |residual|) on test %.3f\n",
			r.TestRMSE, len(h.Split.Test), r.TestMeanRMSE, r.TestCorr)
	} else {
		p.printf("note: the out-of-sample pairs chose %s, so this RMSE is slightly optimistic; --split 40/30/30 gives an unseen test score\n", chose)
	}
	p.printf("%s\n", m.AleatoricNote())
	if cal := r.Calibration; cal != nil {
		lo, hi, _ := cal.Interval(0, 1, 0.9)
		unit := " sigma_total" // a conformal interval's half-width is in the score's units
		if cal.Method == uq.MethodConformal {
			unit = ""
		}
		p.printf("calibration stored: %s; at 90%% coverage the interval is mu ± %.4g%s (deup predict --coverage 0.9)\n", cal, (hi-lo)/2, unit)
	}
	if im := r.TestIntervals; im != nil {
		p.printf("test: the stored 90%% interval covers %.1f%% of the %d test pairs (mean width %.4g; worst sigma-quintile coverage %.1f%%)\n",
			im.Coverage, im.N, im.Width, im.WorstQuintileCoverage)
	}
	return p.err
}

// sigmaFeatures are the σ features of m's DEUP network: m's own for
// DEUP, its inner model's for a stacked method; none for any other.
func sigmaFeatures(m model.Method) deupnet.SigmaFeatures {
	switch c := m.(type) {
	case *deupnet.DEUP:
		return c.SigmaFeatures()
	case *neighbors.Stacked:
		return sigmaFeatures(c.Inner())
	}
	return deupnet.SigmaFeatures{}
}

// kList writes the neighbour counts neighbors.Fit tries, as "5, 10, 20
// or 40".
func kList() string {
	s := make([]string, len(neighbors.Ks))
	for i, k := range neighbors.Ks {
		s[i] = strconv.Itoa(k)
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// noiseText says the replicate noise reference.
func (r Refs) noiseText() string {
	if r.ReplPairs == 0 {
		return "replicate noise unknown (no pair measured twice)"
	}
	return fmt.Sprintf("replicate noise sd %.4g (%d pairs measured more than once)", r.NoiseSD, r.ReplPairs)
}
