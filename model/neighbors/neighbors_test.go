package neighbors

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/uq"
)

// grouped is a screen of nd drugs in 4 groups on nl lines whose score is
// s(a) + s(b) + t(l) + w(group a, group b, l) plus noise of sd 0.5: an
// interaction that the additive part cannot fit and that a drug's
// neighbours (its group) tell. Every unordered pair (a < b) is measured on
// every line; the split deals whole combinations 60/20/20.
func grouped(nd, nl int, seed uint64) (*model.Dataset, drugcomb.Split) {
	rng := rand.New(rand.NewPCG(seed, 2))
	f := &model.Features{Config: model.FeatureConfig{Kind: "fp", Radius: 3, NBits: 8}, RowPtr: []int{0}}
	s, g := make([]float64, nd), make([]int, nd)
	for i := range nd {
		s[i], g[i] = rng.NormFloat64(), i%4
		f.IDs = append(f.IDs, "d"+string(rune('A'+i%26))+string(rune('a'+i/26)))
		f.Col = append(f.Col, int32(i%8))
		f.Val = append(f.Val, 1)
		f.RowPtr = append(f.RowPtr, len(f.Col))
	}
	w := make([]float64, 16*nl)
	for i := range w {
		w[i] = 4 * rng.NormFloat64()
	}
	for x := range 4 {
		for y := range x {
			for l := range nl {
				w[(x*4+y)*nl+l] = w[(y*4+x)*nl+l] // symmetric in the groups
			}
		}
	}
	d := &model.Dataset{Features: f}
	t := make([]float64, nl)
	for l := range nl {
		t[l] = 3 * rng.NormFloat64()
		if nl > 1 {
			d.LineNames = append(d.LineNames, "L"+string(rune('a'+l)))
		}
	}
	var combos [][]int
	for a := 0; a < nd; a++ {
		for b := a + 1; b < nd; b++ {
			var c []int
			for l := range nl {
				c = append(c, len(d.Pairs))
				d.Pairs = append(d.Pairs, model.PairRef{A: a, B: b, Line: l})
				d.Y = append(d.Y, s[a]+s[b]+t[l]+w[(g[a]*4+g[b])*nl+l]+0.5*rng.NormFloat64())
				d.N = append(d.N, 1)
				d.Var = append(d.Var, math.NaN())
			}
			combos = append(combos, c)
		}
	}
	rng.Shuffle(len(combos), func(i, j int) { combos[i], combos[j] = combos[j], combos[i] })
	var split drugcomb.Split
	for k, c := range combos {
		switch k * 10 / len(combos) {
		case 0, 1:
			split.Test = append(split.Test, c...)
		case 2, 3:
			split.Val = append(split.Val, c...)
		default:
			split.Train = append(split.Train, c...)
		}
	}
	return d, split
}

