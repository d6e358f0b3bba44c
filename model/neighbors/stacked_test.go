package neighbors

import (
	"bytes"
	"context"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/onehot"
)

// recorder is an inner method that keeps the targets it was fitted on and
// predicts μ = 1, σ = 2 for every pair.
type recorder struct {
	y    []float64
	feat model.FeatureConfig
}

func (r *recorder) Name() string { return "recorder" }
func (r *recorder) Fit(_ context.Context, d *model.Dataset, _ drugcomb.Split, _ func(model.Progress)) error {
	r.y, r.feat = append([]float64(nil), d.Y...), d.Features.Config
	return nil
}
func (r *recorder) Predict(_ *model.Features, pairs []model.PairRef) ([]model.Prediction, error) {
	out := make([]model.Prediction, len(pairs))
	for k := range out {
		out[k] = model.Prediction{Mu: 1, SigmaTotal: 2}
	}
	return out, nil
}
func (r *recorder) Save(io.Writer) error               { return nil }
func (r *recorder) FeatureConfig() model.FeatureConfig { return r.feat }
func (r *recorder) AleatoricNote() string              { return "" }

// TestStackedTargets: the inner method trains on y minus an out-of-fold
// estimate: a training pair's target does not move when its own scores
// do (every line of the combination changed), while the pairs of its
// inner fold keep theirs and the other folds' move (the changed scores
// are in their memory); μ is the full estimate plus the inner μ.
func TestStackedTargets(t *testing.T) {
	d, split := grouped(16, 2, 4)
	fit := func(d *model.Dataset) (*Stacked, *recorder) {
		rec := &recorder{}
		s := NewStacked("stacked", 7, rec)
		if err := s.Fit(context.Background(), d, split, nil); err != nil {
			t.Fatal(err)
		}
		return s, rec
	}
	s, rec := fit(d)
	i := split.Train[0]
	p := d.Pairs[i]
	moved := *d
	moved.Y = append([]float64(nil), d.Y...)
	for j, q := range d.Pairs {
		if q.A == p.A && q.B == p.B {
			moved.Y[j] += 100
		}
	}
	_, rec2 := fit(&moved)
	// The pair's own estimate is out of fold: its target moves by exactly
	// the change of its score.
	if got := rec2.y[i] - rec.y[i]; math.Abs(got-100) > 1e-9 {
		t.Errorf("target of the changed pair moved by %v, want 100 (its estimate must not see its own score)", got)
	}
	known := append(append([]int(nil), split.Train...), split.Val...)
	other := 0
	for _, j := range known {
		if d.Pairs[j] != p && rec2.y[j] != rec.y[j] {
			other++
		}
	}
	if other == 0 {
		t.Error("no other pair's target moved: the estimates do not read the training scores")
	}
	pred, err := s.Predict(d.Features, d.PairsAt(split.Test))
	if err != nil {
		t.Fatal(err)
	}
	base, err := s.cf.Predict(d.Features, d.PairsAt(split.Test))
	if err != nil {
		t.Fatal(err)
	}
	for k := range pred {
		if pred[k].Mu != base[k].Mu+1 || pred[k].SigmaTotal != 2 {
			t.Fatalf("pair %d: %+v, want μ %v + 1 and the inner σ 2", k, pred[k], base[k].Mu)
		}
	}
}

// TestStackedSaveLoad: with the one-hot MLP inside, a saved stacked model
// predicts bit for bit as the trained one, and is no worse on the
// grouped screen's test pairs than the neighbour estimate alone by more
// than a tenth of its RMSE.
func TestStackedSaveLoad(t *testing.T) {
	d, split := grouped(24, 3, 6)
	s := NewStacked("stacked", 1, onehot.New(onehot.Config{Config: model.Config{Seed: 1, MaxEpochs: 20}}))
	if err := s.Fit(context.Background(), d, split, nil); err != nil {
		t.Fatal(err)
	}
	pairs := d.PairsAt(split.Test)
	pred, err := s.Predict(d.Features, pairs)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	l, err := LoadStacked(&buf, func(r io.Reader) (model.Method, error) { return onehot.Load(r) })
	if err != nil {
		t.Fatal(err)
	}
	again, err := l.Predict(d.Features, pairs)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := s.cf.Predict(d.Features, pairs)
	var se, sb float64
	for k, i := range split.Test {
		if again[k] != pred[k] {
			t.Fatalf("pair %d: loaded %+v, trained %+v", k, again[k], pred[k])
		}
		se += (pred[k].Mu - d.Y[i]) * (pred[k].Mu - d.Y[i])
		sb += (base[k].Mu - d.Y[i]) * (base[k].Mu - d.Y[i])
	}
	rs, rb := math.Sqrt(se/float64(len(pairs))), math.Sqrt(sb/float64(len(pairs)))
	t.Logf("test RMSE: stacked %.3f, neighbour estimate %.3f", rs, rb)
	if rs > 1.1*rb {
		t.Errorf("stacked RMSE %.3f, more than 1.1 × the estimate's %.3f", rs, rb)
	}
	if l.Name() != "stacked" {
		t.Errorf("loaded name %q", l.Name())
	}
	for _, bad := range []string{"", StackedMagic, StackedMagic + "\x03\x00\x00\x00\x00\x00\x00\x00abc\x01\x00\x00\x00\x00\x00\x00\x00x"} {
		if _, err := LoadStacked(bytes.NewBufferString(bad), func(r io.Reader) (model.Method, error) { return onehot.Load(r) }); err == nil {
			t.Errorf("LoadStacked(%q) accepted", bad)
		}
	}
}

