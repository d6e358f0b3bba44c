package cli

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/campaign"
	"github.com/deup-screening/deup/active/surrogate"
	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/suggest"
	"github.com/deup-screening/deup/tui"
	"github.com/deup-screening/deup/tui/pairs"
)

// tuiCampaign runs the rounds of the campaign in a directory for deup tui:
// it implements tui.Campaign, joining package active/campaign to the UI
// (which imports neither it nor active). Each Round opens the campaign's ledger (so
// results imported meanwhile by 'deup campaign import-results' count, and
// the ledger is not locked while the UI merely browses), advances it exactly
// as 'deup campaign step' does, and closes it.
type tuiCampaign struct {
	dir     string
	sc      *drugcomb.Screen // the screen the UI browses: the campaign's drugs first
	kappa   float64          // weight of sigma_epistemic in the table's acquisition column, when the campaign's is not UCB
	screens campaign.Screens

	mu sync.Mutex // one round at a time (an active.State is not safe for concurrent use)
}

var _ tui.Campaign = (*tuiCampaign)(nil)

// newTUICampaign checks that the campaign in dir runs on sc (Screens.Same)
// and returns its rounds for deup tui.
func newTUICampaign(dir string, sc *drugcomb.Screen, kappa float64, screens campaign.Screens) (*tuiCampaign, error) {
	l, c, err := campaign.Open(dir)
	if err != nil {
		return nil, err
	}
	l.Close()
	if err := screens.Same(c.Config, sc); err != nil {
		return nil, err
	}
	return &tuiCampaign{dir: dir, sc: sc, kappa: kappa, screens: screens}, nil
}

// Round implements tui.Campaign: it proposes the next round (training the
// campaign's surrogate on every measured pair, reporting its stages and, for
// the network surrogates, every epoch) and records it in the ledger; a
// retrospective campaign also measures it from its screen. A live campaign
// whose round is still waiting for results runs nothing and says so. The
// result's Source holds the round's predictions for every open candidate
// and the screen's measured pairs; Marks are the suggestions.
func (tc *tuiCampaign) Round(ctx context.Context, progress func(tui.RoundProgress)) (tui.RoundResult, error) {
	res, err := tc.round(ctx, progress)
	return res, hint(err) // the UI shows the error as deup's command line says it
}

func (tc *tuiCampaign) round(ctx context.Context, progress func(tui.RoundProgress)) (tui.RoundResult, error) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	progress(tui.RoundProgress{Stage: "opening the campaign"})
	l, c, err := campaign.Open(tc.dir)
	if err != nil {
		return tui.RoundResult{}, err
	}
	defer l.Close()
	if err := tc.screens.Same(c.Config, tc.sc); err != nil {
		return tui.RoundResult{}, err
	}
	s, oracle, err := tc.screens.Parts(c)
	if err != nil {
		return tui.RoundResult{}, err
	}
	if rd := c.Open(); rd != nil && oracle == nil {
		return tui.RoundResult{Note: fmt.Sprintf("round %d is already open, waiting for %d of %d results: nothing run (export it with deup suggest --campaign %s, import results with deup campaign import-results)",
			rd.Index, len(rd.Suggestions)-len(rd.Measured), len(rd.Suggestions), tc.dir)}, nil
	}
	if c.Done() {
		return tui.RoundResult{Note: fmt.Sprintf("campaign complete: %d rounds, nothing left to run", len(c.Rounds()))}, nil
	}
	st := &stageReporter{progress: progress}
	prop, err := c.Step(ctx, st.wrap(surrogate.WithTrainProgress(s, st.epoch)), oracle)
	if err != nil {
		return tui.RoundResult{}, err
	}
	rd := c.Rounds()[len(c.Rounds())-1]
	if prop == nil {
		// A retrospective round left open by a crash: Step measured it.
		return tui.RoundResult{Note: fmt.Sprintf("round %d: measured its %d missing results from the screen", rd.Index, len(rd.Suggestions))}, nil
	}
	progress(tui.RoundProgress{Stage: "building the table"})
	res, err := tc.result(c, prop)
	if err != nil {
		return tui.RoundResult{}, err
	}
	if oracle == nil {
		res.Note = fmt.Sprintf("round %d: %d suggestions by %s recorded in the ledger and marked (B: batch, e: export); waiting for the lab's results",
			rd.Index, len(rd.Suggestions), rd.ModelVersion)
	} else {
		_, best := rd.Summary()
		res.Note = fmt.Sprintf("round %d: %d suggestions measured from the screen (best %.4g, best so far %.4g) and marked (B: batch)",
			rd.Index, len(rd.Suggestions), best, c.Best())
	}
	return res, nil
}

