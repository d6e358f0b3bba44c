package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/ledger"
	"github.com/deup-screening/deup/active/surrogate"
	"github.com/deup-screening/deup/drugcomb"
)

// A refused command changes nothing on disk and announces nothing (issue 18):
// every flag value is checked before a directory or a ledger is created or a
// round recorded (init's flag refusals: testdata/script/campaign_refuse.txtar).
func TestCampaignRefusalsLeaveNothing(t *testing.T) {
	screen := campaignScreenDir(t)
	tmp := t.TempDir()
	// The refusals of init flags are testdata/script/campaign_refuse.txtar.

	// suggest --batch 0 on a campaign with no open round: refused, no round
	// recorded (it used to use the campaign's batch and record a round).
	dir := filepath.Join(tmp, "live")
	mustRun(t, "campaign", "init", "--screen", screen, "--model", "bayes-ridge", "--features", "identity", "--batch", "4", dir)
	before := len(ledgerEvents(t, dir))
	for _, b := range []string{"0", "-2"} {
		x := filepath.Join(tmp, "x"+b+".csv")
		_, errs, code := run(t, "suggest", "--campaign", dir, "--batch", b, "--out", x)
		if code != 2 || !strings.Contains(errs, "--batch "+b) {
			t.Errorf("suggest --batch %s: exit %d, stderr:\n%s", b, code, errs)
		}
		if _, err := os.Stat(x); !os.IsNotExist(err) {
			t.Errorf("suggest --batch %s wrote %s", b, x)
		}
		if n := len(ledgerEvents(t, dir)); n != before {
			t.Errorf("suggest --batch %s: ledger has %d events, had %d", b, n, before)
		}
	}
	if _, errs, code := run(t, "suggest", "--model", "nosuch.model", "--batch", "0", "--out", filepath.Join(tmp, "y.csv")); code != 2 || !strings.Contains(errs, "--batch 0") {
		t.Errorf("suggest --model --batch 0: exit %d, stderr:\n%s", code, errs)
	}

	// init into a directory that already holds a campaign: refused, the
	// campaign untouched.
	if _, errs, code := run(t, "campaign", "init", "--screen", screen, dir); code == 0 || !strings.Contains(errs, "already holds a campaign") {
		t.Errorf("init over a campaign: exit %d, stderr:\n%s", code, errs)
	}
	if n := len(ledgerEvents(t, dir)); n != before {
		t.Errorf("init over a campaign: ledger has %d events, had %d", n, before)
	}

	// simulate: refused before "simulating N strategies x S seeds" is printed
	// or --out created.
	for _, c := range []struct{ flag, val string }{{"--seeds", "-1"}, {"--seeds", "0"}, {"--batch", "0"}, {"--rounds", "0"}, {"--init", "-1"}, {"--workers", "-1"}, {"--max-per-drug", "-2"}} {
		out := filepath.Join(tmp, "sim"+c.flag+c.val)
		so, errs, code := run(t, "campaign", "simulate", "--screen", screen, c.flag, c.val, "--out", out)
		if code != 2 || strings.Contains(errs, "simulating") || so != "" {
			t.Errorf("simulate %s %s: exit %d, stdout %q, stderr:\n%s", c.flag, c.val, code, so, errs)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("simulate %s %s created %s", c.flag, c.val, out)
		}
	}
}

