package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/internal/jsonfloat"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/due"
	"github.com/deup-screening/deup/uq"
)

// smallConfig is a benchmark small enough for a unit test: narrow networks,
// few epochs, two seeds.
func smallConfig(methods ...string) Config {
	return Config{
		Methods:     methods,
		Seeds:       []uint64{1, 2},
		Model:       model.Config{TowerHidden: 32, TowerOut: 16, CombHidden: 16, SigmaHidden: 16, MaxEpochs: 4, Patience: 4, LR: 1e-3},
		DUE:         due.Config{TowerHidden: 32, TowerOut: 16, CombHidden: 16, Embedding: 4, Inducing: 10, MaxEpochs: 3, Patience: 3},
		Members:     2,
		ExtraPasses: 10,
	}
}

func synthDataset(t testing.TB) (*drugcomb.Screen, *model.Dataset) {
	t.Helper()
	sc, err := data.Synth(data.DefaultSynth(7))
	if err != nil {
		t.Fatal(err)
	}
	// One cell line, as the CLI trains.
	var pairs []drugcomb.Pair
	var tm, tv []float64
	for i, p := range sc.Pairs {
		if p.CellLine == 0 {
			pairs = append(pairs, p)
			tm = append(tm, sc.Truth.Mean[i])
			tv = append(tv, sc.Truth.NoiseVar[i])
		}
	}
	sc.Pairs, sc.Truth = pairs, &drugcomb.Truth{Mean: tm, NoiseVar: tv}
	sc.CellLines = sc.CellLines[:1]
	f, _, err := features.Build(sc.Drugs, features.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := model.NewDataset(sc, f, 0)
	if err != nil {
		t.Fatal(err)
	}
	return sc, d
}

func TestRunRowsAndConstant(t *testing.T) {
	sc, d := synthDataset(t)
	cfg := smallConfig(DEUP, MCDropout)
	res, err := Run(context.Background(), d, sc.Truth, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{DEUP, MCDropout, "mcdropout-t10", Constant}
	if got := cfg.Rows(); !equal(got, want) {
		t.Fatalf("Rows() = %v, want %v", got, want)
	}
	for i, row := range res.Rows {
		if row.Method != want[i] {
			t.Errorf("row %d is %s, want %s", i, row.Method, want[i])
		}
		if len(row.PerSeed) != 2 || len(row.Truth) != 2 || len(row.TrainSeconds) != 2 {
			t.Errorf("%s: %d/%d/%d per-seed entries, want 2", row.Method, len(row.PerSeed), len(row.Truth), len(row.TrainSeconds))
		}
		for _, m := range row.PerSeed {
			if m.N != res.TestPairs || !(m.RMSE > 0) || math.IsNaN(m.LogLik) {
				t.Errorf("%s: metrics %+v", row.Method, m)
			}
		}
	}
	// 30 % of the pairs are test pairs (SplitRandom rounds).
	if frac := float64(res.TestPairs) / float64(len(d.Pairs)); math.Abs(frac-0.3) > 0.01 {
		t.Errorf("test fraction %.3f, want 0.3", frac)
	}
	// The constant row: DEUP's mu, one sigma per seed.
	deupMu := map[[2]uint64]float64{}
	sigma := map[uint64]float64{}
	for _, p := range res.Predictions {
		key := [2]uint64{p.Seed, uint64(p.Pair)}
		switch p.Method {
		case DEUP:
			deupMu[key] = p.Mu
		case Constant:
			if mu, ok := deupMu[key]; !ok || mu != p.Mu {
				t.Fatalf("constant mu %v for pair %d seed %d, DEUP's is %v", p.Mu, p.Pair, p.Seed, mu)
			}
			if s, ok := sigma[p.Seed]; ok && s != p.SigmaTotal {
				t.Fatalf("constant sigma varies within seed %d: %v and %v", p.Seed, s, p.SigmaTotal)
			}
			sigma[p.Seed] = p.SigmaTotal
		}
	}
	if len(sigma) != 2 {
		t.Fatalf("constant row has predictions for %d seeds, want 2", len(sigma))
	}
	// A constant sigma has no correlation with anything: corr is NaN by definition (uq/doc.go).
	if c := res.Row(Constant).PerSeed[0].Corr; !math.IsNaN(c) {
		t.Errorf("constant corr = %v, want NaN", c)
	}
	// MC-Dropout with 10 passes scores the same network: same mu up to the
	// pass noise, so the same RMSE within a loose bound, and a different sigma.
	a, b := res.Row(MCDropout).PerSeed[0], res.Row("mcdropout-t10").PerSeed[0]
	if a.Sharpness == b.Sharpness {
		t.Errorf("mcdropout and mcdropout-t10 have the same sharpness %v", a.Sharpness)
	}
}

// TestConformalRows checks the conformal intervals Run scores against a
// direct computation from the predictions it keeps: the same halves (drawn
// from the seed) for every row, coverage near the nominal 90 % on the
// test pairs, and the constant row's plain and normalized intervals equal
// (one sigma: normalizing changes nothing).
func TestConformalRows(t *testing.T) {
	sc, d := synthDataset(t)
	cfg := smallConfig(DEUP)
	res, err := Run(context.Background(), d, sc.Truth, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{DEUP, Constant} {
		row := res.Row(name)
		if len(row.Conformal) != 2 {
			t.Fatalf("%s: %d conformal entries, want 2", name, len(row.Conformal))
		}
		for si, seed := range res.Seeds {
			preds := res.byMethod(name, &seed)
			y, mu, s := columns(preds)
			lo, hi, err := uq.CrossConformal(y, mu, s, 0.1, true, seed)
			if err != nil {
				t.Fatal(err)
			}
			want := uq.ScoreIntervals(y, lo, hi, s, 0.1)
			got := row.Conformal[si].Normalized
			if got != want {
				t.Errorf("%s seed %d: normalized %+v, want %+v", name, seed, got, want)
			}
			// Cross-conformal coverage on 272 pairs: 90 % up to sampling
			// error (sd about 1.8 points per half-set of 136).
			for _, m := range []uq.IntervalMetrics{row.Conformal[si].Plain, got} {
				if m.N != res.TestPairs || m.Coverage < 83 || m.Coverage > 97 || !(m.Width > 0) {
					t.Errorf("%s seed %d: %+v", name, seed, m)
				}
			}
		}
	}
	c := res.Row(Constant).Conformal[0]
	if math.Abs(c.Plain.Width-c.Normalized.Width) > 1e-9*c.Plain.Width || c.Plain.Coverage != c.Normalized.Coverage {
		t.Errorf("constant sigma: plain %+v, normalized %+v", c.Plain, c.Normalized)
	}
	// Too small a test split for the asked coverage: an error before training.
	cfg.Alpha = 0.001
	if _, err := Run(context.Background(), d, sc.Truth, cfg, nil); err == nil || !strings.Contains(err.Error(), "too few for conformal intervals") {
		t.Errorf("alpha 0.001 on %d test pairs: %v", res.TestPairs, err)
	}
}

func TestRunReproducible(t *testing.T) {
	sc, d := synthDataset(t)
	cfg := smallConfig(DEUP)
	cfg.Seeds = []uint64{3}
	var out [2][]byte
	for i := range out {
		res, err := Run(context.Background(), d, sc.Truth, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		res.WallSeconds = 0
		for j := range res.Rows {
			res.Rows[j].TrainSeconds = []float64{0}
		}
		var buf bytes.Buffer
		if err := res.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		out[i] = buf.Bytes()
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Errorf("same seed, different results:\n%s\n%s", out[0], out[1])
	}
}

// TestRunWorkers: the result does not depend on how many trainings run at
// the same time nor on the order they finish in (every method, two seeds,
// 1 and 3 workers, jobs fed longest first: with 1 worker they run in feed
// order, not table order; times zeroed).
func TestRunWorkers(t *testing.T) {
	sc, d := synthDataset(t)
	var out [2][]byte
	for i, w := range []int{1, 3} {
		cfg := smallConfig(DEUP, Ensemble, MCDropout, DUE)
		cfg.Workers = w
		var events int
		res, err := Run(context.Background(), d, sc.Truth, cfg, func(e Event) {
			events++ // serialized by Run: no race (go test -race)
			if e.Total != 8 || e.Done < 0 || e.Done > e.Total {
				t.Errorf("event %+v", e)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if events < 8 {
			t.Errorf("%d workers: %d progress events, want ≥ 8", w, events)
		}
		res.WallSeconds = 0
		for j := range res.Rows {
			for k := range res.Rows[j].TrainSeconds {
				res.Rows[j].TrainSeconds[k] = 0
			}
		}
		var buf bytes.Buffer
		if err := res.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		out[i] = buf.Bytes()
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Errorf("1 and 3 workers differ:\n%s\n%s", out[0], out[1])
	}
}

func TestOutputs(t *testing.T) {
	sc, d := synthDataset(t)
	cfg := smallConfig(DEUP, Ensemble)
	res, err := Run(context.Background(), d, sc.Truth, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("results.json shape", func(t *testing.T) {
		var buf bytes.Buffer
		if err := res.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		// The shape the issue fixes: methods.<name>.<metric>.{mean,sd,per_seed}, wall_seconds, seeds, test_pairs.
		var got struct {
			Methods map[string]map[string]struct {
				Mean    *float64   `json:"mean"`
				SD      *float64   `json:"sd"`
				PerSeed []*float64 `json:"per_seed"`
			} `json:"methods"`
			WallSeconds *float64 `json:"wall_seconds"`
			Seeds       int      `json:"seeds"`
			TestPairs   int      `json:"test_pairs"`
		}
		if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Seeds != 2 || got.TestPairs != res.TestPairs || got.WallSeconds == nil {
			t.Errorf("seeds %d test_pairs %d wall %v", got.Seeds, got.TestPairs, got.WallSeconds)
		}
		for _, m := range []string{DEUP, Ensemble, Constant} {
			ms, ok := got.Methods[m]
			if !ok {
				t.Fatalf("no method %q in results.json", m)
			}
			for _, k := range []string{"corr", "upper_bound", "ratio", "loglik", "coverage", "ci_width", "spearman", "rmse", "pearson_mu", "crps", "miscal_area", "sharpness", "train_seconds", "epi_corr"} {
				s, ok := ms[k]
				if !ok || len(s.PerSeed) != 2 {
					t.Errorf("%s.%s: present %v, %d per-seed values", m, k, ok, len(s.PerSeed))
				}
			}
			r := ms["rmse"]
			mean := (*r.PerSeed[0] + *r.PerSeed[1]) / 2
			if math.Abs(*r.Mean-mean) > 1e-12 {
				t.Errorf("%s rmse mean %v, per-seed mean %v", m, *r.Mean, mean)
			}
		}
		// Every float is written as a float (0.0, not 0): only the count
		// and seed fields hold integers.
		ints, err := jsonfloat.IntegerKeys(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		allowed := map[string]bool{"seeds": true, "test_pairs": true, "seed_values": true}
		for m := range got.Methods {
			allowed[m] = true // sigma_floored: {method: [counts]}
		}
		for _, k := range ints {
			if !allowed[k] {
				t.Errorf("results.json: %q holds a number written as an integer", k)
			}
		}
		// methods.NAME.conformal.{plain,normalized}.{coverage,width,worst_quintile_coverage}.{mean,sd}: the keys.
		var conf struct {
			Methods map[string]struct {
				Conformal map[string]map[string]json.RawMessage `json:"conformal"`
			} `json:"methods"`
			Alpha float64 `json:"conformal_alpha"`
		}
		if err := json.Unmarshal(buf.Bytes(), &conf); err != nil {
			t.Fatal(err)
		}
		if conf.Alpha != 0.1 {
			t.Errorf("conformal_alpha %v, want 0.1", conf.Alpha)
		}
		for _, m := range []string{DEUP, Ensemble, Constant} {
			row := res.Row(m)
			for _, kind := range []string{"plain", "normalized"} {
				for _, k := range []string{"coverage", "width", "worst_quintile_coverage", "interval_score"} {
					var s struct {
						Mean    *float64   `json:"mean"`
						SD      *float64   `json:"sd"`
						PerSeed []*float64 `json:"per_seed"`
					}
					if err := json.Unmarshal(conf.Methods[m].Conformal[kind][k], &s); err != nil {
						t.Fatalf("%s.conformal.%s.%s: %v", m, kind, k, err)
					}
					if s.Mean == nil || s.SD == nil || len(s.PerSeed) != 2 {
						t.Fatalf("%s.conformal.%s.%s: %+v", m, kind, k, s)
					}
					if want := row.conformalMetric(kind, k)[1]; *s.PerSeed[1] != want {
						t.Errorf("%s.conformal.%s.%s per_seed[1] = %v, want %v", m, kind, k, *s.PerSeed[1], want)
					}
				}
			}
		}
	})
	t.Run("predictions.parquet round trip", func(t *testing.T) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		var buf bytes.Buffer
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
		if int(tbl.NumRows()) != len(res.Predictions) || int(tbl.NumCols()) != PredictionsSchema().NumFields() {
			t.Errorf("table %d×%d, want %d×%d", tbl.NumRows(), tbl.NumCols(), len(res.Predictions), PredictionsSchema().NumFields())
		}
		// The vocabulary of docs/vocabulary.md ("Columns and types"): ids
		// are strings, σ columns sigma_total/_epistemic/_aleatoric, floats
		// float64.
		wantCols := []struct {
			name string
			typ  arrow.DataType
		}{
			{"seed", arrow.PrimitiveTypes.Uint64}, {"method", arrow.BinaryTypes.String}, {"pair", arrow.PrimitiveTypes.Int64},
			{"drug_a_id", arrow.BinaryTypes.String}, {"drug_b_id", arrow.BinaryTypes.String},
			{"y", arrow.PrimitiveTypes.Float64}, {"mu", arrow.PrimitiveTypes.Float64},
			{"sigma_total", arrow.PrimitiveTypes.Float64}, {"sigma_epistemic", arrow.PrimitiveTypes.Float64},
			{"sigma_aleatoric", arrow.PrimitiveTypes.Float64}, {"true_mean", arrow.PrimitiveTypes.Float64},
		}
		for i, f := range tbl.Schema().Fields() {
			if i >= len(wantCols) || f.Name != wantCols[i].name || !arrow.TypeEqual(f.Type, wantCols[i].typ) {
				t.Errorf("column %d: %s %v, want %+v", i, f.Name, f.Type, wantCols[min(i, len(wantCols)-1)])
			}
		}
		if tbl.NumRows() > 0 {
			a := tbl.Column(3).Data().Chunk(0).(*array.String).Value(0)
			p := res.Predictions[0].Pair
			if want := sc.Drugs[sc.Pairs[p].A].ID; a != want {
				t.Errorf("drug_a_id[0] = %q, want %q", a, want)
			}
			st := tbl.Column(7).Data().Chunk(0).(*array.Float64).Value(0)
			if st != res.Predictions[0].SigmaTotal {
				t.Errorf("sigma_total[0] = %v, want %v", st, res.Predictions[0].SigmaTotal)
			}
		}
	})
	t.Run("figures", func(t *testing.T) {
		dir := t.TempDir()
		paths, err := res.WriteFigures(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) != 8 {
			t.Fatalf("wrote %v, want 4 PNG + 4 SVG", paths)
		}
		for _, base := range []string{FigPairs, FigCalibration, FigResiduals, FigConformal} {
			f, err := os.Open(filepath.Join(dir, base+".png"))
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(f)
			f.Close()
			if err != nil {
				t.Fatalf("%s.png: %v", base, err)
			}
			if img.Bounds().Dx() < 300 {
				t.Errorf("%s.png is %v", base, img.Bounds())
			}
			svg, err := os.ReadFile(filepath.Join(dir, base+".svg"))
			if err != nil || !bytes.Contains(svg, []byte("<svg")) {
				t.Errorf("%s.svg: %v", base, err)
			}
		}
	})
	t.Run("markdown", func(t *testing.T) {
		var buf bytes.Buffer
		if err := res.WriteMarkdown(&buf); err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"| method | corr | upper_bound | ratio | loglik |", "| deup |", "| ensemble |", "| constant |", "2 seeds", "epi_corr",
			"Conformal intervals at 90 %", "| method | plain coverage | plain width | plain worst q | plain IS | normalized coverage |", "Calibration: cross-conformal on the test split"} {
			if !bytes.Contains(buf.Bytes(), []byte(s)) {
				t.Errorf("markdown lacks %q:\n%s", s, buf.String())
			}
		}
	})
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"defaults", Config{}, true},
		{"unknown method", Config{Methods: []string{"bnn"}}, false},
		{"duplicate", Config{Methods: []string{DEUP, DEUP}}, false},
		{"fractions not summing to one", Config{Fracs: [3]float64{0.5, 0.3, 0.3}}, false},
		{"zero fraction", Config{Fracs: [3]float64{0.7, 0.3, 0}}, false},
		{"bad dropout", Config{Dropout: 1.5}, false},
		{"alpha 0.05", Config{Alpha: 0.05}, true},
		{"alpha 1", Config{Alpha: 1}, false},
		{"alpha negative", Config{Alpha: -0.1}, false},
		{"alpha NaN", Config{Alpha: math.NaN()}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.cfg.Validate(); (err == nil) != tc.ok {
				t.Errorf("Validate() = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// BenchmarkScoreConformal: the conformal scoring of one row on one seed
// (432 test pairs, the PC-3 size): plain and normalized cross-conformal
// intervals and their metrics.
func BenchmarkScoreConformal(b *testing.B) {
	b.ReportAllocs()
	rng := rand.New(rand.NewPCG(1, 2))
	n := 432
	y, mu, sigma := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range y {
		mu[i], sigma[i] = rng.NormFloat64(), math.Exp(rng.Float64())
		y[i] = mu[i] + sigma[i]*rng.NormFloat64()
	}
	for b.Loop() {
		if _, err := scoreConformal(y, mu, sigma, 0.1, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFeedOrder: jobs are handed out longest first (DEUP, MC-Dropout,
// DUE, ensemble members), seeds in order within a method, each job once.
func TestFeedOrder(t *testing.T) {
	// The jobs of Run for seeds 1, 2, the default methods and 2 members:
	// seed-major, an ensemble's members one after the other.
	names := []string{DEUP, Ensemble, Ensemble, MCDropout, DUE, DEUP, Ensemble, Ensemble, MCDropout, DUE}
	got := feedOrder(methods.Default(), len(names), func(k int) string { return names[k] })
	want := []int{0, 5, 3, 8, 4, 9, 1, 2, 6, 7}
	if !slices.Equal(got, want) {
		t.Errorf("feedOrder = %v, want %v", got, want)
	}
	names = []string{EnsembleNLL, DUE, MCDropout}
	if got, want := feedOrder(methods.Default(), 3, func(k int) string { return names[k] }), []int{2, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("feedOrder(ensemble-nll, due, mcdropout) = %v, want %v", got, want)
	}
}

// TestRatioUndefinedInTable: a row whose sigma barely varies (DUE on PC-3,
// docs/validation.md: upper_bound 0.004, -0.010, -0.006 per seed on 432
// test pairs) shows "—" for ratio, null in results.json, and the reason
// under the table; a row above the threshold 2/sqrt(432) = 0.096 keeps its
// ratio.
func TestRatioUndefinedInTable(t *testing.T) {
	score := func(corr, ub float64) uq.Metrics {
		return uq.Metrics{N: 432, Corr: corr, UpperBound: ub, Ratio: uq.Ratio(corr, ub, 432)}
	}
	res := &Result{
		Seeds: []uint64{1, 2, 3}, TestPairs: 432,
		Rows: []Row{
			{Method: "deup", PerSeed: []uq.Metrics{score(0.30, 0.34), score(0.29, 0.33), score(0.33, 0.35)}, TrainSeconds: []float64{1, 1, 1}},
			{Method: "due", PerSeed: []uq.Metrics{score(0.03, 0.004), score(0.26, -0.010), score(0.17, -0.006)}, TrainSeconds: []float64{1, 1, 1}},
		},
	}
	var b strings.Builder
	if err := res.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	table := b.String()
	for _, want := range []string{
		"| deup | 0.31 ± 0.02 | 0.34 ± 0.01 | 0.90 ± 0.04 |",
		"| due | 0.15 ± 0.12 | -0.00 ± 0.01 | — |",
		"where upper_bound < 2/sqrt(n) = 0.096 for n = 432 test pairs",
		"due on 3 of 3 seeds (upper_bound 0.004, -0.010, -0.006)",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if strings.Contains(table, "deup on") {
		t.Errorf("the note names deup, whose ratio is defined:\n%s", table)
	}
	var js bytes.Buffer
	if err := res.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Methods map[string]map[string]struct {
			Mean    *float64   `json:"mean"`
			PerSeed []*float64 `json:"per_seed"`
		} `json:"methods"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	due := doc.Methods["due"]["ratio"]
	if due.Mean != nil || len(due.PerSeed) != 3 || due.PerSeed[0] != nil {
		t.Errorf("results.json due ratio: mean %v, per seed %v; want null", due.Mean, due.PerSeed)
	}
}
