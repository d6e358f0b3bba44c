package bench

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/uq"
)

// PerLine is the reference row of a panel (a screen with several cell
// lines): one model per line, trained on that line's pairs of the seed's
// train and validation split alone and scored on the same test pairs as
// every other row (Config.PerLineReference). Each line's model is the
// two-tower mean network μ alone (the paper's sizes, the one-line training
// settings: batch 64, patience 25), trained with squared error as an
// ensemble member is and early-stopped on the line's validation pairs; its
// σ is one number per line, the RMSE of μ on that line's validation pairs
// (the constant row's recipe, per line). So it answers how well μ does
// from one line's data; its per-line corr is undefined (null: σ is
// constant within a line), its pooled corr only ranks lines.
//
// Why not a DEUP per line: 43 lines × 3 seeds of DEUP trainings (σ steps
// beside every μ step, the σ refit, the novelty fold where it matters)
// cost about 12 CPU-s each on the NCI-ALMANAC panel (estimated; μ alone
// 5.5), and the budget (4 methods, 3 seeds and the reference in
// 10 minutes on 2 cores) does not hold them (docs/panel.md).
const PerLine = "per-line"

// LineScore is one cell line's part of a row's test predictions under one
// seed: corr(σ, |y − μ|), the RMSE of μ, the ±1σ coverage (percent) and
// the number of test pairs N.
type LineScore struct {
	Corr, RMSE, Coverage float64
	N                    int
}

// scoreLines scores the test predictions of each cell line (lines[k] is
// the line of test pair k; nl lines). A line without test pairs gets NaN
// and N = 0.
func scoreLines(lines []int, nl int, y, mu, sigma []float64) []LineScore {
	idx := make([][]int, nl)
	for k, l := range lines {
		idx[l] = append(idx[l], k)
	}
	out := make([]LineScore, nl)
	for l, ks := range idx {
		out[l] = LineScore{Corr: math.NaN(), RMSE: math.NaN(), Coverage: math.NaN(), N: len(ks)}
		if len(ks) == 0 {
			continue
		}
		yl, ml, sl := valuesOf(y, ks), valuesOf(mu, ks), valuesOf(sigma, ks)
		out[l].RMSE = uq.RMSE(yl, ml)
		out[l].Coverage = uq.Coverage(yl, ml, sl)
		if len(ks) > 2 {
			out[l].Corr = uq.Pearson(uq.Residuals(nil, yl, ml), sl)
		}
	}
	return out
}

// lineMetric is one per-line metric of a row over the seeds: for line l,
// the per-seed values of corr, rmse, coverage or n.
func (r *Row) lineMetric(l int, name string) []float64 {
	out := make([]float64, len(r.Lines))
	for s, ls := range r.Lines {
		v := ls[l]
		out[s] = map[string]float64{"corr": v.Corr, "rmse": v.RMSE, "coverage": v.Coverage, "n": float64(v.N)}[name]
	}
	return out
}

// perLineJSON is methods.NAME.per_line: {LINE: {corr, rmse, coverage, n}},
// each a stat over the seeds.
func (r *Row) perLineJSON(names []string) map[string]map[string]stat {
	out := map[string]map[string]stat{}
	for l, name := range names {
		m := map[string]stat{}
		for _, k := range []string{"corr", "rmse", "coverage", "n"} {
			m[k] = newStat(r.lineMetric(l, k))
		}
		out[name] = m
	}
	return out
}

// LineSummary condenses a row's per-line scores (means over seeds first,
// per line): the mean over lines of corr, the worst line's coverage (the
// one farthest from the Gaussian 68.3 %) and, against a reference row,
// on how many lines this row's RMSE is lower.
type LineSummary struct {
	MeanCorr      float64
	WorstCoverage float64
	WorstLine     string
	Better, Lines int // lines with a lower RMSE than the reference; lines compared
}

// Summarize returns the row's LineSummary against the row ref (nil: no
// comparison) with the cell-line names of the result.
func (r *Result) Summarize(row, ref *Row) LineSummary {
	s := LineSummary{WorstCoverage: math.NaN()}
	var corr []float64
	worst := -1.0
	for l, name := range r.LineNames {
		if c := mean(finite(row.lineMetric(l, "corr"))); !math.IsNaN(c) {
			corr = append(corr, c)
		}
		cov := mean(finite(row.lineMetric(l, "coverage")))
		if d := math.Abs(cov - 68.27); !math.IsNaN(cov) && d > worst {
			worst, s.WorstCoverage, s.WorstLine = d, cov, name
		}
		if ref != nil {
			a, b := mean(finite(row.lineMetric(l, "rmse"))), mean(finite(ref.lineMetric(l, "rmse")))
			if !math.IsNaN(a) && !math.IsNaN(b) {
				s.Lines++
				if a < b {
					s.Better++
				}
			}
		}
	}
	s.MeanCorr = mean(corr)
	return s
}

func mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	m, _ := uq.MeanSD(x)
	return m
}

