package deupnet

import (
	"context"
	"math"
	"testing"
)

// TestSigmaDynByHand checks dynRow against its definitions evaluated by
// hand. Drugs 0, 1, 2; D_out (and, here, D_in) pairs (0,1), (0,2), (1,2)
// with |y − μ| 1, 2, 3: per-drug sums 3, 4, 5 over 2 pairs each, total 6
// over 3, overall mean g = 2. Unseen (0,1): (3 + 2·2)/(2 + 2) = 7/4 and
// (4 + 4)/4 = 2. Leave-one-out (0,1) (own 1): g = 5/2, (2 + 5)/(1 + 2) =
// 7/3 and (3 + 5)/3 = 8/3. A drug absent from the sets: g. Variance with
// precision diag(0.1, 0.05) and φ = (1, 2): 0.1 + 0.2 = 0.3; in-sample
// leave-one-out 0.3/(1 − 0.3). xerror uses the same sums with its own
// left-out term: for the D_in pair below that term is 2 (|y − μ′|, not
// |y − μ| = 1): g = (6 − 2)/2 = 2, (3 − 2 + 4)/3 = 5/3 and (4 − 2 + 4)/3 = 2.
func TestSigmaDynByHand(t *testing.T) {
	per := []errSum{{3, 2}, {4, 2}, {5, 2}}
	all := errSum{6, 3}
	r := &sigmaRef{Features: "variance,error,inerror,xerror", feat: SigmaFeatures{Variance: true, Error: true, InError: true, XError: true},
		Dyn: &sigmaDyn{Hidden: 2, Prec: []float64{0.1, 0, 0, 0.05}, Drugs: [][]int32{{0}, {1}, {2}}, Out: per, OutAll: all, In: per, InAll: all, X: per, XAll: all}}
	phi := []float64{1, 2}
	l := math.Log
	for _, tc := range []struct {
		name   string
		da, db int
		self   int
		ownX   float64
		want   [7]float64
	}{
		{"unseen", 0, 1, selfNone, 0, [7]float64{l(0.3), l(7.0 / 4), l(2), l(7.0 / 4), l(2), l(7.0 / 4), l(2)}},
		{"unseen, drugs swapped", 1, 0, selfNone, 0, [7]float64{l(0.3), l(7.0 / 4), l(2), l(7.0 / 4), l(2), l(7.0 / 4), l(2)}},
		{"D_out pair", 0, 1, selfOut, 1, [7]float64{l(0.3), l(7.0 / 3), l(8.0 / 3), l(7.0 / 4), l(2), l(7.0 / 3), l(8.0 / 3)}},
		{"D_in pair", 0, 1, selfIn, 2, [7]float64{l(0.3 / 0.7), l(7.0 / 4), l(2), l(7.0 / 3), l(8.0 / 3), l(5.0 / 3), l(2)}},
		{"drug absent", -1, 0, selfNone, 0, [7]float64{l(0.3), l(7.0 / 4), l(2), l(7.0 / 4), l(2), l(7.0 / 4), l(2)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := make([]float64, 7)
			r.dynRow(phi, tc.da, tc.db, -1, tc.self, 1, tc.ownX, got)
			for j := range got {
				if math.Abs(got[j]-tc.want[j]) > 1e-12 {
					t.Errorf("column %s: %.15g, want %.15g", r.feat.Columns()[j], got[j], tc.want[j])
				}
			}
		})
	}
}

// TestNeuralLinearPrec: for Φ = [[1,0],[0,2],[1,2]], ΦᵀΦ = [[2,2],[2,8]],
// λ = (2+8)/2 = 5, (ΦᵀΦ + 5I)⁻¹ = [[13,−2],[−2,7]]/87.
func TestNeuralLinearPrec(t *testing.T) {
	got, err := neuralLinearPrec([]float64{1, 0, 0, 2, 1, 2}, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{13.0 / 87, -2.0 / 87, -2.0 / 87, 7.0 / 87}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("element %d: %.15g, want %.15g", i, got[i], want[i])
		}
	}
}

