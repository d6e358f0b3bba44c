package neighbors

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"

	"github.com/deup-screening/deup/internal/streams"
)

// StackedMagic starts every saved stacked model.
const StackedMagic = "DEUP-STACKED v1\n"

// StackFolds is the number of inner folds of the out-of-fold estimates.
const StackFolds = 5

// Stacked is a method trained on what the neighbour estimate leaves: its
// μ is the neighbour estimate of the pair plus the inner method's μ, and
// its σ the inner method's, which learns the error of that sum (DEUP: on
// its out-of-sample pairs). It implements model.Method.
//
// Fit first fits the neighbour estimate as Method does (K on the
// validation pairs, then the memory of the training and validation
// pairs). The inner method then trains on y − ŷ, where ŷ of a training or
// validation pair is out of fold: the combinations of both parts are
// dealt into StackFolds folds from the seed, and the estimate of a
// fold's pairs comes from the other folds' pairs at the same K, so that a
// pair's own score never enters its ŷ (a pair asked about in use has no
// score either). The other pairs' targets (the test part) are y minus the
// full estimate; the inner method does not read them.
type Stacked struct {
	name  string
	seed  uint64
	cf    *Method
	inner model.Method
	// valRMSE is the RMSE on the validation pairs of their out-of-fold
	// estimate plus the inner μ (Fit; not saved).
	valRMSE float64
}

// NewStacked returns an untrained stacked method of the given registry
// name around inner, its inner folds drawn from seed.
func NewStacked(name string, seed uint64, inner model.Method) *Stacked {
	return &Stacked{name: name, seed: seed, inner: inner, cf: New(Config{}), valRMSE: math.NaN()}
}

// Name implements model.Method.
func (s *Stacked) Name() string { return s.name }

// K is the neighbour count of the estimate (after Fit or Load).
func (s *Stacked) K() int { return s.cf.k }

// Inner is the method trained on the neighbour estimate's residuals.
func (s *Stacked) Inner() model.Method { return s.inner }

// FeatureConfig implements model.Method: the inner method's.
func (s *Stacked) FeatureConfig() model.FeatureConfig { return s.inner.FeatureConfig() }

// AleatoricNote implements model.Method: the inner method's.
func (s *Stacked) AleatoricNote() string { return s.inner.AleatoricNote() }

// Fit implements model.Method.
func (s *Stacked) Fit(ctx context.Context, d *model.Dataset, split drugcomb.Split, progress func(model.Progress)) error {
	if err := s.cf.Fit(ctx, d, split, nil); err != nil {
		return err
	}
	known := append(slices.Clone(split.Train), split.Val...)
	oof, err := s.outOfFold(ctx, d, known)
	if err != nil {
		return err
	}
	full, err := s.cf.Predict(d.Features, d.Pairs)
	if err != nil {
		return err
	}
	r := *d
	r.Y = make([]float64, len(d.Y))
	for i, p := range full {
		r.Y[i] = d.Y[i] - p.Mu
	}
	for k, i := range known {
		r.Y[i] = d.Y[i] - oof[k]
	}
	if err := s.inner.Fit(ctx, &r, split, progress); err != nil {
		return err
	}
	s.valRMSE = math.NaN()
	if len(split.Val) == 0 {
		return nil
	}
	res, err := s.inner.Predict(d.Features, d.PairsAt(split.Val))
	if err != nil {
		return err
	}
	var se float64
	for k, i := range split.Val {
		e := oof[len(split.Train)+k] + res[k].Mu - d.Y[i]
		se += e * e
	}
	s.valRMSE = math.Sqrt(se / float64(len(split.Val)))
	return nil
}

// ValidationRMSE is the RMSE on the validation pairs of Fit's split of
// their out-of-fold neighbour estimate plus the inner μ: the
// out-of-sample figure of the fit, since the validation pairs are in the
// neighbour memory after it (NaN without validation pairs, or before
// Fit).
func (s *Stacked) ValidationRMSE() float64 { return s.valRMSE }

