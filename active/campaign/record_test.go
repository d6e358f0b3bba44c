package campaign

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
)

// TestImport: results are imported only into an open round; a results file
// naming the round's pairs is recorded in it; a file with an unknown drug,
// and plates whose block score is not named, are refused with the ledger
// unchanged (the latter as a SettingError).
func TestImport(t *testing.T) {
	screens, sc := synthScreens(t)
	dir := filepath.Join(t.TempDir(), "c")
	initCampaign(t, dir, testConfig(sc, active.Live), sc, 0)
	o, err := screens.OpenParts(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	c := o.Campaign
	if _, _, err := Import(nil, c, "r.csv", nil); err == nil || !strings.HasPrefix(err.Error(), "no round is waiting for results") {
		t.Errorf("no open round: %v", err)
	}
	prop, err := c.Propose(t.Context(), o.Surrogate)
	if err != nil {
		t.Fatal(err)
	}
	files := t.TempDir()
	write := func(name string, rows ...string) string {
		p := filepath.Join(files, name)
		if err := os.WriteFile(p, []byte("drug_a_id,drug_b_id,cell_line,score\n"+strings.Join(rows, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var good []string
	for i, sg := range prop.Round.Suggestions[:3] {
		good = append(good, fmt.Sprintf("%s,%s,%s,%d\n", sc.Drugs[sg.Pair.A].ID, sc.Drugs[sg.Pair.B].ID, sc.CellLines[sg.Pair.CellLine], i))
	}
	for _, tc := range []struct {
		name        string
		file        string
		plates      *Plates
		wantN       int    // results recorded; 0: refused
		wantErr     string // the refusal's start
		wantSetting bool
	}{
		{"an unknown drug", write("bad.csv", "nope,"+sc.Drugs[0].ID+","+sc.CellLines[0]+",1\n"), nil, 0, "results refused, ledger unchanged:", false},
		{"plates without a block score", write("plates.csv"), &Plates{}, 0, `the campaign's score is "` + sc.ScoreNames[0] + `"`, true},
		{"three of the round's pairs", write("good.csv", good...), nil, 3, "", false},
	} {
		var w bytes.Buffer
		rd, n, err := Import(&w, c, tc.file, tc.plates)
		var se *SettingError
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) || errors.As(err, &se) != tc.wantSetting {
				t.Errorf("%s: %v, want %q (a setting: %v)", tc.name, err, tc.wantErr, tc.wantSetting)
			}
			if m := len(c.Open().Measured); m != 0 {
				t.Errorf("%s: %d measured after a refusal", tc.name, m)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case rd != prop.Round || n != tc.wantN || len(rd.Measured) != tc.wantN:
			t.Errorf("%s: round %d, %d results, %d measured; want round %d, %d", tc.name, rd.Index, n, len(rd.Measured), prop.Round.Index, tc.wantN)
		}
	}
}