// writeLineTable writes the per-line summary of a panel: per row the
// pooled RMSE and corr, the mean per-line corr, the pooled coverage, the
// worst line's coverage and the lines it beats the per-line reference on.
func (r *Result) writeLineTable(b *strings.Builder) {
	if len(r.LineNames) < 2 {
		return
	}
	ref := r.Row(PerLine)
	fmt.Fprintf(b, "\nPer cell line (%d lines; means over seeds):\n\n", len(r.LineNames))
	fmt.Fprintf(b, "| method | rmse (pooled) | corr (pooled) | mean per-line corr | coverage (pooled) | worst line coverage | lines with lower rmse than per-line |\n")
	fmt.Fprintf(b, "|---|---|---|---|---|---|---|\n")
	for i := range r.Rows {
		row := &r.Rows[i]
		if row.Lines == nil {
			continue
		}
		rr := ref
		if row.Method == PerLine {
			rr = nil
		}
		s := r.Summarize(row, rr)
		better := "-"
		if rr != nil {
			better = fmt.Sprintf("%d of %d", s.Better, s.Lines)
		}
		meanCorr := "n/a" // σ constant within every line
		if !math.IsNaN(s.MeanCorr) {
			meanCorr = fmt.Sprintf("%.3f", s.MeanCorr)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %.1f (%s) | %s |\n", row.Method, pm(row.metric("rmse"), 2), pm(row.metric("corr"), 3),
			meanCorr, pm(row.metric("coverage"), 1), s.WorstCoverage, s.WorstLine, better)
	}
}

// PerLinePatience is the early-stopping patience, in epochs, of the
// per-line reference's networks (the one-line default is 25; --patience
// sets both). A line's ~530 training pairs are 9 steps of 64 per epoch;
// on the NCI-ALMANAC panel the validation RMSE of a line's network is at
// its best after 2–44 epochs (median 9), and in 16 of 129 trainings (43
// lines, seeds 1–3) it improved again after more than 10 epochs without
// improvement: patience 25 spent over a third of the reference's epochs
// confirming a minimum it had already found, and the reference was 41 %
// of the benchmark's CPU (docs/panel.md). Chosen after looking at those
// validation curves, never at test pairs.
const PerLinePatience = 10

// lineDataset is the pairs of d measured on line l as a one-line dataset
// (local index k is d's pair at[k]), and split restricted to them.
func lineDataset(d *model.Dataset, l int, split drugcomb.Split) (*model.Dataset, drugcomb.Split, []int) {
	sub := &model.Dataset{Features: d.Features}
	local := map[int]int{}
	var at []int
	for i, p := range d.Pairs {
		if p.Line != l {
			continue
		}
		local[i] = len(sub.Pairs)
		at = append(at, i)
		sub.Pairs = append(sub.Pairs, model.PairRef{A: p.A, B: p.B})
		sub.Y = append(sub.Y, d.Y[i])
		if d.N != nil {
			sub.N = append(sub.N, d.N[i])
		}
		if d.Var != nil {
			sub.Var = append(sub.Var, d.Var[i])
		}
	}
	keep := func(idx []int) []int {
		var out []int
		for _, i := range idx {
			if k, ok := local[i]; ok {
				out = append(out, k)
			}
		}
		return out
	}
	return sub, drugcomb.Split{Train: keep(split.Train), Val: keep(split.Val), Test: keep(split.Test)}, at
}

// runPerLine trains the per-line reference of line l on one seed's split
// and writes its predictions of the line's test and validation pairs into
// test and val (aligned with split.Test and split.Val). A line with no
// test pair is skipped; one without enough training or validation pairs
// is an error (the reference needs the line in every part of the split).
func runPerLine(ctx context.Context, d *model.Dataset, cfg Config, seed uint64, split drugcomb.Split, l int, test, val []model.Prediction, progress func(model.Progress)) (float64, error) {
	sub, ss, at := lineDataset(d, l, split)
	if len(ss.Test) == 0 {
		return 0, nil
	}
	if len(ss.Train) < 3 || len(ss.Val) < 3 {
		return 0, fmt.Errorf("bench: %s, seed %d, line %s: %d training and %d validation pairs (the per-line reference needs the line in training)", PerLine, seed, d.LineNames[l], len(ss.Train), len(ss.Val))
	}
	mc := cfg.Model
	mc.Seed = seed
	m := model.NewEnsemble(mc, 1, false)
	t0 := time.Now()
	if err := m.Fit(ctx, sub, ss, progress); err != nil {
		return 0, fmt.Errorf("bench: %s, seed %d, line %s: %w", PerLine, seed, d.LineNames[l], err)
	}
	pos := map[int]int{}
	for k, i := range split.Test {
		pos[i] = k
	}
	for k, i := range split.Val {
		pos[-1-i] = k
	}
	var preds [2][]model.Prediction
	for k, idx := range [2][]int{ss.Val, ss.Test} {
		var err error
		if preds[k], err = m.Predict(sub.Features, sub.PairsAt(idx)); err != nil {
			return 0, fmt.Errorf("bench: %s, seed %d, line %s: predict: %w", PerLine, seed, d.LineNames[l], err)
		}
	}
	// σ: the line's validation RMSE of μ.
	var se float64
	for k, i := range ss.Val {
		r := preds[0][k].Mu - sub.Y[i]
		se += r * r
	}
	s := math.Sqrt(se / float64(len(ss.Val)))
	for _, pr := range preds {
		for k := range pr {
			pr[k] = model.Prediction{Mu: pr[k].Mu, SigmaTotal: s, SigmaEpistemic: s}
		}
	}
	for _, part := range []struct {
		idx  []int
		out  []model.Prediction
		neg  bool
		pred []model.Prediction
	}{{ss.Test, test, false, preds[1]}, {ss.Val, val, true, preds[0]}} {
		pred := part.pred
		for k, i := range part.idx {
			g := at[i]
			if part.neg {
				part.out[pos[-1-g]] = pred[k]
			} else {
				part.out[pos[g]] = pred[k]
			}
		}
	}
	return time.Since(t0).Seconds(), nil
}
