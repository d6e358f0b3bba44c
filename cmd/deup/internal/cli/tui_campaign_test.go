package cli

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/campaign"
	"github.com/deup-screening/deup/active/ledger"
	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/tui"
)

// roundLog collects a round's progress reports.
type roundLog struct{ reports []tui.RoundProgress }

func (r *roundLog) add(p tui.RoundProgress) { r.reports = append(r.reports, p) }

func (r *roundLog) stages() []string {
	var out []string
	for _, p := range r.reports {
		s, _, _ := strings.Cut(p.Stage, " ")
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}

// TestTUICampaignLive runs R on a live campaign over the synthetic default
// screen (the fast "deup-ridge" surrogate on identity features, batch 5): the
// round yields 5 unmeasured pairs, marked in the new table, recorded in the
// ledger exactly as 'deup campaign step' records it on an identical
// campaign; a second R runs nothing while the round awaits results.
func TestTUICampaignLive(t *testing.T) {
	sc, err := data.Synth(data.DefaultSynth(synthSeed))
	if err != nil {
		t.Fatal(err)
	}
	cl := sc.CellLines[0]
	dirUI, dirCLI := filepath.Join(t.TempDir(), "ui"), filepath.Join(t.TempDir(), "cli")
	for _, d := range []string{dirUI, dirCLI} {
		mustRun(t, "campaign", "init", "--cell-line", cl, "--model", "deup-ridge", "--features", "identity", "--batch", "5", d)
	}
	tc, err := newTUICampaign(dirUI, sc, 1, campaignScreens())
	if err != nil {
		t.Fatal(err)
	}
	var log roundLog
	res, err := tc.Round(context.Background(), log.add)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := log.stages(), []string{"opening", "prefill", "train", "predict", "building"}; !slices.Equal(got, want) {
		t.Errorf("stages %v, want %v", got, want)
	}
	if !strings.Contains(res.Note, "round 1: 5 suggestions") || !strings.Contains(res.Note, "waiting for the lab's results") {
		t.Errorf("note %q", res.Note)
	}
	measured, _, err := active.ScreenTable(sc, 0, cl)
	if err != nil {
		t.Fatal(err)
	}
	l, c, err := campaign.Open(dirUI)
	if err != nil {
		t.Fatal(err)
	}
	sgs := campaign.Suggestions(c, c.Rounds()[len(c.Rounds())-1])
	l.Close()
	if res.Suggested != 5 || len(sgs) != 5 || len(res.Marks) != 5 || len(res.Reasons) != 5 || res.Source == nil {
		t.Fatalf("%d suggested (%d in the ledger), %d marks, %d reasons, source %v; want 5, 5, 5, 5 and a table", res.Suggested, len(sgs), len(res.Marks), len(res.Reasons), res.Source != nil)
	}
	seen := map[active.PairOnLine]bool{}
	for i, s := range sgs {
		if res.Reasons[i] != s.Reason {
			t.Errorf("mark %d: reason %q, the ledger's %q", i, res.Reasons[i], s.Reason)
		}
		r := res.Source.Row(res.Marks[i])
		p := active.NewPairOnLine(r.A, r.B, r.CellLine)
		if sc.Drugs[r.A].ID != s.DrugA.ID || sc.Drugs[r.B].ID != s.DrugB.ID || sc.CellLines[r.CellLine] != s.CellLine || s.CellLine != cl {
			t.Errorf("mark %d is %s+%s on %s, suggestion %s+%s on %s", i, sc.Drugs[r.A].ID, sc.Drugs[r.B].ID, sc.CellLines[r.CellLine], s.DrugA.ID, s.DrugB.ID, s.CellLine)
		}
		if r.IsMeasured() || !math.IsNaN(r.Measured) {
			t.Errorf("suggestion %d (%s) is a measured pair", i, s.DrugA.Name+"+"+s.DrugB.Name)
		}
		if _, ok := measured[p]; ok {
			t.Errorf("suggestion %d %v is measured in the screen", i, p)
		}
		if seen[p] {
			t.Errorf("suggestion %d %v twice", i, p)
		}
		seen[p] = true
		if float32(r.Mu) != float32(s.Mu) || float32(r.SigmaEpistemic) != float32(s.SigmaEpistemic) || s.Rank != i+1 || s.Reason == "" {
			t.Errorf("suggestion %d: row mu %v sigma_epi %v, suggestion %+v", i, r.Mu, r.SigmaEpistemic, s)
		}
	}
	// Every open candidate has the round's prediction in the table.
	predicted := 0
	for i := range res.Source.Len() {
		if !math.IsNaN(res.Source.Row(i).Mu) {
			predicted++
		}
	}

	// The ledger holds the round, as deup campaign step records it.
	mustRun(t, "campaign", "step", dirCLI)
	evUI, evCLI := ledgerEvents(t, dirUI), ledgerEvents(t, dirCLI)
	kinds := func(evs []ledger.Event) []string {
		var k []string
		for _, e := range evs {
			k = append(k, string(e.Kind))
		}
		return k
	}
	if got, want := kinds(evUI), kinds(evCLI); !slices.Equal(got, want) || !slices.Equal(got, []string{"init", "prefill", "suggest"}) {
		t.Fatalf("ledger events %v, deup campaign step wrote %v", got, want)
	}
	su, sc2 := evUI[2], evCLI[2]
	if su.ModelVersion != sc2.ModelVersion || su.Round != 1 || su.Extra != sc2.Extra || len(su.Records) != 5 {
		t.Errorf("suggest event: UI round %d by %s (%s), CLI round %d by %s (%s)", su.Round, su.ModelVersion, su.Extra, sc2.Round, sc2.ModelVersion, sc2.Extra)
	}
	for i := range su.Records {
		a, b := su.Records[i], sc2.Records[i]
		if a.A != b.A || a.B != b.B || a.CellLine != b.CellLine || a.Rank != b.Rank || a.Mu != b.Mu || a.Score != b.Score || a.Reason != b.Reason {
			t.Errorf("suggestion %d: UI %+v, CLI %+v", i, a, b)
		}
	}
	l, c, err = campaign.Open(dirUI)
	if err != nil {
		t.Fatal(err)
	}
	if predicted != len(c.Pool())+5 {
		t.Errorf("%d rows with a prediction, want the %d candidates of round 1 (pool %d + 5 suggested)", predicted, len(c.Pool())+5, len(c.Pool()))
	}
	l.Close()

	// A second R: the round awaits results; nothing is run or written.
	log = roundLog{}
	res, err = tc.Round(context.Background(), log.add)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Note, "round 1 is already open, waiting for 5 of 5 results: nothing run") || res.Source != nil || res.Marks != nil {
		t.Errorf("second round: %+v", res)
	}
	if n := len(ledgerEvents(t, dirUI)); n != 3 {
		t.Errorf("%d ledger events after the second R, want 3", n)
	}
}