// outOfFold returns the out-of-fold neighbour estimate of each pair of
// idx (in idx's order), at the K of s.cf.
func (s *Stacked) outOfFold(ctx context.Context, d *model.Dataset, idx []int) ([]float64, error) {
	// The unordered drug pairs of idx in their order of appearance, dealt
	// into folds from a seeded permutation.
	type combo struct{ a, b int }
	of := map[combo]int{}
	var combos []combo
	key := func(p model.PairRef) combo {
		return combo{min(p.A, p.B), max(p.A, p.B)}
	}
	for _, i := range idx {
		c := key(d.Pairs[i])
		if _, ok := of[c]; !ok {
			of[c] = len(combos)
			combos = append(combos, c)
		}
	}
	perm := rand.New(rand.NewPCG(s.seed, streams.StackFolds)).Perm(len(combos))
	fold := make([]int, len(combos))
	for rank, c := range perm {
		fold[c] = rank % StackFolds
	}
	out := make([]float64, len(idx))
	for f := range StackFolds {
		var in, at []int
		for k, i := range idx {
			if fold[of[key(d.Pairs[i])]] == f {
				at = append(at, k)
			} else {
				in = append(in, i)
			}
		}
		if len(at) == 0 {
			continue
		}
		m := New(Config{K: s.cf.k})
		if err := m.memorize(d, in); err != nil {
			return nil, err
		}
		m.feat, m.lines = s.cf.feat, s.cf.lines
		if err := m.build(ctx); err != nil {
			return nil, err
		}
		m.k, m.trained = s.cf.k, true
		cols := m.columns(d.Features)
		for _, k := range at {
			p := d.Pairs[idx[k]]
			out[k] = m.mu(cols[p.A], cols[p.B], p.Line, m.k)
		}
	}
	return out, nil
}

// LineFeatures implements model.LineAdder: the inner method's (nil when
// it has none or cannot add lines).
func (s *Stacked) LineFeatures() [][]float64 {
	if la, ok := s.inner.(model.LineAdder); ok {
		return la.LineFeatures()
	}
	return nil
}

// AddLines implements model.LineAdder: the inner method takes the lines
// of x from their features (its AddLines), and the neighbour estimate
// gives each new line the pooled additive part (Method.AddLines), so
// that μ on a new line is that part plus the inner method's residual.
func (s *Stacked) AddLines(x [][]float64) error {
	la, ok := s.inner.(model.LineAdder)
	if !ok {
		return fmt.Errorf("neighbors: add lines: the inner %s model cannot add lines", s.inner.Name())
	}
	if err := s.cf.checkAddLines(len(x)); err != nil {
		return err
	}
	if err := la.AddLines(x); err != nil {
		return err
	}
	return s.cf.AddLines(context.Background(), len(x))
}

// Predict implements model.Method: the inner method's predictions with
// the neighbour estimate added to μ.
func (s *Stacked) Predict(f *model.Features, pairs []model.PairRef) ([]model.Prediction, error) {
	base, err := s.cf.Predict(f, pairs)
	if err != nil {
		return nil, err
	}
	res, err := s.inner.Predict(f, pairs)
	if err != nil {
		return nil, err
	}
	for k := range res {
		res[k].Mu += base[k].Mu
	}
	return res, nil
}

// Save implements model.Method: StackedMagic, the name's and the
// neighbour model's lengths (uint64, little endian) with the name and
// the neighbour model (Method.Save), then the inner model (its Save).
func (s *Stacked) Save(w io.Writer) error {
	var cf bytes.Buffer
	if err := s.cf.Save(&cf); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(StackedMagic)
	binary.Write(bw, binary.LittleEndian, uint64(len(s.name)))
	bw.WriteString(s.name)
	binary.Write(bw, binary.LittleEndian, uint64(cf.Len()))
	bw.Write(cf.Bytes())
	if err := s.inner.Save(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// LoadStacked reads a model written by Stacked.Save; loadInner reads the
// inner model from the rest of r.
func LoadStacked(r io.Reader, loadInner func(io.Reader) (model.Method, error)) (*Stacked, error) {
	br := bufio.NewReader(r)
	mg := make([]byte, len(StackedMagic))
	if _, err := io.ReadFull(br, mg); err != nil || string(mg) != StackedMagic {
		return nil, fmt.Errorf("neighbors: load: not a saved stacked model (bad magic)")
	}
	part := func(what string, limit uint64) ([]byte, error) {
		var n uint64
		if err := binary.Read(br, binary.LittleEndian, &n); err != nil || n > limit {
			return nil, fmt.Errorf("neighbors: load: %s length %d: %v", what, n, err)
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			return nil, fmt.Errorf("neighbors: load: %s: %w", what, err)
		}
		return b, nil
	}
	name, err := part("name", 256)
	if err != nil {
		return nil, err
	}
	blob, err := part("neighbour model", maxHeader+64)
	if err != nil {
		return nil, err
	}
	cf, err := Load(bytes.NewReader(blob))
	if err != nil {
		return nil, err
	}
	inner, err := loadInner(br)
	if err != nil {
		return nil, fmt.Errorf("neighbors: load: inner model: %w", err)
	}
	if inner.FeatureConfig() != cf.feat {
		return nil, fmt.Errorf("neighbors: load: inner model's features %+v, neighbour model's %+v", inner.FeatureConfig(), cf.feat)
	}
	return &Stacked{name: string(name), cf: cf, inner: inner, valRMSE: math.NaN()}, nil
}