// TestRecoversInteraction: on held-out combinations of the grouped
// screens the neighbour part fits the group interaction that the
// additive part (K = 0 neighbours: m + d + d) cannot; the prediction is
// order-free and a saved model predicts bit for bit as the trained one.
func TestRecoversInteraction(t *testing.T) {
	for _, tc := range []struct {
		name   string
		nd, nl int
		minR   float64 // Pearson r of μ on the test pairs at least
	}{
		{"one line", 40, 1, 0.9},
		{"three lines", 24, 3, 0.9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, split := grouped(tc.nd, tc.nl, 5)
			m := New(Config{})
			if err := m.Fit(context.Background(), d, split, nil); err != nil {
				t.Fatal(err)
			}
			pairs := d.PairsAt(split.Test)
			pred, err := m.Predict(d.Features, pairs)
			if err != nil {
				t.Fatal(err)
			}
			swapped := make([]model.PairRef, len(pairs))
			for k, p := range pairs {
				swapped[k] = model.PairRef{A: p.B, B: p.A, Line: p.Line}
			}
			back, err := m.Predict(d.Features, swapped)
			if err != nil {
				t.Fatal(err)
			}
			cols := m.columns(d.Features)
			y, mu, add := make([]float64, len(pairs)), make([]float64, len(pairs)), make([]float64, len(pairs))
			for k, i := range split.Test {
				y[k], mu[k] = d.Y[i], pred[k].Mu
				add[k] = m.mu(cols[pairs[k].A], cols[pairs[k].B], pairs[k].Line, 0)
				if back[k].Mu != pred[k].Mu {
					t.Fatalf("pair %d: μ(a, b) %v, μ(b, a) %v", k, pred[k].Mu, back[k].Mu)
				}
				if pred[k].SigmaTotal != m.sigma || pred[k].SigmaAleatoric != 0 {
					t.Fatalf("pair %d: σ %+v, want the validation RMSE %v", k, pred[k], m.sigma)
				}
			}
			r, r0 := uq.Pearson(y, mu), uq.Pearson(y, add)
			t.Logf("K %d: test r %.3f (additive part alone %.3f), σ %.3f", m.K(), r, r0, m.sigma)
			if r < tc.minR || r < r0+0.2 {
				t.Errorf("test r %.3f, want >= %.2f and 0.2 above the additive part's %.3f", r, tc.minR, r0)
			}
			var buf bytes.Buffer
			if err := m.Save(&buf); err != nil {
				t.Fatal(err)
			}
			l, err := Load(&buf)
			if err != nil {
				t.Fatal(err)
			}
			again, err := l.Predict(d.Features, pairs)
			if err != nil {
				t.Fatal(err)
			}
			for k := range pred {
				if again[k] != pred[k] {
					t.Fatalf("pair %d: loaded %+v, trained %+v", k, again[k], pred[k])
				}
			}
		})
	}
}

// reference computes μ from the package documentation's formulas
// directly, with none of Fit's indexing: the averaged rows, the line
// means, the deviations, the residuals, every similarity by a scan of
// all keys, and the K nearest by a sort.
func reference(rows []Row, nd, nl, k, a, b, l int) float64 {
	lm := make([]float64, nl)
	cnt := make([]float64, nl)
	for _, r := range rows {
		lm[r.Line] += r.Y
		cnt[r.Line]++
	}
	for i := range lm {
		if cnt[i] > 0 {
			lm[i] /= cnt[i]
		}
	}
	dev := func(x, l int) float64 {
		s, n := 0.0, 0.0
		for _, r := range rows {
			if r.Line == l && (r.A == x || r.B == x) {
				s += r.Y - lm[l]
				n++
			}
		}
		return s / (n + 5)
	}
	if cnt[l] == 0 {
		// A line without measurements: the mean of every score and the
		// drugs' deviations pooled over their lines (doc.go).
		all, pooled := 0.0, func(x int) float64 {
			s, n := 0.0, 0.0
			for _, r := range rows {
				if r.A == x || r.B == x {
					s += r.Y - lm[r.Line]
					n++
				}
			}
			return s / (n + 5)
		}
		for _, r := range rows {
			all += r.Y
		}
		return all/float64(len(rows)) + pooled(a) + pooled(b)
	}
	res := map[[3]int]float64{}
	for _, r := range rows {
		e := r.Y - lm[r.Line] - dev(r.A, r.Line) - dev(r.B, r.Line)
		res[[3]int{r.A, r.B, r.Line}] = e
		res[[3]int{r.B, r.A, r.Line}] = e
	}
	sim := func(x, y int) float64 {
		var u, v []float64
		for p := range nd {
			for l := range nl {
				ru, ok1 := res[[3]int{x, p, l}]
				rv, ok2 := res[[3]int{y, p, l}]
				if ok1 && ok2 {
					u, v = append(u, ru), append(v, rv)
				}
			}
		}
		if len(u) < 3 {
			return 0
		}
		n := float64(len(u))
		return uq.Pearson(u, v) * n / (n + 10)
	}
	near := func(x int) []int {
		var c []int
		for e := range nd {
			if e != x && sim(x, e) > 0 {
				c = append(c, e)
			}
		}
		sort.SliceStable(c, func(i, j int) bool { return sim(x, c[i]) > sim(x, c[j]) })
		return c[:min(k, len(c))]
	}
	num, den := 0.0, 0.0
	for _, x := range near(b) {
		if r, ok := res[[3]int{a, x, l}]; ok {
			num += sim(b, x) * r
			den += sim(b, x)
		}
	}
	for _, x := range near(a) {
		if r, ok := res[[3]int{b, x, l}]; ok {
			num += sim(a, x) * r
			den += sim(a, x)
		}
	}
	return lm[l] + dev(a, l) + dev(b, l) + num/(den+1)
}

