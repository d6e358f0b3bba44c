package model

import (
	"context"
	"errors"
	"testing"
)

// TestPredictPairs: 5 rows give 10 pairs, in chunks of 4, 4 and 2, each
// prediction the one of its pair.
func TestPredictPairs(t *testing.T) {
	fake := func(_ *Features, ps []PairRef) ([]Prediction, error) {
		out := make([]Prediction, len(ps))
		for i, p := range ps {
			out[i].Mu = float64(100*p.A + 10*p.B + p.Line)
		}
		return out, nil
	}
	var sizes []int
	var got []float64
	err := PredictPairs(context.Background(), fake, nil, AllPairs(5, 1), 4, func(ps []PairRef, pr []Prediction) error {
		sizes = append(sizes, len(ps))
		for i, p := range ps {
			if pr[i].Mu != float64(100*p.A+10*p.B+1) {
				t.Errorf("pair %v: mu %v", p, pr[i].Mu)
			}
			got = append(got, pr[i].Mu)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sizes) != 3 || sizes[0] != 4 || sizes[2] != 2 || len(got) != 10 || got[0] != 11 || got[9] != 341 {
		t.Errorf("chunks %v, predictions %v; want [4 4 2], 10 from (0,1) = 11 to (3,4) = 341", sizes, got)
	}
	stop := errors.New("stop")
	n := 0
	err = PredictPairs(context.Background(), fake, nil, AllPairs(5, 0), 3, func([]PairRef, []Prediction) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("emit error: %v after %d chunks, want stop after 1", err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := PredictPairs(ctx, fake, nil, AllPairs(5, 0), 3, func([]PairRef, []Prediction) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
