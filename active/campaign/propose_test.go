package campaign

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/deup-screening/deup/active"
)

// TestPropose: a refused acquisition proposes nothing; the first call
// proposes the campaign's batch, later ones return the open round, and an
// override while it is open is refused.
func TestPropose(t *testing.T) {
	screens, sc := synthScreens(t)
	dir := filepath.Join(t.TempDir(), "c")
	initCampaign(t, dir, testConfig(sc, active.Live), sc, 0)
	l, c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	steps := []struct {
		name         string
		batch        int
		acq          string
		explore      float64
		wantSetting  bool
		wantProposed bool
	}{
		{name: "unknown acquisition", acq: "nope", explore: -1, wantSetting: true},
		{name: "first proposes", explore: -1, wantProposed: true},
		{name: "open round again", explore: -1},
		{name: "batch while open", batch: 3, explore: -1, wantSetting: true},
		{name: "explore while open", explore: 0.5, wantSetting: true},
	}
	var first *active.Round
	for _, st := range steps {
		r, proposed, err := screens.Propose(t.Context(), c, st.batch, st.acq, st.explore)
		var se *SettingError
		if st.wantSetting != errors.As(err, &se) || (!st.wantSetting && err != nil) {
			t.Fatalf("%s: error %v, want a SettingError: %v", st.name, err, st.wantSetting)
		}
		if err != nil {
			if c.Open() != first {
				t.Errorf("%s: the open round changed", st.name)
			}
			continue
		}
		if proposed != st.wantProposed || r.Index != 1 || len(r.Suggestions) != c.Config.Batch {
			t.Errorf("%s: round %d with %d suggestions, proposed %v; want round 1 with %d, proposed %v", st.name, r.Index, len(r.Suggestions), proposed, c.Config.Batch, st.wantProposed)
		}
		if first == nil {
			first = r
		} else if r != first {
			t.Errorf("%s: another round than the open one", st.name)
		}
	}
}

// TestPlateFileRefusals: a score that is no block score and an unknown
// response unit are settings (*SettingError), refused before the file is
// read.
func TestPlateFileRefusals(t *testing.T) {
	tests := []struct {
		name, score, unit, campaignScore, want string
	}{
		{name: "campaign score no block score", campaignScore: "synergy_custom",
			want: `the campaign's score is "synergy_custom": say which block score the plates are`},
		{name: "unknown unit", score: "bliss", unit: "percent", campaignScore: "bliss"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			_, _, err := PlateFile(&buf, filepath.Join(t.TempDir(), "absent.csv"), tc.score, tc.unit, active.Config{Score: tc.campaignScore})
			var se *SettingError
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a SettingError", err)
			}
			if tc.want != "" && err.Error() != tc.want {
				t.Errorf("error %q, want %q", err, tc.want)
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %q", buf.String())
			}
		})
	}
}
