package model

import (
	"context"
	"iter"
)

// PredictPairs predicts the pairs of seq with predict (a Method's Predict)
// on the feature rows of f, chunk pairs at a time, and hands each chunk's
// pairs and predictions to emit (the slices are reused for the next
// chunk). It stops at the first error of predict or emit, or when ctx is
// done (checked before each chunk).
func PredictPairs(ctx context.Context, predict func(*Features, []PairRef) ([]Prediction, error), f *Features, seq iter.Seq[PairRef], chunk int, emit func([]PairRef, []Prediction) error) error {
	buf := make([]PairRef, 0, chunk)
	flush := func() error {
		if err := ctx.Err(); err != nil {
			return err
		}
		pred, err := predict(f, buf)
		if err != nil {
			return err
		}
		if err := emit(buf, pred); err != nil {
			return err
		}
		buf = buf[:0]
		return nil
	}
	for p := range seq {
		if buf = append(buf, p); len(buf) == chunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if len(buf) > 0 {
		return flush()
	}
	return nil
}

// AllPairs yields every unordered pair of n feature rows (A < B, in row
// order) on model line line.
func AllPairs(n, line int) iter.Seq[PairRef] {
	return func(yield func(PairRef) bool) {
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				if !yield(PairRef{A: a, B: b, Line: line}) {
					return
				}
			}
		}
	}
}
