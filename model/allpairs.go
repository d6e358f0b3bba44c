package model

import "context"

// PredictAllPairs predicts every unordered pair of the n feature rows of f
// (A < B, in row order) on model line line with predict (a Method's
// Predict), chunk pairs at a time, and hands each chunk's pairs and
// predictions to emit. It stops at the first error of predict or emit, or
// when ctx is done (checked before each chunk).
func PredictAllPairs(ctx context.Context, predict func(*Features, []Pair) ([]Prediction, error), f *Features, n, line, chunk int, emit func([]Pair, []Prediction) error) error {
	buf := make([]Pair, 0, chunk)
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
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			buf = append(buf, Pair{A: a, B: b, Line: line})
			if len(buf) == chunk {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	if len(buf) > 0 {
		return flush()
	}
	return nil
}