// The per-drug cap defaults to max(2, ceil(batch/10)), is recorded in the
// campaign and stated in the output; --max-per-drug 0 means no cap.
func TestCampaignDefaultPerDrugCap(t *testing.T) {
	screen := campaignScreenDir(t)
	tmp := t.TempDir()
	for _, c := range []struct {
		args []string
		want int
	}{
		{nil, 3}, // the default batch, 30
		{[]string{"--batch", "4"}, 2},
		{[]string{"--batch", "35"}, 4}, // ceil(3.5); the pool is 40 pairs, and a larger batch is refused (campaign_per_line.txtar)
		{[]string{"--batch", "30", "--max-per-drug", "0"}, 0},
		{[]string{"--batch", "30", "--max-per-drug", "7"}, 7},
	} {
		dir := filepath.Join(tmp, strings.Join(append([]string{"c"}, c.args...), "_"))
		out := mustRun(t, append(append([]string{"campaign", "init", "--screen", screen, "--model", "bayes-ridge", "--features", "identity"}, c.args...), dir)...)
		if note := maxPerDrugNote(c.want); !strings.Contains(out, note) {
			t.Errorf("init %v: output lacks %q:\n%s", c.args, note, out)
		}
		b, err := os.ReadFile(filepath.Join(dir, "campaign.json"))
		if err != nil {
			t.Fatal(err)
		}
		var cfg struct {
			MaxPerDrug *int `json:"max_per_drug"`
		}
		if err := json.Unmarshal(b, &cfg); err != nil || cfg.MaxPerDrug == nil || *cfg.MaxPerDrug != c.want {
			t.Errorf("init %v: campaign.json max_per_drug %v (%v), want %d", c.args, cfg.MaxPerDrug, err, c.want)
		}
	}
	// A step keeps to the cap and says which applies.
	dir := filepath.Join(tmp, "c")
	out := mustRun(t, "campaign", "step", dir)
	if !strings.Contains(out, "at most 3 pairs per drug (--max-per-drug)") {
		t.Errorf("step output lacks the cap:\n%s", out)
	}
	for _, e := range ledgerEvents(t, dir) {
		if e.Kind != active.KindSuggest {
			continue
		}
		count := map[int]int{}
		for _, r := range e.Records {
			count[r.A]++
			count[r.B]++
		}
		for d, n := range count {
			if n > 3 {
				t.Errorf("drug %d in %d pairs of round %d, cap 3", d, n, e.Round)
			}
		}
	}
}

func TestDefaultMaxPerDrug(t *testing.T) {
	// max(2, ceil(b/10)), worked by hand.
	for _, c := range []struct{ b, want int }{{1, 2}, {10, 2}, {20, 2}, {21, 3}, {30, 3}, {31, 4}, {96, 10}} {
		if got := active.DefaultMaxPerDrug(c.b); got != c.want {
			t.Errorf("DefaultMaxPerDrug(%d) = %d, want %d", c.b, got, c.want)
		}
	}
}

// deup suggest --model applies the same default cap as a campaign and says
// which applies.
func TestSuggestModelDefaultCap(t *testing.T) {
	screen := campaignScreenDir(t)
	dir := t.TempDir()
	mp := filepath.Join(dir, "m.model")
	mustRun(t, "train", "--screen", screen, "--epochs", "1", "--out", mp)
	for _, c := range []struct {
		args []string
		cap  int
	}{
		{[]string{"--batch", "12"}, 2},
		{[]string{"--batch", "12", "--max-per-drug", "1"}, 1},
		{[]string{"--batch", "12", "--max-per-drug", "0"}, 0},
	} {
		out := filepath.Join(dir, "s.csv")
		so := mustRun(t, append(append([]string{"suggest", "--model", mp}, c.args...), "--out", out)...)
		if note := maxPerDrugNote(c.cap); !strings.Contains(so, note) {
			t.Errorf("suggest %v: output lacks %q:\n%s", c.args, note, so)
		}
		rows := readCSVRows(t, out)
		ia, ib := -1, -1
		for i, h := range rows[0] {
			switch h {
			case "drug_a_id":
				ia = i
			case "drug_b_id":
				ib = i
			}
		}
		if ia < 0 || ib < 0 {
			t.Fatalf("no drug_a_id/drug_b_id in %v", rows[0])
		}
		count := map[string]int{}
		for _, r := range rows[1:] {
			count[r[ia]]++
			count[r[ib]]++
		}
		for d, n := range count {
			if c.cap > 0 && n > c.cap {
				t.Errorf("suggest %v: drug %s in %d pairs, cap %d", c.args, d, n, c.cap)
			}
		}
		if c.cap == 0 {
			// Without a cap this batch does repeat a drug more than twice
			// (5 times on this screen), so the capped runs test the cap.
			most := 0
			for _, n := range count {
				most = max(most, n)
			}
			if most <= 2 {
				t.Errorf("suggest %v: no drug in more than %d pairs; the test screen no longer exercises the cap", c.args, most)
			}
		}
	}
}

// legacyStore writes a campaign's init event as deup wrote it before issue
// 18: drug keys ID/Name/PubChemCID/SMILES and the ridge DEUP surrogate named
// "deup".
type legacyStore struct{ *ledger.Ledger }

func (s legacyStore) Append(e *ledger.Event) error {
	if e.Kind == active.KindInit {
		var m map[string]any
		if err := json.Unmarshal([]byte(e.Extra), &m); err != nil {
			return err
		}
		for _, d := range m["drugs"].([]any) {
			d := d.(map[string]any)
			for snake, old := range map[string]string{"id": "ID", "name": "Name", "pubchem_cid": "PubChemCID", "smiles": "SMILES"} {
				d[old] = d[snake]
				delete(d, snake)
			}
		}
		m["model"] = "deup"
		b, err := json.Marshal(m)
		if err != nil {
			return err
		}
		e.Extra = string(b)
	}
	return s.Ledger.Append(e)
}

