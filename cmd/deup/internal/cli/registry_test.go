package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/methods"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/trained"
)

// toyMagic starts the toy method's model files: its own file kind.
const toyMagic = "TOYMODEL\n"

// toy is a method registered by this test alone: μ is the mean of the
// training targets, σ_total = σ_epistemic a constant (their standard
// deviation), no aleatoric part. It implements model.Method and saves
// itself in its own format.
type toy struct {
	Mean, SD float64
	Feat     model.FeatureConfig
	scale    float64 // --toy-scale: σ is scale × the targets' sd
}

func (m *toy) Name() string                       { return "toy" }
func (m *toy) FeatureConfig() model.FeatureConfig { return m.Feat }
func (m *toy) AleatoricNote() string              { return "toy: no aleatoric estimate, aleatoric 0" }

func (m *toy) Fit(ctx context.Context, d *model.Dataset, split drugcomb.Split, progress func(model.Progress)) error {
	if len(split.Train) == 0 {
		return errors.New("toy: no training pairs")
	}
	var s, ss float64
	for _, i := range split.Train {
		s += d.Y[i]
	}
	m.Mean = s / float64(len(split.Train))
	for _, i := range split.Train {
		ss += (d.Y[i] - m.Mean) * (d.Y[i] - m.Mean)
	}
	m.SD = m.scale * math.Sqrt(ss/float64(len(split.Train)))
	m.Feat = d.Features.Config
	if progress != nil {
		progress(model.Progress{Method: "toy", Members: 1, Epoch: 1, MaxEpochs: 1, BestEpoch: 1, OutLoss: math.NaN()})
		progress(model.Progress{Method: "toy", Members: 1, Epoch: 1, MaxEpochs: 1, BestEpoch: 1, OutLoss: math.NaN(), Done: true})
	}
	return nil
}

func (m *toy) Predict(f *model.Features, pairs []model.PairRef) ([]model.Prediction, error) {
	out := make([]model.Prediction, len(pairs))
	for i := range out {
		out[i] = model.Prediction{Mu: m.Mean, SigmaTotal: m.SD, SigmaEpistemic: m.SD}
	}
	return out, nil
}

func (m *toy) Save(w io.Writer) error {
	js, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s%s\n", toyMagic, js)
	return err
}

func loadToy(r io.Reader) (model.Method, error) {
	br := bufio.NewReader(r)
	head, err := br.ReadString('\n')
	if err != nil || head != toyMagic {
		return nil, errors.New("toy: not a toy model file")
	}
	m := new(toy)
	if err := json.NewDecoder(br).Decode(m); err != nil {
		return nil, fmt.Errorf("toy: %w", err)
	}
	return m, nil
}

// toySpec is the toy's registration: its name, constructor, file kind and
// loader, its own flag (--toy-scale, which methods.Config does not know:
// the flag's setter writes the spec's own setting) and its place in the
// benchmark.
func toySpec() methods.Spec {
	scale := 1.0
	return methods.Spec{
		Name:  "toy",
		New:   func(methods.Config) (model.Method, error) { return &toy{scale: scale}, nil },
		Kinds: []string{toyMagic}, Load: loadToy,
		Flags: []methods.Flag{{Name: "toy-scale", Define: func(fs *flag.FlagSet) func(*methods.Config) error {
			v := fs.Float64("toy-scale", 1, "sigma as a multiple of the targets' sd (toy)")
			return func(*methods.Config) error {
				if !(*v > 0) {
					return fmt.Errorf("--toy-scale %v: want > 0", *v)
				}
				scale = *v
				return nil
			}
		}}},
		Bench: methods.Bench{Rank: 5},
	}
}

// toyRegistry is the built-in methods and the toy: the one registration
// line a new method needs.
func toyRegistry(t *testing.T) *methods.Registry {
	reg := methods.Default()
	if err := reg.Add(toySpec()); err != nil {
		t.Fatal(err)
	}
	return reg
}

