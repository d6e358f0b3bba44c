package deupnet

import (
	"bytes"
	"fmt"
	"io"

	"github.com/deup-screening/deup/model"

	"math"
	"math/rand/v2"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
)

// toyProblem is a synthetic screen with a known truth, built in the test
// so the model tests depend on nothing else: nDrugs drugs with `bits` of
// dim bits set; truth(a,b) = s(a)+s(b) + 2·tanh(u_a·u_b) with s and u
// linear in the bits; replicates with noise sd noiseSD (pairs i%2==0 get
// 3 replicates with sd 2·noiseSD... see below).
type toyProblem struct {
	d     *model.Dataset
	truth []float64 // noiseless expected value per pair
	noise []float64 // noise variance of one replicate per pair
	split drugcomb.Split
}

func makeToy(seed uint64, nDrugs, dim, bits int, noiseSD float64) *toyProblem {
	rng := rand.New(rand.NewPCG(seed, 1))
	f := &model.Features{Config: model.FeatureConfig{Kind: "fp", Radius: 3, NBits: dim}, RowPtr: []int{0}}
	rows := make([][]int, nDrugs)
	for i := range rows {
		perm := rng.Perm(dim)[:bits]
		sortInts(perm)
		rows[i] = perm
		for _, c := range perm {
			f.Col = append(f.Col, int32(c))
			f.Val = append(f.Val, 1)
		}
		f.RowPtr = append(f.RowPtr, len(f.Col))
	}
	ws := make([]float64, dim)
	u := make([][3]float64, dim)
	for j := range ws {
		ws[j] = rng.NormFloat64() * 3 / math.Sqrt(float64(bits))
		for k := range u[j] {
			u[j][k] = rng.NormFloat64() / math.Sqrt(float64(bits))
		}
	}
	s := func(d int) (v float64, e [3]float64) {
		for _, c := range rows[d] {
			v += ws[c]
			for k := range e {
				e[k] += u[c][k]
			}
		}
		return
	}
	tp := &toyProblem{d: &model.Dataset{Features: f}}
	for a := 0; a < nDrugs; a++ {
		for b := a + 1; b < nDrugs; b++ {
			sa, ea := s(a)
			sb, eb := s(b)
			mean := sa + sb + 4*math.Tanh(ea[0]*eb[0]+ea[1]*eb[1]-ea[2]*eb[2])
			nsd := noiseSD * (1 + float64((a+b)%3)) // heteroscedastic, known
			n := 1 + (a*b+a/2)%3                    // 1..3 replicates, not tied to the noise level
			sum, ss := 0.0, 0.0
			reps := make([]float64, n)
			for r := range reps {
				reps[r] = mean + nsd*rng.NormFloat64()
				sum += reps[r]
			}
			m := sum / float64(n)
			for _, x := range reps {
				ss += (x - m) * (x - m)
			}
			v := math.NaN()
			if n > 1 {
				v = ss / float64(n-1)
			}
			tp.d.Pairs = append(tp.d.Pairs, model.PairRef{A: a, B: b})
			tp.d.Y = append(tp.d.Y, m)
			tp.d.N = append(tp.d.N, n)
			tp.d.Var = append(tp.d.Var, v)
			tp.truth = append(tp.truth, mean)
			tp.noise = append(tp.noise, nsd*nsd)
		}
	}
	perm := rng.Perm(len(tp.d.Pairs))
	n := len(perm)
	tp.split = drugcomb.Split{Train: perm[:n*4/10], Val: perm[n*4/10 : n*7/10], Test: perm[n*7/10:]}
	return tp
}

func sortInts(x []int) {
	for i := 1; i < len(x); i++ {
		for j := i; j > 0 && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
}

func pearson(x, y []float64) float64 {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= n
	my /= n
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// saveLoadSame saves m, loads it back, and requires the loaded model to
// predict every pair of tp exactly as m does; it returns the loaded model.
func saveLoadSame(t *testing.T, m model.Method, tp *toyProblem) model.Method {
	t.Helper()
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := loadAny(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := m.Predict(tp.d.Features, tp.d.Pairs)
	have, err := got.Predict(tp.d.Features, tp.d.Pairs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if want[i] != have[i] {
			t.Fatalf("pair %d: loaded model predicts %+v, trained %+v", i, have[i], want[i])
		}
	}
	return got
}

// apart. Every pair is on every line; the split is the toy's, per line.
func linesToy(nl int) *toyProblem {
	tp := makeToy(11, 14, 24, 6, 0.2)
	np := len(tp.d.Pairs)
	d := &model.Dataset{Features: tp.d.Features}
	for l := range nl {
		d.LineNames = append(d.LineNames, fmt.Sprintf("L%d", l))
		for i, p := range tp.d.Pairs {
			d.Pairs = append(d.Pairs, model.PairRef{A: p.A, B: p.B, Line: l})
			d.Y = append(d.Y, tp.d.Y[i]+3*float64(l))
			d.N = append(d.N, tp.d.N[i])
			d.Var = append(d.Var, tp.d.Var[i])
		}
	}
	out := &toyProblem{d: d}
	for l := range nl {
		for _, i := range tp.split.Train {
			out.split.Train = append(out.split.Train, l*np+i)
		}
		for _, i := range tp.split.Val {
			out.split.Val = append(out.split.Val, l*np+i)
		}
		for _, i := range tp.split.Test {
			out.split.Test = append(out.split.Test, l*np+i)
		}
	}
	return out
}

// loadAny reads a model file of DEUP (Load) or of package model's methods
// (model.Load), as the registry does.
func loadAny(r io.Reader) (model.Method, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if name, _ := model.FileMethod(data); name == "deup" {
		return Load(bytes.NewReader(data))
	}
	return model.Load(bytes.NewReader(data))
}
