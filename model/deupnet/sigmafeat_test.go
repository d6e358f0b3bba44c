package deupnet

import (
	"context"
	"math"
	"testing"

	"github.com/deup-screening/deup/model"
)

func TestParseSigmaFeatures(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		cols     int
		bad      bool
	}{
		{"", "none", 0, false},
		{"none", "none", 0, false},
		{"density", "density", 1, false},
		{"counts", "counts", 2, false},
		{"counts, density", "density,counts", 3, false},
		{"density,counts", "density,counts", 3, false},
		{"spread,density,counts", "density,counts,spread", 5, false},
		{"variance", "variance", 1, false},
		{"inerror, density", "density,inerror", 3, false},
		{"error,variance,inerror", "variance,error,inerror", 5, false},
		{"varience", "", 0, true},
		{"density,", "", 0, true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			f, err := ParseSigmaFeatures(tc.in)
			if (err != nil) != tc.bad {
				t.Fatalf("err = %v, want error %v", err, tc.bad)
			}
			if tc.bad {
				return
			}
			if f.String() != tc.want || len(f.Columns()) != tc.cols {
				t.Errorf("%q → %q with %d columns, want %q with %d", tc.in, f.String(), len(f.Columns()), tc.want, tc.cols)
			}
		})
	}
}

// sigmaToy: drugs A={0,1}, B={1,2}, C={3}, D={0,1} (D has A's bits),
// in-sample pairs (A,B), (B,C); the others are out of sample.
func sigmaToy() *model.Dataset {
	f := &model.Features{Config: model.FeatureConfig{Kind: "fp", Radius: 3, NBits: 8},
		RowPtr: []int{0, 2, 4, 5, 7}, Col: []int32{0, 1, 1, 2, 3, 0, 1}, Val: []float32{1, 1, 1, 1, 1, 1, 1}}
	const A, B, C, D = 0, 1, 2, 3
	return &model.Dataset{Features: f, Pairs: []model.PairRef{{A: A, B: B}, {A: B, B: C}, {A: A, B: C}, {A: D, B: C}, {A: A, B: A}}, Y: []float64{1, 2, 3, 4, 5}}
}

// TestSigmaFeaturesByHand checks the raw (unstandardized) features against
// the definitions in sigmafeat.go evaluated by hand: Tanimoto A–B = 1/3
// (one shared bit of three), every other pair of distinct bit sets 0,
// A–D 1; K(T) = exp(−(1−T)/0.2). Spread: D_in targets 1 (A,B) and 2
// (B,C), pooled variance 0.25, κ = 2: a drug with one target has
// sqrt((0 + 2·0.25)/(0 + 2)) = 0.5, none 0.5, B (targets 1, 2: sum of
// squared deviations 0.5) sqrt((0.5 + 0.5)/(1 + 2)) = sqrt(1/3).
func TestSigmaFeaturesByHand(t *testing.T) {
	d := sigmaToy()
	all := SigmaFeatures{Density: true, Counts: true, Spread: true}
	r := newSigmaRef(all, d, []int{0, 1})
	if len(r.Drugs) != 3 || len(r.Pairs) != 2 {
		t.Fatalf("reference: %d drugs, %d pairs, want 3 and 2", len(r.Drugs), len(r.Pairs))
	}
	k := func(tn float64) float64 { return math.Exp(-(1 - tn) / 0.2) }
	kAB, k0 := k(1.0/3), k(0)
	// dens(a,b) = Σ_{(c,d)} [K(a,c)K(b,d) + K(a,d)K(b,c)] / (2·2)
	dens := func(a, b [3]float64) float64 { // kernel rows against (A, B, C)
		s := a[0]*b[1] + a[1]*b[0] // (A,B)
		s += a[1]*b[2] + a[2]*b[1] // (B,C)
		return s / 4
	}
	kA := [3]float64{1, kAB, k0}
	kB := [3]float64{kAB, 1, k0}
	kC := [3]float64{k0, k0, 1}
	for _, tc := range []struct {
		name     string
		pair     int
		loo      bool
		dens     float64
		lo, hi   float64 // in-sample counts
		slo, shi float64 // spreads
	}{
		{"A,C unseen", 2, false, dens(kA, kC), 1, 1, 0.5, 0.5},
		{"D,C: D has A's bits", 3, false, dens(kA, kC), 1, 1, 0.5, 0.5},
		{"A,A", 4, false, dens(kA, kA), 1, 1, 0.5, 0.5},
		{"A,B seen, kept at prediction", 0, false, dens(kA, kB), 1, 2, 0.5, math.Sqrt(1.0 / 3)},
		{"A,B leave-one-out", 0, true, dens(kA, kB) - (1+kAB*kAB)/4, 0, 1, 0.5, 0.5},
		{"B,C leave-one-out", 1, true, dens(kB, kC) - (1+k0*k0)/4, 0, 1, 0.5, 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := d.Pairs[tc.pair]
			got := make([]float64, 5)
			r.context().pairs(d.Features, []int{p.A}, []int{p.B}, nil, []bool{tc.loo}, []float64{d.Y[tc.pair]}, got)
			want := []float64{math.Log(tc.dens), math.Log1p(tc.lo), math.Log1p(tc.hi), math.Log(tc.slo), math.Log(tc.shi)}
			for j := range want {
				if math.Abs(got[j]-want[j]) > 1e-12 {
					t.Errorf("column %s: %.15g, want %.15g", all.Columns()[j], got[j], want[j])
				}
			}
		})
	}
	// Symmetry: (C,A) has the features of (A,C).
	x, y := make([]float64, 5), make([]float64, 5)
	r.context().pairs(d.Features, []int{0}, []int{2}, nil, nil, nil, x)
	r.context().pairs(d.Features, []int{2}, []int{0}, nil, nil, nil, y)
	for j := range x {
		if x[j] != y[j] {
			t.Errorf("column %d: (A,C) %v, (C,A) %v", j, x[j], y[j])
		}
	}
}

