package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/deup-screening/deup/almanac"
	"github.com/deup-screening/deup/bench"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/vocab"
	"github.com/deup-screening/deup/lincs"
	"github.com/deup-screening/deup/uq"
)

// TestVocabularyRoundTrip is issue 18's "done when": it writes every kind
// of output file the vocabulary (internal/vocab, docs/vocabulary.md) lists,
// in every format each supports, through the commands themselves, reads
// each back through the one reader (vocab.ReadFile) and checks its column
// names and types against the vocabulary. It also checks that every file
// and format of the vocabulary was written, so a new writer or format
// cannot be added to the table without a file here.
//
// The model is an MSE ensemble, whose sigma_aleatoric is 0 in every row:
// the case where a float column written as "0" reads as integers in pandas
// and DuckDB.
func TestVocabularyRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two small models and runs a short bench and simulation")
	}
	tmp := t.TempDir()
	screen := campaignScreenDir(t)
	sc, err := drugcomb.Open(screen)
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]map[vocab.Format]bool{}
	check := func(key, path string, vars map[string][]string) {
		t.Helper()
		f, ok := vocab.Lookup(key)
		if !ok {
			t.Fatalf("no file %q in the vocabulary", key)
		}
		tbl, err := vocab.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", key, err)
			return
		}
		if tbl.Rows == 0 && key != "campaign-ledger" { // a ledger event may hold no pair
			t.Errorf("%s: %s has no rows: nothing to check the types of", key, path)
		}
		if err := f.Check(tbl, vars); err != nil {
			t.Error(err)
		}
		if covered[key] == nil {
			covered[key] = map[vocab.Format]bool{}
		}
		covered[key][tbl.Format] = true
	}

	// Screen.
	scoreVars := map[string][]string{"score": sc.ScoreNames}
	for _, ext := range []string{".arrow", ".parquet"} {
		check("screen-drugs", filepath.Join(screen, "drugs"+ext), nil)
		check("screen-pairs", filepath.Join(screen, "pairs"+ext), scoreVars)
	}
	check("screen-meta", filepath.Join(screen, drugcomb.MetaFile), nil)
	inspect := filepath.Join(tmp, "inspect.json")
	if err := os.WriteFile(inspect, []byte(mustRun(t, "data", "inspect", screen, "--json")), 0o644); err != nil {
		t.Fatal(err)
	}
	check("screen-inspect", inspect, nil)

	// Predictions: all pairs with intervals, and --pairs by names with two
	// extra columns passed through.
	model := filepath.Join(tmp, "m.deup")
	mustRun(t, "train", "--screen", screen, "--method", "ensemble", "--members", "2", "--epochs", "3", "--calibration", "0.2", "--seed", "1", "--out", model)
	pairs := filepath.Join(tmp, "pairs.csv")
	body := "drug_a,drug_b,well,notes\n"
	for i := 0; i+1 < len(sc.Drugs) && i < 6; i += 2 {
		body += fmt.Sprintf("%s,%s,A%d,plate 1\n", sc.Drugs[i].Name, sc.Drugs[i+1].Name, i)
	}
	if err := os.WriteFile(pairs, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	extra := map[string][]string{"pairs_column": {"well", "notes"}}
	for _, ext := range []string{".csv", ".parquet", ".arrow"} {
		all := filepath.Join(tmp, "all"+ext)
		mustRun(t, "predict", "--model", model, "--all-pairs", "--coverage", "0.9", "--out", all)
		check("predictions", all, map[string][]string{"pairs_column": {}})
		listed := filepath.Join(tmp, "listed"+ext)
		mustRun(t, "predict", "--model", model, "--pairs", pairs, "--out", listed)
		check("predictions", listed, extra)
	}

	// Suggestions from a model, and a live campaign's round exported.
	for _, ext := range []string{".csv", ".json", ".parquet"} {
		s := filepath.Join(tmp, "next"+ext)
		mustRun(t, "suggest", "--model", model, "--batch", "5", "--out", s)
		check("suggestions", s, nil)
	}
	live := filepath.Join(tmp, "live")
	mustRun(t, "campaign", "init", "--screen", screen, "--model", "deup-ridge", "--features", "identity", "--batch", "4", live)
	check("campaign-json", filepath.Join(live, "campaign.json"), nil)
	for _, ext := range []string{".csv", ".json", ".parquet"} {
		s := filepath.Join(tmp, "round1"+ext)
		mustRun(t, "suggest", "--campaign", live, "--out", s)
		check("suggestions", s, nil)
	}

	// A retrospective campaign's report.
	retro := filepath.Join(tmp, "retro")
	mustRun(t, "campaign", "init", "--screen", screen, "--mode", "retrospective", "--init", "20", "--batch", "4", "--rounds", "2",
		"--model", "deup-ridge", "--features", "identity", retro)
	mustRun(t, "campaign", "resume", retro)
	rep := filepath.Join(tmp, "report.json")
	mustRun(t, "campaign", "report", retro, "--json", rep)
	check("campaign-report", rep, nil)
	for _, c := range []string{live, retro} { // every event of both campaigns
		evs, err := filepath.Glob(filepath.Join(c, "ledger", "*.arrow"))
		if err != nil || len(evs) == 0 {
			t.Errorf("%s: no ledger events (%v)", c, err)
		}
		for _, e := range evs {
			check("campaign-ledger", e, nil)
		}
	}

	// Campaign simulation.
	sim := filepath.Join(tmp, "sim")
	mustRun(t, "campaign", "simulate", "--screen", screen, "--init", "20", "--batch", "4", "--rounds", "2", "--seeds", "2",
		"--acquisition", "greedy,random,deup-ridge-ucb", "--out", sim)
	simVars := map[string][]string{"strategy": {"greedy", "random", "deup-ridge-ucb"}, "series": {"top1_found", "best", "test_rmse", "sigma_corr", "rare_share"},
		"metric": {"top1_found", "best"}}
	check("simulate-report", filepath.Join(sim, "report.json"), simVars)
	check("simulate-runs", filepath.Join(sim, "runs.csv"), nil)
	check("simulate-summary", filepath.Join(sim, "summary.csv"), nil)

	// Bench.
	out := filepath.Join(tmp, "bench")
	mustRun(t, "bench", "--screen", screen, "--methods", "ensemble", "--members", "2", "--seeds", "1", "--epochs", "2", "--no-figures", "--out", out)
	check("bench-predictions", filepath.Join(out, "predictions.parquet"), nil)
	metrics := append(append(uq.Names(), "train_seconds", "epi_excess_spearman"), bench.TruthNames()...)
	check("bench-results", filepath.Join(out, "results.json"), map[string][]string{
		"method": {"ensemble"}, "metric": metrics, "kind": {"plain", "normalized"}, "epi_key": bench.EpiNames(),
		"interval_metric": {"coverage", "width", "worst_quintile_coverage", "interval_score"},
	})

	// deup ood and deup rl, the shortest runs that write every key.
	ood := filepath.Join(tmp, "ood")
	mustRun(t, "ood", "--seeds", "2", "--folds", "2", "--epochs", "1", "--patience", "1", "--methods", "deup-dv,mcdropout", "--out", ood)
	check("ood-results", filepath.Join(ood, "results.json"), map[string][]string{
		"method":  {"deup-dv", "mcdropout"},
		"metric":  {"srcc", "auroc", "rejection_auc", "srcc_one_unseen", "srcc_two_unseen", "auroc_one_unseen", "auroc_two_unseen", "rmse", "train_seconds", "srcc_excess_risk"},
		"epi_key": bench.EpiNames(),
	})
	// The import report and the stored signatures, through the writers
	// that data import and data signatures use (the commands need real
	// data: the real-data tests run them).
	imp := &drugcomb.Report{Format: "almanac", Inputs: []string{"pairs.csv", "drugs.csv"}, ScoreColumns: []string{"combo_score"},
		RowsRead: 5, Measurements: 4, Pairs: 3, ReplicatedPairs: 1, Drugs: 3, CellLines: 1,
		Dropped: []*drugcomb.Tally{{Reason: "unknown drug", Count: 1, Examples: []drugcomb.Example{{Where: "pairs.csv:3", Detail: "X"}}}},
		Notes:   []*drugcomb.Tally{{Reason: "catalogue drug in no kept pair", Count: 1, Examples: []drugcomb.Example{{Where: "drugs.csv", Detail: "Y"}}}}}
	repDir := filepath.Join(tmp, "report")
	if err := os.MkdirAll(repDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.Write(filepath.Join(repDir, drugcomb.ReportFile), imp.WriteJSON); err != nil { // report.json's bytes
		t.Fatal(err)
	}
	check("import-report", filepath.Join(repDir, drugcomb.ReportFile), nil)
	cs := filepath.Join(repDir, almanac.ComboScoreFile) // through almanac-wells' writer
	if err := atomicfile.Write(cs, func(w io.Writer) error {
		return almanac.WriteComboScores(w, []almanac.ComboScore{{NSC1: 740, NSC2: 750, Cell: "PC-3", Score: -68, Wells: 9}, {NSC1: 750, NSC2: 740, Cell: "PC-3", Score: 12.5, Wells: 9}})
	}); err != nil {
		t.Fatal(err)
	}
	check("almanac-comboscore", cs, nil)
	sigs := &lincs.Signatures{Genes: []string{"g1", "g2"}, DrugIDs: []string{sc.Drugs[0].ID, sc.Drugs[1].ID},
		Vectors: [][]float32{{0.5, -1}, nil}, Columns: []string{"BRD-1", ""}, By: []lincs.Method{lincs.ByName, lincs.None}}
	sigDir := filepath.Join(tmp, "sigs")
	if err := os.MkdirAll(sigDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := lincs.WriteSignatures(sigDir, sigs); err != nil {
		t.Fatal(err)
	}
	check("signatures", filepath.Join(sigDir, lincs.SignaturesParquet), nil)
	check("signatures", filepath.Join(sigDir, lincs.SignaturesArrow), nil)

	smo := filepath.Join(tmp, "smo")
	mustRun(t, "smo", "--function", "multi-optima", "--method", "random,gp-ei", "--seeds", "2", "--steps", "3", "--out", smo)
	check("smo-results-csv", filepath.Join(smo, "results.csv"), nil)
	check("smo-results-json", filepath.Join(smo, "results.json"), map[string][]string{"method": {"random", "gp-ei"}})
	rl := filepath.Join(tmp, "rl")
	mustRun(t, "rl", "--agents", "dqn,random", "--seeds", "2", "--episodes", "3", "--out", rl)
	check("rl-results", filepath.Join(rl, "results.json"), map[string][]string{"agent": {"dqn", "random"}})
	check("rl-runs", filepath.Join(rl, "runs.csv"), nil)

	// Fingerprints of a catalogue.
	cat := filepath.Join(tmp, "drugs.csv")
	lines := "id,name,smiles\n"
	for _, d := range sc.Drugs[:5] {
		lines += fmt.Sprintf("%s,%s,%s\n", d.ID, d.Name, d.SMILES)
	}
	if err := os.WriteFile(cat, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".csv", ".parquet"} {
		fp := filepath.Join(tmp, "fp"+ext)
		mustRun(t, "fingerprint", "--out", fp, cat)
		check("fingerprints", fp, nil)
	}

	// Every file and format of the vocabulary was written and checked.
	var missing []string
	for _, f := range vocab.Files() {
		for _, ff := range f.Formats {
			if !covered[f.Key][ff] {
				missing = append(missing, f.Key+" "+string(ff))
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("the vocabulary lists files this test does not write: %s", strings.Join(missing, ", "))
	}
}
