package campaign

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/model"
)

// TestOpenPartsResumption: what resuming does at each stage of a live
// campaign of one round (propose, wait for the lab, complete) and of a
// retrospective one (run), each step returning the round it ran; a missing
// directory is Open's error.
func TestOpenPartsResumption(t *testing.T) {
	screens, sc := synthScreens(t)
	live, retro := testConfig(sc, active.Live), testConfig(sc, active.Retrospective)
	live.Rounds, retro.Rounds = 1, 2
	root := t.TempDir()
	initCampaign(t, filepath.Join(root, "live"), live, sc, 0)
	initCampaign(t, filepath.Join(root, "retro"), retro, sc, 40)

	o, err := screens.OpenParts(filepath.Join(root, "live"))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if o.Oracle != nil || o.Surrogate == nil {
		t.Fatalf("live campaign: oracle %v, surrogate %v; want none and one", o.Oracle, o.Surrogate)
	}
	if got := o.Resumption(); got != ProposeOne {
		t.Errorf("new live campaign: %v, want ProposeOne", got)
	}
	var epochs int
	r, err := o.Step(t.Context(), func(model.Progress) { epochs++ })
	if err != nil {
		t.Fatal(err)
	}
	if r.Index != 1 || len(r.Suggestions) != live.Batch || len(r.Measured) != 0 {
		t.Errorf("round %d, %d suggestions, %d measured; want 1, %d, 0", r.Index, len(r.Suggestions), len(r.Measured), live.Batch)
	}
	if got := o.Resumption(); got != Waiting {
		t.Errorf("live round open: %v, want Waiting", got)
	}
	ms := make([]active.Measurement, len(r.Suggestions))
	for i, s := range r.Suggestions {
		ms[i] = active.Measurement{Pair: s.Pair, Y: float64(i)}
	}
	if err := o.Campaign.Record(ms); err != nil {
		t.Fatal(err)
	}
	if got := o.Resumption(); got != Complete {
		t.Errorf("live campaign after its one round: %v, want Complete", got)
	}

	or, err := screens.OpenParts(filepath.Join(root, "retro"))
	if err != nil {
		t.Fatal(err)
	}
	defer or.Close()
	if got := or.Resumption(); or.Oracle == nil || got != RunAll {
		t.Errorf("retrospective campaign: oracle %v, %v; want an oracle, RunAll", or.Oracle, got)
	}
	if r, err := or.Step(t.Context(), nil); err != nil || r.Index != 1 || len(r.Measured) != retro.Batch {
		t.Errorf("retrospective step: %v; want round 1 measured", err)
	}

	_, err = screens.OpenParts(filepath.Join(root, "none"))
	var se *SettingError
	if err == nil || !strings.Contains(err.Error(), "does not exist") || errors.As(err, &se) {
		t.Errorf("missing directory: %v, want Open's error", err)
	}
}

// TestRoundLabel: the bars of the next round's networks say "network k of
// n" (issue 43: the panel campaign's progress said "network 16" with no
// total): n = 2 x 5 pre-fill folds + the round's network for deup-net's
// first round (surrogate.RoundTrainings; deup.Prefill repeats its 5 folds
// until D_e holds twice the initial pairs), a μ′ bar is part of the
// training that follows it, an ensemble's members are members, and a
// surrogate without a network gives no total.
func TestRoundLabel(t *testing.T) {
	screens, sc := synthScreens(t)
	dir := filepath.Join(t.TempDir(), "c")
	cfg := testConfig(sc, active.Live)
	cfg.Model = "deup-net"
	c := initCampaign(t, dir, cfg, sc, 0)
	sur, _, err := screens.Parts(c)
	if err != nil {
		t.Fatal(err)
	}
	type bar struct {
		method                   string
		network, member, members int
		want                     string
	}
	for _, tc := range []struct {
		name string
		sur  active.Surrogate
		bars []bar
	}{
		{"deup-net", sur, []bar{
			{"deup (novelty: held-out-drug μ′)", 1, 0, 1, "round 1 network 1 of 11 (μ′)"},
			{"deup", 2, 0, 1, "round 1 network 1 of 11"},
			{"deup", 3, 0, 1, "round 1 network 2 of 11"},
			{"deup (novelty: held-out-drug μ′)", 4, 0, 1, "round 1 network 3 of 11 (μ′)"},
			{"deup", 5, 0, 1, "round 1 network 3 of 11"},
		}},
		{"ensemble", sur, []bar{{"ensemble", 1, 1, 5, "round 1 member 2/5"}}},
		{"no network", nil, []bar{{"", 1, 0, 1, "round 1 network 1"}}},
	} {
		l := NewRoundLabel(c, tc.sur)
		for _, b := range tc.bars {
			l.Method(b.method)
			if got := l.Label(b.network, b.member, b.members); got != b.want {
				t.Errorf("%s: label(%d, %d, %d) = %q, want %q", tc.name, b.network, b.member, b.members, got, b.want)
			}
		}
	}
}