// TestSigmaFeaturesStandardized: the D_out columns have mean 0 and sd 1
// after datasetSigmaFeatures.
func TestSigmaFeaturesStandardized(t *testing.T) {
	tp := makeToy(12, 20, 64, 8, 0.3)
	r, all := datasetSigmaFeatures(SigmaFeatures{Density: true, Counts: true, Spread: true}, tp.d, tp.split.Train, tp.split.Val)
	k := r.columns()
	for j := range k {
		var m, v float64
		for _, i := range tp.split.Val {
			m += all[i*k+j]
		}
		m /= float64(len(tp.split.Val))
		for _, i := range tp.split.Val {
			v += (all[i*k+j] - m) * (all[i*k+j] - m)
		}
		v /= float64(len(tp.split.Val))
		if math.Abs(m) > 1e-9 || math.Abs(v-1) > 1e-9 {
			t.Errorf("column %d: mean %g, variance %g on D_out", j, m, v)
		}
	}
}

// TestDEUPSigmaFeatures trains with the features, saves and loads: the
// loaded model predicts the same, also for a feature matrix with the
// drugs in another order (the reference is stored by bits, not row), and
// differs from a model without features.
func TestDEUPSigmaFeatures(t *testing.T) {
	tp := makeToy(12, 20, 64, 8, 0.3)
	cfg := toyConfig(2)
	cfg.MaxEpochs = 3
	cfg.SigmaFeatures = SigmaFeatures{Density: true, Counts: true, Spread: true}
	m := New(cfg)
	if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
		t.Fatal(err)
	}
	got := saveLoadSame(t, m, tp)
	want, _ := m.Predict(tp.d.Features, tp.d.Pairs)
	// The same drugs in reverse row order.
	f := tp.d.Features
	nd := f.NumDrugs()
	rev := &model.Features{Config: f.Config, RowPtr: []int{0}}
	for i := nd - 1; i >= 0; i-- {
		rev.Col = append(rev.Col, f.Col[f.RowPtr[i]:f.RowPtr[i+1]]...)
		rev.Val = append(rev.Val, f.Val[f.RowPtr[i]:f.RowPtr[i+1]]...)
		rev.RowPtr = append(rev.RowPtr, len(rev.Col))
	}
	pairs := make([]model.PairRef, len(tp.d.Pairs))
	for i, p := range tp.d.Pairs {
		pairs[i] = model.PairRef{A: nd - 1 - p.A, B: nd - 1 - p.B}
	}
	rp, err := got.Predict(rev, pairs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Abs(rp[i].SigmaTotal-want[i].SigmaTotal) > 1e-5*want[i].SigmaTotal || math.Abs(rp[i].Mu-want[i].Mu) > 1e-4*(1+math.Abs(want[i].Mu)) {
			t.Fatalf("pair %d with drugs reordered: %+v, want %+v", i, rp[i], want[i])
		}
	}
	cfg.SigmaFeatures = SigmaFeatures{}
	plain := New(cfg)
	if err := plain.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
		t.Fatal(err)
	}
	pp, _ := plain.Predict(tp.d.Features, tp.d.Pairs)
	same := 0
	for i := range pp {
		if pp[i].SigmaTotal == want[i].SigmaTotal {
			same++
		}
	}
	if same == len(pp) {
		t.Error("σ with features equals σ without them")
	}
	t.Run("corrupted reference", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			edit func(r *sigmaRef)
		}{
			{"pair out of range", func(r *sigmaRef) { r.Pairs[0][1] = len(r.Drugs) }},
			{"bit out of range", func(r *sigmaRef) { r.Drugs[0] = []int32{9999} }},
			{"unknown feature", func(r *sigmaRef) { r.Features = "density,bogus" }},
			{"network-dependent feature without its state", func(r *sigmaRef) { r.Features = "density,counts,spread,variance" }},
			{"zero sd", func(r *sigmaRef) { r.SD[0] = 0 }},
			{"short mean", func(r *sigmaRef) { r.Mean = r.Mean[:1] }},
			{"missing targets", func(r *sigmaRef) { r.Y = nil }},
			{"NaN target", func(r *sigmaRef) { r.Y = append([]float64{math.NaN()}, r.Y[1:]...) }},
		} {
			t.Run(tc.name, func(t *testing.T) {
				c := *m.sref
				c.Pairs = append([][2]int(nil), c.Pairs...)
				c.Drugs = append([][]int32(nil), c.Drugs...)
				c.SD = append([]float64(nil), c.SD...)
				tc.edit(&c)
				if err := c.check(); err == nil {
					t.Error("no error")
				}
			})
		}
	})
}