// TestMatchesReference: Fit's μ equals the formulas computed directly
// (reference) on a small two-line screen, for every pair of drugs and K,
// within rounding.
func TestMatchesReference(t *testing.T) {
	d, split := grouped(10, 2, 9)
	for _, k := range []int{1, 3, 5} {
		m := New(Config{K: k})
		if err := m.Fit(context.Background(), d, split, nil); err != nil {
			t.Fatal(err)
		}
		if m.K() != k {
			t.Fatalf("K %d, want the configured %d", m.K(), k)
		}
		for a := range len(m.ids) {
			for b := range len(m.ids) {
				for l := range 2 {
					got, want := m.mu(a, b, l, k), reference(m.rows, len(m.ids), 2, k, a, b, l)
					if math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
						t.Fatalf("K %d, drugs %d %d line %d: μ %.12g, reference %.12g", k, a, b, l, got, want)
					}
				}
			}
		}
	}
}

// TestUnmeasuredLine: a line of the dataset without training or
// validation pairs (a held-out line) gets the pooled additive part, as
// reference computes it; AddLines gives a trained model such lines, and
// its own lines' estimates stay the same bits.
func TestUnmeasuredLine(t *testing.T) {
	d, split := grouped(10, 3, 9)
	keep := func(idx []int) []int {
		var out []int
		for _, i := range idx {
			if d.Pairs[i].Line != 2 {
				out = append(out, i)
			}
		}
		return out
	}
	held := drugcomb.Split{Train: keep(split.Train), Val: keep(split.Val), Test: split.Test}
	m := New(Config{K: 3})
	if err := m.Fit(context.Background(), d, held, nil); err != nil {
		t.Fatal(err)
	}
	for a := range len(m.ids) {
		for b := range len(m.ids) {
			for l := range 3 {
				got, want := m.mu(a, b, l, 3), reference(m.rows, len(m.ids), 3, 3, a, b, l)
				if math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
					t.Fatalf("drugs %d %d line %d: μ %.12g, reference %.12g", a, b, l, got, want)
				}
			}
		}
	}

	// The same training pairs on a two-line dataset, then AddLines(3).
	two := *d
	two.LineNames = d.LineNames[:2]
	var idx []int
	two.Pairs, two.Y, two.N, two.Var = nil, nil, nil, nil
	remap := map[int]int{}
	for i, p := range d.Pairs {
		if p.Line == 2 {
			continue
		}
		remap[i] = len(two.Pairs)
		two.Pairs, two.Y, two.N, two.Var = append(two.Pairs, p), append(two.Y, d.Y[i]), append(two.N, d.N[i]), append(two.Var, d.Var[i])
		idx = append(idx, i)
	}
	var sp drugcomb.Split
	for _, i := range held.Train {
		sp.Train = append(sp.Train, remap[i])
	}
	for _, i := range held.Val {
		sp.Val = append(sp.Val, remap[i])
	}
	m2 := New(Config{K: 3})
	if err := m2.Fit(context.Background(), &two, sp, nil); err != nil {
		t.Fatal(err)
	}
	before := make([]float64, 0)
	for a := range len(m2.ids) {
		for b := range len(m2.ids) {
			for l := range 2 {
				before = append(before, m2.mu(a, b, l, 3))
			}
		}
	}
	if err := m2.AddLines(context.Background(), 1); err == nil {
		t.Error("AddLines(1) on a two-line model accepted")
	}
	if err := m2.AddLines(context.Background(), 3); err != nil {
		t.Fatal(err)
	}
	k := 0
	for a := range len(m2.ids) {
		for b := range len(m2.ids) {
			for l := range 3 {
				got := m2.mu(a, b, l, 3)
				if l < 2 {
					if got != before[k] {
						t.Fatalf("drugs %d %d line %d: μ %v after AddLines, %v before", a, b, l, got, before[k])
					}
					k++
				} else if want := m.mu(a, b, 2, 3); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
					t.Fatalf("drugs %d %d, the added line: μ %v, the held-out line's %v", a, b, got, want)
				}
			}
		}
	}
	if err := New(Config{}).AddLines(context.Background(), 3); err == nil {
		t.Error("AddLines on an untrained model accepted")
	}
}