func runWith(t *testing.T, reg *methods.Registry, args ...string) (stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := MainWith(context.Background(), args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, reg); code != 0 {
		t.Fatalf("deup %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out.String(), errb.String())
	}
	return out.String(), errb.String()
}

// TestRegistryToyMethod: a method registered outside the project's
// packages, with no other file changed for it, trains, saves, loads,
// predicts and benches through the commands.
func TestRegistryToyMethod(t *testing.T) {
	reg := toyRegistry(t)
	dir := t.TempDir()
	mp := filepath.Join(dir, "toy.model")

	out, _ := runWith(t, reg, "train", "--method", "toy", "--seed", "3", "--out", mp)
	for _, want := range []string{"trained toy: 1 epochs in all", "toy: no aleatoric estimate, aleatoric 0", "calibration stored"} {
		if !strings.Contains(out, want) {
			t.Errorf("train output lacks %q:\n%s", want, out)
		}
	}
	tm, err := trained.ReadFile(mp, reg.Load)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := tm.Method.(*toy)
	if !ok || tm.Meta == nil || tm.Meta.Method != "toy" {
		t.Fatalf("read back %T, meta %+v", tm.Method, tm.Meta)
	}
	// The toy's μ is the mean of its in-sample targets: a mean of the
	// screen's scores, with a positive spread.
	if !(m.SD > 0) || math.IsNaN(m.Mean) {
		t.Fatalf("toy fitted mean %v, sd %v", m.Mean, m.SD)
	}
	if _, err := trained.ReadFile(mp, methods.Default().Load); err == nil {
		t.Error("the built-in registry read the toy's file")
	}
	// The toy's own flag reaches it through its registration alone.
	mp2 := filepath.Join(dir, "toy2.model")
	runWith(t, toyRegistry(t), "train", "--method", "toy", "--seed", "3", "--toy-scale", "2", "--out", mp2)
	tm2, err := trained.ReadFile(mp2, reg.Load)
	if err != nil {
		t.Fatal(err)
	}
	if m2 := tm2.Method.(*toy); m2.Mean != m.Mean || math.Abs(m2.SD-2*m.SD) > 1e-12*m.SD {
		t.Errorf("--toy-scale 2: mean %v, sd %v; want %v and twice %v", m2.Mean, m2.SD, m.Mean, m.SD)
	}

	sc, _, err := loadScreen("")
	if err != nil {
		t.Fatal(err)
	}
	pairsCSV := filepath.Join(dir, "pairs.csv")
	body := "drug_a,drug_b\n" + sc.Drugs[0].ID + "," + sc.Drugs[1].ID + "\n" + sc.Drugs[2].ID + "," + sc.Drugs[5].ID + "\n"
	if err := os.WriteFile(pairsCSV, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	predCSV := filepath.Join(dir, "pred.csv")
	runWith(t, reg, "predict", "--model", mp, "--pairs", pairsCSV, "--out", predCSV)
	fh, err := os.Open(predCSV)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(fh).ReadAll()
	fh.Close()
	if err != nil || len(rows) != 3 {
		t.Fatalf("predictions %v, %v", rows, err)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, r := range rows[1:] {
		mu, _ := strconv.ParseFloat(r[col["mu"]], 64)
		st, _ := strconv.ParseFloat(r[col["sigma_total"]], 64)
		sa, _ := strconv.ParseFloat(r[col["sigma_aleatoric"]], 64)
		if math.Abs(mu-m.Mean) > 1e-4*math.Max(1, math.Abs(m.Mean)) || math.Abs(st-m.SD) > 1e-4*m.SD || sa != 0 {
			t.Errorf("predicted %v, want mu %v, sigma_total %v, sigma_aleatoric 0", r, m.Mean, m.SD)
		}
	}

	bout := filepath.Join(dir, "bench")
	out, _ = runWith(t, reg, "bench", "--methods", "toy", "--seeds", "1", "--no-figures", "--out", bout)
	if !strings.Contains(out, "| toy |") {
		t.Errorf("bench table lacks the toy's row:\n%s", out)
	}
	b, err := os.ReadFile(filepath.Join(bout, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Methods map[string]struct {
			RMSE struct{ Mean float64 } `json:"rmse"`
		} `json:"methods"`
		TestPairs int `json:"test_pairs"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	toyRes, ok := res.Methods["toy"]
	if !ok || len(res.Methods) != 1 || res.TestPairs == 0 {
		t.Fatalf("results.json: %s", b)
	}
	// A constant μ's test RMSE is about the spread of the scores.
	if r := toyRes.RMSE.Mean; !(r > 0.5*m.SD && r < 2*m.SD) {
		t.Errorf("toy test RMSE %v, the scores' sd about %v", r, m.SD)
	}
}
