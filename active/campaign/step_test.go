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

// TestNetworkLabels: the bars of the next round's networks, numbered from
// 1, or an ensemble's members (progress.NewNetworks counts networks from 1
// and members from 0).
func TestNetworkLabels(t *testing.T) {
	_, sc := synthScreens(t)
	dir := filepath.Join(t.TempDir(), "c")
	c := initCampaign(t, dir, testConfig(sc, active.Live), sc, 0)
	label := NetworkLabels(c)
	for _, tc := range []struct {
		network, member, members int
		want                     string
	}{
		{1, 0, 1, "round 1 network 1"},
		{6, 0, 1, "round 1 network 6"},
		{2, 1, 5, "round 1 member 2/5"},
	} {
		if got := label(tc.network, tc.member, tc.members); got != tc.want {
			t.Errorf("label(%d, %d, %d) = %q, want %q", tc.network, tc.member, tc.members, got, tc.want)
		}
	}
}