// TestDEUPSigmaDynamic trains with the network-dependent features: the
// features Predict computes for a pair the training did not leave out
// (D_out for variance and inerror, D_in for error) are exactly those the
// trainer's last refresh gave it; the stored xerror sums are those of that
// refresh (with μ′ trained again: same seed, same residuals); a loaded
// model predicts the same.
func TestDEUPSigmaDynamic(t *testing.T) {
	tp := makeToy(12, 20, 64, 8, 0.3)
	cfg := toyConfig(2)
	cfg.MaxEpochs = 3
	cfg.SigmaFeatures = SigmaFeatures{Counts: true, Variance: true, Error: true, InError: true, XError: true}
	m := New(cfg)
	if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
		t.Fatal(err)
	}
	// The trainer's computation, once more on the final network.
	r := *m.sref
	r.Dyn = &sigmaDyn{}
	r.Mean, r.SD = append([]float64(nil), m.sref.Mean...), append([]float64(nil), m.sref.SD...)
	k := r.columns()
	side := make([]float64, len(tp.d.Pairs)*k)
	xin, err := m.swappedResiduals(context.Background(), tp.d, tp.split, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.refreshDynamic(r.context(), m.fwd, tp.d, tp.split.Train, tp.split.Val, m.mean, m.sd, cfg.WithDefaults().CombHidden, side, xin); err != nil {
		t.Fatal(err)
	}
	if len(r.Dyn.X) != len(m.sref.Dyn.X) || r.Dyn.XAll != m.sref.Dyn.XAll {
		t.Fatalf("xerror sums: %d drugs, total %+v; stored %d, %+v", len(r.Dyn.X), r.Dyn.XAll, len(m.sref.Dyn.X), m.sref.Dyn.XAll)
	}
	for i := range r.Dyn.X {
		if r.Dyn.X[i] != m.sref.Dyn.X[i] {
			t.Fatalf("xerror sum of drug %d: %+v, stored %+v", i, r.Dyn.X[i], m.sref.Dyn.X[i])
		}
	}
	if r.refreshDynamic(r.context(), m.fwd, tp.d, tp.split.Train, tp.split.Val, m.mean, m.sd, cfg.WithDefaults().CombHidden, side, xin[1:]) == nil {
		t.Error("xerror with one residual of μ′ missing: no error")
	}
	pred := func(i int) []float64 {
		p := tp.d.Pairs[i]
		h := m.cfg.CombHidden
		hid := make([]float64, h)
		m.fwd.Pairs(tp.d.Features, []int{p.A}, []int{p.B}, nil, 0, nil, make([]float64, 1), nil, hid)
		row := make([]float64, k)
		m.sref.dynamicRows(m.sref.context(), tp.d.Features, []int{p.A}, []int{p.B}, nil, hid, h, row)
		return row
	}
	cols := cfg.SigmaFeatures.Columns()
	for _, c := range []struct {
		set  []int
		cols []int // columns computed as for an unseen pair
	}{{tp.split.Val, []int{2, 5, 6}}, {tp.split.Train, []int{3, 4}}} {
		for _, i := range c.set {
			got := pred(i)
			for _, j := range c.cols {
				if w := side[i*k+j]; math.Abs(got[j]-w) > 1e-9*(1+math.Abs(w)) {
					t.Fatalf("pair %d, column %s: predicted %.12g, trained %.12g", i, cols[j], got[j], w)
				}
			}
		}
	}
	saveLoadSame(t, m, tp)
	for _, tc := range []struct {
		name string
		edit func(d *sigmaDyn)
	}{
		{"NaN precision", func(d *sigmaDyn) { d.Prec = append([]float64{math.NaN()}, d.Prec[1:]...) }},
		{"short precision", func(d *sigmaDyn) { d.Prec = d.Prec[1:] }},
		{"short error sums", func(d *sigmaDyn) { d.Out = d.Out[1:] }},
		{"short xerror sums", func(d *sigmaDyn) { d.X = d.X[1:] }},
		{"negative error sum", func(d *sigmaDyn) { d.In = append([]errSum{{-1, 1}}, d.In[1:]...) }},
		{"no pairs", func(d *sigmaDyn) { d.OutAll = errSum{} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := *m.sref
			dy := *c.Dyn
			tc.edit(&dy)
			c.Dyn = &dy
			if err := c.check(); err == nil {
				t.Error("no error")
			}
		})
	}
}
