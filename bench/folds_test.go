package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// TestRunFolds: under K-fold cross-validation by combinations every pair
// of the screen is a test pair exactly once per seed, each row has one
// entry per (seed, fold) run, results.json keeps its keys and adds folds
// and protocol (each fold's metrics equal to the row's entry for that
// run), predictions.parquet adds a fold column, and the table names the
// folds.
func TestRunFolds(t *testing.T) {
	sc, d := synthDataset(t)
	cfg := smallConfig(Ensemble)
	cfg.Seeds, cfg.Members, cfg.ExtraPasses = []uint64{1}, 1, -1
	const k = 3
	folds, err := FoldSplitter(sc, ByCombinations, k, cfg.withDefaults().Fracs, "")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Folds, cfg.Protocol = folds, Protocol{SplitBy: ByCombinations, Folds: k, OOSBy: ByPairs}
	if got, want := cfg.Trainings(1), k; got != want {
		t.Errorf("Trainings %d, want %d", got, want)
	}
	res, err := Run(context.Background(), d, sc.Truth, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Folds != k || len(res.Runs) != k || res.TestPairs != len(d.Pairs) {
		t.Fatalf("folds %d, runs %d, test pairs %d of %d", res.Folds, len(res.Runs), res.TestPairs, len(d.Pairs))
	}
	seen := map[int]int{}
	for _, p := range res.Predictions {
		if p.Method == Ensemble {
			seen[p.Pair]++
			if p.Fold < 0 || p.Fold >= k {
				t.Fatalf("prediction of fold %d", p.Fold)
			}
		}
	}
	if len(seen) != len(d.Pairs) {
		t.Errorf("%d pairs tested, want every one of %d", len(seen), len(d.Pairs))
	}
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("pair %d tested %d times", i, n)
		}
	}
	for _, row := range res.Rows {
		if len(row.PerSeed) != k || len(row.Conformal) != k || len(row.Epi) != k {
			t.Errorf("%s: %d/%d/%d entries, want %d", row.Method, len(row.PerSeed), len(row.Conformal), len(row.Epi), k)
		}
	}

	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var js struct {
		Methods map[string]map[string]json.RawMessage `json:"methods"`
		Folds   []struct {
			Fold    int                           `json:"fold"`
			Seed    uint64                        `json:"seed"`
			NTest   int                           `json:"n_test"`
			Methods map[string]map[string]float64 `json:"methods"`
		} `json:"folds"`
		Protocol struct {
			SplitBy string `json:"split_by"`
			Folds   int    `json:"folds"`
			Seed    uint64 `json:"seed"`
			OOSBy   string `json:"oos_by"`
		} `json:"protocol"`
		TestPairs int `json:"test_pairs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &js); err != nil {
		t.Fatal(err)
	}
	if js.Protocol.SplitBy != ByCombinations || js.Protocol.Folds != k || js.Protocol.Seed != 1 || js.Protocol.OOSBy != ByPairs {
		t.Errorf("protocol %+v", js.Protocol)
	}
	if len(js.Folds) != k || js.Methods[Ensemble]["rmse"] == nil {
		t.Fatalf("%d folds in results.json; methods.ensemble.rmse %s", len(js.Folds), js.Methods[Ensemble]["rmse"])
	}
	row := res.Row(Ensemble)
	for f, fj := range js.Folds {
		if fj.Fold != f || fj.NTest != res.Runs[f].NTest {
			t.Errorf("folds[%d] = fold %d, n_test %d; want %d, %d", f, fj.Fold, fj.NTest, f, res.Runs[f].NTest)
		}
		if got, want := fj.Methods[Ensemble]["rmse"], row.PerSeed[f].RMSE; got != want {
			t.Errorf("fold %d: rmse %v, want the row's %v", f, got, want)
		}
	}

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	buf.Reset()
	ids := func(i int) (string, string) { return sc.Drugs[sc.Pairs[i].A].ID, sc.Drugs[sc.Pairs[i].B].ID }
	if err := res.WritePredictions(&buf, ids, mem); err != nil {
		t.Fatal(err)
	}
	rdr, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	var names []string
	for _, f := range tbl.Schema().Fields() {
		names = append(names, f.Name)
	}
	if want := append(slices.Collect(func(yield func(string) bool) {
		for _, f := range PredictionsSchema().Fields() {
			if !yield(f.Name) {
				return
			}
		}
	}), "fold"); !slices.Equal(names, want) {
		t.Errorf("columns %v, want %v", names, want)
	}

	buf.Reset()
	if err := res.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3-fold cross-validation by combinations × 1 seeds (mean ± sample sd over the 3 folds)", "| seed | fold | n_test | method | r | rmse | corr | coverage |", "| 1 | 3 | "} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q", want)
		}
	}
}