// TestUnknownDrugs: a drug the training pairs do not have contributes
// nothing: two such drugs get the line's mean, one such drug the other's
// mean plus its deviation on the line.
func TestUnknownDrugs(t *testing.T) {
	d, split := grouped(12, 2, 3)
	m := New(Config{})
	if err := m.Fit(context.Background(), d, split, nil); err != nil {
		t.Fatal(err)
	}
	f := &model.Features{Config: d.Features.Config, IDs: []string{"new1", "new2", d.Features.IDs[0]}, RowPtr: []int{0, 1, 2, 3}, Col: []int32{0, 1, 2}, Val: []float32{1, 1, 1}}
	pred, err := m.Predict(f, []model.PairRef{{A: 0, B: 1, Line: 1}, {A: 0, B: 2, Line: 0}})
	if err != nil {
		t.Fatal(err)
	}
	c := m.drugs[d.Features.IDs[0]]
	for k, want := range []float64{m.lineMean[1], m.lineMean[0] + m.dev[c*2]} {
		if pred[k].Mu != want {
			t.Errorf("pair %d: μ %v, want %v", k, pred[k].Mu, want)
		}
	}
}

// TestErrors: the refusals, each naming what is wrong.
func TestErrors(t *testing.T) {
	d, split := grouped(8, 1, 1)
	if err := New(Config{K: -1}).Fit(context.Background(), d, split, nil); err == nil {
		t.Error("K = -1 accepted")
	}
	if err := New(Config{}).Fit(context.Background(), d, drugcomb.Split{Train: split.Train}, nil); err == nil {
		t.Error("a split without validation pairs accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := New(Config{}).Fit(ctx, d, split, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Fit: %v, want context.Canceled", err)
	}
	if _, err := New(Config{}).Predict(d.Features, d.PairsAt(split.Test)); err == nil {
		t.Error("an untrained model predicts")
	}
	if err := New(Config{}).Save(&bytes.Buffer{}); err == nil {
		t.Error("an untrained model saves")
	}
	// A header whose drugs × lines would not fit in memory: refused
	// before anything is allocated for them.
	var ids []string
	for i := range 100 {
		ids = append(ids, fmt.Sprint(i))
	}
	js, _ := json.Marshal(header{Features: d.Features.Config, Drugs: ids, Lines: 1 << 20, K: 5, Sigma: 1, Rows: [][4]float64{{0, 1, 0, 1}}})
	huge := Magic + string(binary.LittleEndian.AppendUint64(nil, uint64(len(js)))) + string(js)
	// 100 drugs on 60,000 lines (6 million cells, under maxCells) from 50
	// rows: more cells than the rows can justify (freeCells plus
	// cellsPerRow for each row), refused before the tables are built.
	var rows [][4]float64
	for i := range 50 {
		rows = append(rows, [4]float64{float64(2 * i), float64(2*i + 1), 0, 1})
	}
	js, _ = json.Marshal(header{Features: d.Features.Config, Drugs: ids, Lines: 60000, K: 5, Sigma: 1, Rows: rows})
	sparse := Magic + string(binary.LittleEndian.AppendUint64(nil, uint64(len(js)))) + string(js)
	for _, bad := range []string{"", "DEUP-ONEHOT v1\n", Magic + "\x05\x00\x00\x00\x00\x00\x00\x00{bad}", huge, sparse} {
		if _, err := Load(bytes.NewBufferString(bad)); err == nil {
			t.Errorf("Load(%.40q) accepted", bad)
		}
	}
}

// FuzzLoad: Load never panics, and what it accepts saves and loads again
// to the same predictions.
func FuzzLoad(f *testing.F) {
	d, split := grouped(8, 2, 1)
	m := New(Config{})
	if err := m.Fit(context.Background(), d, split, nil); err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := Load(bytes.NewReader(b))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := l.Save(&out); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(&out); err != nil {
			t.Fatalf("a loaded model's file does not load: %v", err)
		}
	})
}