// A campaign whose ledger was written before the keys were snake_case (and
// before deup-ridge was renamed) still loads and runs; the campaign.json it
// gets is snake_case.
func TestCampaignOldLedgerLoads(t *testing.T) {
	screen := campaignScreenDir(t)
	sc, err := drugcomb.Open(screen)
	if err != nil {
		t.Fatal(err)
	}
	table, _, err := active.ScreenTable(sc, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "old")
	l, err := ledger.Open(filepath.Join(dir, "ledger"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := active.Config{Mode: active.Live, Score: sc.ScoreNames[0], Acquisition: "ucb", Model: surrogate.RidgeDEUP, Features: "identity",
		Batch: 4, Seed: 1, Drugs: sc.Drugs, CellLines: sc.CellLines}
	var initial []active.Measurement
	for _, p := range table.SortedPairs() {
		initial = append(initial, active.Measurement{Pair: p, Y: table[p]})
	}
	if _, err := active.Create(legacyStore{l}, cfg, initial, active.AllUnmeasured(table, len(sc.Drugs), []int{0})); err != nil {
		t.Fatal(err)
	}
	l.Close()
	raw := ledgerEvents(t, dir)[0].Extra
	if !strings.Contains(raw, `"PubChemCID"`) || strings.Contains(raw, `"pubchem_cid"`) || !strings.Contains(raw, `"model":"deup"`) {
		t.Fatalf("the test did not write an old-format init event: %s", raw)
	}

	out := mustRun(t, "campaign", "step", dir)
	if !strings.Contains(out, "round 1: 4 suggestions by deup-ridge/round-1/") {
		t.Errorf("step on an old ledger:\n%s", out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "campaign.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got active.Config
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Drugs, sc.Drugs) || got.Model != surrogate.RidgeDEUP {
		t.Errorf("campaign.json from an old ledger: model %q, drugs %v, want %v", got.Model, got.Drugs, sc.Drugs)
	}
	if !strings.Contains(string(b), `"pubchem_cid"`) || strings.Contains(string(b), `"PubChemCID"`) {
		t.Errorf("campaign.json keys are not snake_case:\n%s", b)
	}
	sug := filepath.Join(t.TempDir(), "r1.csv")
	mustRun(t, "suggest", "--campaign", dir, "--out", sug)
	rows := readCSVRows(t, sug)
	if len(rows) != 5 {
		t.Fatalf("suggest from an old ledger wrote %d rows", len(rows)-1)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	names := map[string]string{}
	for _, d := range sc.Drugs {
		names[d.ID] = d.Name
	}
	// The drugs' ids and names came through the old keys.
	for _, r := range rows[1:] {
		for _, side := range []string{"drug_a", "drug_b"} {
			id := r[col[side+"_id"]]
			nameCol, ok := col[side+"_name"] // the name column's spelling may change (issue 18's vocabulary)
			if !ok {
				nameCol = col[side]
			}
			if n, ok := names[id]; !ok || id == "" || n != r[nameCol] {
				t.Errorf("suggest from an old ledger: %s id %q name %q, want a screen drug", side, id, r[nameCol])
			}
		}
	}
}

// campaign step shows the progress of its network trainings on stderr
// (one bar per network, "network k of n": the pre-fill folds, then the
// main predictor), and
// nothing of it on stdout.
func TestCampaignStepProgress(t *testing.T) {
	screen := campaignScreenDir(t)
	dir := filepath.Join(t.TempDir(), "c")
	mustRun(t, "campaign", "init", "--screen", screen, "--model", "deup-net", "--features", "identity", "--batch", "4", dir)
	out, errs, code := run(t, "campaign", "step", dir)
	if code != 0 {
		t.Fatalf("step: exit %d\n%s", code, errs)
	}
	for _, w := range []string{"round 1 network 1 of 11 [", "round 1 network 2 of 11 [", "round 1 network 11 of 11 [", "100%"} {
		if !strings.Contains(errs, w) {
			t.Errorf("step stderr lacks %q:\n%s", w, errs)
		}
	}
	if strings.Contains(out, "network") || !strings.Contains(out, "round 1: 4 suggestions by deup-net/round-1/") {
		t.Errorf("step stdout:\n%s", out)
	}
}