// TestTUICampaignRetrospective: R on a retrospective campaign proposes and
// measures a round from the screen (as deup campaign step), until the
// configured rounds are done.
func TestTUICampaignRetrospective(t *testing.T) {
	screen := campaignScreenDir(t)
	dir := filepath.Join(t.TempDir(), "c")
	mustRun(t, "campaign", "init", "--screen", screen, "--mode", "retrospective", "--init", "40", "--batch", "4", "--rounds", "2", "--model", "deup-ridge", "--features", "identity", dir)
	sc, err := drugcomb.Open(screen)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := newTUICampaign(dir, sc, 1, campaignScreens())
	if err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 3; round++ {
		res, err := tc.Round(context.Background(), func(tui.RoundProgress) {})
		if err != nil {
			t.Fatal(err)
		}
		l, c, err := campaign.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		n := len(c.Rounds())
		l.Close()
		switch {
		case round <= 2 && (n != round || res.Suggested != 4 || !strings.Contains(res.Note, "measured from the screen") || !c.Rounds()[n-1].Complete()):
			t.Errorf("R %d: %d rounds in the ledger, %d suggestions, note %q", round, n, res.Suggested, res.Note)
		case round == 3 && (n != 2 || !strings.Contains(res.Note, "campaign complete: 2 rounds")):
			t.Errorf("R %d: %d rounds, note %q", round, n, res.Note)
		}
	}
}

// TestTUICampaignScreen: a campaign opens only on its own screen.
func TestTUICampaignScreen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	sc, err := data.Synth(data.DefaultSynth(synthSeed))
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, "campaign", "init", "--cell-line", sc.CellLines[0], "--model", "deup-ridge", "--features", "identity", "--batch", "5", dir)
	other := campaignScreenDir(t)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"not a campaign", []string{"--campaign", t.TempDir()}, "is not a campaign directory (no ledger)"},
		{"other screen", []string{"--campaign", dir, "--screen", other}, "the campaign runs on 60 drugs, the screen"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := run(t, append([]string{"tui"}, tc.args...)...)
			if code != 1 || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d, stdout %q stderr:\n%s\nwant exit 1 and %q", code, out, errs, tc.want)
			}
		})
	}
	// The campaign's drugs followed by more (deup tui --drugs) are fine.
	more := sc.WithDrugs([]drugcomb.Drug{{ID: "X1", Name: "extra", SMILES: "CCO"}})
	if _, err := newTUICampaign(dir, more, 1, campaignScreens()); err != nil {
		t.Errorf("screen with extra drugs: %v", err)
	}
}

// TestStageReporterEpochs: network epochs become progress reports of the
// current stage, numbered by network.
func TestStageReporterEpochs(t *testing.T) {
	var got []tui.RoundProgress
	r := &stageReporter{progress: func(p tui.RoundProgress) { got = append(got, p) }}
	r.set("train (round 1, 30 pairs)")
	r.epoch(model.Progress{Members: 1, Epoch: 1, MaxEpochs: 100, ValRMSE: 12.34})
	r.epoch(model.Progress{Members: 1, Epoch: 40, MaxEpochs: 100, Done: true})
	r.epoch(model.Progress{Members: 1, Epoch: 1, MaxEpochs: 100, ValRMSE: math.NaN()})
	r.epoch(model.Progress{Member: 2, Members: 3, Epoch: 7, MaxEpochs: 50, ValRMSE: 9})
	want := []tui.RoundProgress{
		{Stage: "train (round 1, 30 pairs)"},
		{Stage: "train (round 1, 30 pairs)", Done: 1, Total: 100, Detail: "network 1, epoch 1/100, val RMSE 12.3"},
		{Stage: "train (round 1, 30 pairs)", Done: 1, Total: 100, Detail: "network 2, epoch 1/100"},
		{Stage: "train (round 1, 30 pairs)", Done: 7, Total: 50, Detail: "member 3/3, epoch 7/50, val RMSE 9"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("reports\n%+v\nwant\n%+v", got, want)
	}
}