// result builds the UI's table from a proposal: the round's predictions on
// every candidate of the pool, plus the screen's measured pairs, with the
// suggestions marked.
func (tc *tuiCampaign) result(c *active.State, prop *active.Proposal) (tui.RoundResult, error) {
	bl, err := pairs.NewBuilder(tc.sc, len(prop.Pool), tc.kappa)
	if err != nil {
		return tui.RoundResult{}, err
	}
	if acq, err := active.ParseAcquisition(c.Config.Acquisition); err == nil && acq.Kind == active.UCB {
		bl.Kappa = acq.Kappa // the table's column is then the campaign's own UCB score
	}
	for i, p := range prop.Pool {
		q := prop.Preds[i]
		if err := bl.Add(p.A, p.B, p.CellLine, pairs.Scored{Mu: q.Mu, SigmaTotal: q.SigmaTotal, SigmaEpistemic: q.SigmaEpistemic,
			SigmaAleatoric: q.SigmaAleatoric, Acquisition: math.NaN()}); err != nil {
			return tui.RoundResult{}, err
		}
	}
	tab, err := bl.Build()
	if err != nil {
		return tui.RoundResult{}, err
	}
	tab.UseMorganSimilarity()
	keys := make([]pairs.Key, len(prop.Round.Suggestions))
	for i, sg := range prop.Round.Suggestions {
		keys[i] = pairs.Key{A: sg.Pair.A, B: sg.Pair.B, CellLine: sg.Pair.CellLine}
	}
	marks := tab.Find(keys)
	for j, m := range marks {
		if m < 0 {
			return tui.RoundResult{}, fmt.Errorf("suggestion %s is not in the table", c.PairName(prop.Round.Suggestions[j].Pair))
		}
	}
	res := tui.RoundResult{Suggested: len(prop.Round.Suggestions), Source: tab, Marks: marks}
	for _, s := range prop.Round.Suggestions {
		res.Reasons = append(res.Reasons, s.Reason)
	}
	return res, nil
}

// stageReporter turns a round's surrogate calls and network epochs into
// tui.RoundProgress reports. Every call comes from the goroutine running
// the round.
type stageReporter struct {
	progress func(tui.RoundProgress)
	stage    string
	networks int // networks trained in this stage so far
}

func (r *stageReporter) set(stage string) {
	r.stage, r.networks = stage, 0
	r.progress(tui.RoundProgress{Stage: stage})
}

// epoch reports one epoch of a network training.
func (r *stageReporter) epoch(p model.Progress) {
	if p.Done {
		r.networks++
		return
	}
	d := fmt.Sprintf("network %d, epoch %d/%d", r.networks+1, p.Epoch, p.MaxEpochs)
	if p.Members > 1 {
		d = fmt.Sprintf("member %d/%d, epoch %d/%d", p.Member+1, p.Members, p.Epoch, p.MaxEpochs)
	}
	if !math.IsNaN(p.ValRMSE) {
		d += fmt.Sprintf(", val RMSE %.3g", p.ValRMSE)
	}
	r.progress(tui.RoundProgress{Stage: r.stage, Done: p.Epoch, Total: p.MaxEpochs, Detail: d})
}

// wrap returns s reporting its stages (prefill, train, predict); it is a
// Prefiller exactly when s is.
func (r *stageReporter) wrap(s active.Surrogate) active.Surrogate {
	st := stagedSurrogate{Surrogate: s, r: r}
	if pf, ok := s.(active.Prefiller); ok {
		return stagedPrefiller{stagedSurrogate: st, pf: pf}
	}
	return st
}

type stagedSurrogate struct {
	active.Surrogate
	r *stageReporter
}

func (s stagedSurrogate) Fit(ctx context.Context, ev active.Evidence) error {
	s.r.set(fmt.Sprintf("train (round %d, %d pairs)", ev.Round, len(ev.Measured)))
	return s.Surrogate.Fit(ctx, ev)
}

func (s stagedSurrogate) Predict(ctx context.Context, ps []active.PairOnLine) ([]active.SurrogatePrediction, error) {
	s.r.set(fmt.Sprintf("predict (%d candidates)", len(ps)))
	return s.Surrogate.Predict(ctx, ps)
}

type stagedPrefiller struct {
	stagedSurrogate
	pf active.Prefiller
}

func (s stagedPrefiller) Prefill(ctx context.Context, initial []active.Measurement, seed uint64) ([]deup.Example, error) {
	s.r.set(fmt.Sprintf("prefill (Alg. 2 on %d initial pairs)", len(initial)))
	return s.pf.Prefill(ctx, initial, seed)
}

// suggestFiles is the UI's tui.Exporter: a batch is written as a
// suggestions file (package suggest), the files of deup suggest, in the
// format of the name's extension.
type suggestFiles struct{}

var _ tui.Exporter = suggestFiles{}

func (suggestFiles) Check(path string) error {
	if _, err := suggest.FormatOf(path); err != nil {
		return errors.New("use a name ending in .csv, .parquet or .json")
	}
	return nil
}

// Export writes batch with every prediction rounded to exportDigits
// significant digits, as deup predict writes them: the UI's values are a
// float32 network's outputs widened to float64, whose shortest float64
// form carries the widening's noise (-71.66678619384766 for -71.66679).
func (suggestFiles) Export(path string, batch []tui.Pick) error {
	out := make([]suggest.Suggestion, len(batch))
	r := roundDigits
	for i, p := range batch {
		out[i] = suggest.Suggestion{Rank: p.Rank, DrugA: p.DrugA, DrugB: p.DrugB, CellLine: p.CellLine,
			Mu: r(p.Mu), SigmaTotal: r(p.SigmaTotal), SigmaEpistemic: r(p.SigmaEpistemic), SigmaAleatoric: r(p.SigmaAleatoric),
			Acquisition: r(p.Acquisition), Reason: p.Reason}
		if p.Interval != nil {
			out[i].Interval = &suggest.Interval{Lower: r(p.Interval.Lower), Upper: r(p.Interval.Upper)}
		}
	}
	return suggest.WriteFile(path, out)
}

// exportDigits are the significant digits of the UI's exported
// predictions: those of deup predict's CSV (predict.Create).
const exportDigits = 7

// roundDigits rounds x to exportDigits significant digits (NaN and
// infinities unchanged).
func roundDigits(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', exportDigits, 64), 64)
	if err != nil {
		return x
	}
	return v
}