// TestStackedValidationRMSE: the validation RMSE Fit reports is that of
// the validation pairs' out-of-fold estimate plus the inner μ (with the
// recorder, μ − y = 1 − the pair's target, by the targets' definition),
// not of the fitted model, whose memory holds the validation scores and
// so predicts them better than it predicts a pair never measured.
func TestStackedValidationRMSE(t *testing.T) {
	d, split := grouped(16, 2, 4)
	rec := &recorder{}
	s := NewStacked("stacked", 7, rec)
	if !math.IsNaN(s.ValidationRMSE()) {
		t.Errorf("before Fit: ValidationRMSE %v, want NaN", s.ValidationRMSE())
	}
	if err := s.Fit(context.Background(), d, split, nil); err != nil {
		t.Fatal(err)
	}
	var se, sm float64
	pred, err := s.Predict(d.Features, d.PairsAt(split.Val))
	if err != nil {
		t.Fatal(err)
	}
	for k, i := range split.Val {
		e := 1 - rec.y[i]
		se += e * e
		sm += (pred[k].Mu - d.Y[i]) * (pred[k].Mu - d.Y[i])
	}
	want := math.Sqrt(se / float64(len(split.Val)))
	if got := s.ValidationRMSE(); math.Abs(got-want) > 1e-9*want {
		t.Errorf("ValidationRMSE %v, want %v (out-of-fold estimate + inner μ)", got, want)
	}
	if inMemory := math.Sqrt(sm / float64(len(split.Val))); !(inMemory < want) {
		t.Errorf("RMSE of the fitted model on its validation pairs %v, not below the out-of-fold %v: the test does not separate the two", inMemory, want)
	}
}

// lineRecorder is a recorder that can add lines: it keeps the rows
// AddLines gave it and predicts μ = 1 on every line.
type lineRecorder struct {
	recorder
	x [][]float64
}

func (r *lineRecorder) LineFeatures() [][]float64 { return r.x }
func (r *lineRecorder) AddLines(x [][]float64) error {
	r.x = x
	return nil
}

// TestStackedAddLines: a stacked model adds a line when its inner method
// can (model.LineAdder): the inner method gets the rows, and μ on the new
// line is the neighbour estimate's pooled additive part plus the inner
// μ; fewer rows than lines are refused before the inner method is
// touched, and an inner method that cannot add lines is named.
func TestStackedAddLines(t *testing.T) {
	d, split := grouped(12, 2, 4)
	inner := &lineRecorder{x: [][]float64{{1}, {2}}}
	s := NewStacked("stacked", 7, inner)
	if err := s.Fit(context.Background(), d, split, nil); err != nil {
		t.Fatal(err)
	}
	var la model.LineAdder = s
	if got := la.LineFeatures(); len(got) != 2 {
		t.Fatalf("LineFeatures %v, want the inner method's 2 rows", got)
	}
	if err := la.AddLines([][]float64{{1}}); err == nil || len(inner.x) != 2 {
		t.Errorf("1 row for 2 lines: %v, inner rows %v", err, inner.x)
	}
	x := [][]float64{{1}, {2}, {3}}
	if err := la.AddLines(x); err != nil {
		t.Fatal(err)
	}
	if len(inner.x) != 3 {
		t.Errorf("inner rows %v, want 3", inner.x)
	}
	pred, err := s.Predict(d.Features, []model.PairRef{{A: 0, B: 1, Line: 2}})
	if err != nil {
		t.Fatal(err)
	}
	a, b := s.cf.drugs[d.Features.ID(0)], s.cf.drugs[d.Features.ID(1)]
	want := reference(s.cf.rows, len(s.cf.ids), 3, s.cf.k, a, b, 2) + 1
	if math.Abs(pred[0].Mu-want) > 1e-9*(1+math.Abs(want)) {
		t.Errorf("new line: μ %v, want the pooled additive part + 1 = %v", pred[0].Mu, want)
	}
	plain := NewStacked("stacked", 7, &recorder{})
	if err := plain.Fit(context.Background(), d, split, nil); err != nil {
		t.Fatal(err)
	}
	if err := plain.AddLines(x); err == nil || !strings.Contains(err.Error(), "recorder") {
		t.Errorf("inner method without AddLines: %v, want an error naming it", err)
	}
}
