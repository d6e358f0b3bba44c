package surrogate

import (
	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/model"
)

// WithTrainProgress returns a surrogate that fits and predicts exactly as s
// (same name, same seeds, same networks, so the same model version and the
// same batch) but whose network trainings report every epoch to fn, as
// package model's Progress (one network after another: Alg. 2's pre-fill
// folds, then the round's main predictor). Surrogates without a network
// ("deup-ridge", "bayes-ridge", "ensemble") are returned unchanged. fn is called
// on the goroutine that fits; a nil fn returns s.
func WithTrainProgress(s active.Surrogate, fn func(model.Progress)) active.Surrogate {
	if fn == nil {
		return s
	}
	switch s := s.(type) {
	case *netDEUP:
		n, ok := s.Main.(*Net)
		if !ok {
			return s
		}
		nc := *n
		nc.Progress = fn
		c := *s
		c.Main = &nc
		return &c
	case *NetMethod:
		c := *s
		c.Progress = fn
		return &c
	}
	return s
}
