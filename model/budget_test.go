package model

import (
	"math"
	"testing"
)

// TestBudget: the rule of Config.Budget on the screens of
// docs/training.md (training pairs as the 70/30 and 40/30/30 splits give
// them), worked by hand from its formula, and a user's field kept.
func TestBudget(t *testing.T) {
	for _, tc := range []struct {
		name               string
		c                  Config
		n                  int
		batch, pat, epochs int
		lr                 float64
		min                int // ceil(1350/steps) with the rule's patience
	}{
		// 576/8 = 72 → 64; 9 steps: ceil(400/9) = 45 → 25, ceil(2700/9) = 300.
		{"PC-3, bench 40/30/30", Config{}, 576, 64, 25, 300, 1e-4, 150},
		// 1008/8 = 126 → 64; 16 steps: 25, ceil(2700/16) = 169.
		{"PC-3, train 70/30", Config{}, 1008, 64, 25, 169, 1e-4, 85},
		// 100/8 = 12 → 32 (the floor); 4 steps: 25, 300; lr 1e-4 (64 and below).
		{"tiny", Config{}, 100, 32, 25, 300, 1e-4, 300},
		// 31396/8 = 3924 → 512 (the cap); 62 steps: ceil(400/62) = 7, ceil(2700/62) = 44, ceil(1350/62) = 22.
		{"panel fold", Config{}, 31396, 512, 7, 44, 8e-4, 22},
		// 4480/8 = 560 → 512; 9 steps: 25, 300.
		{"8k subsample", Config{}, 4480, 512, 25, 300, 8e-4, 150},
		// Fields the user set are kept; the others follow them.
		{"user batch", Config{BatchSize: 128}, 31396, 128, 5, 20, 2e-4, 6},
		{"user all", Config{BatchSize: 7, LR: 3, Patience: 2, MaxEpochs: 9}, 31396, 7, 2, 9, 3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c.Budget(tc.n)
			if c.BatchSize != tc.batch || c.Patience != tc.pat || c.MaxEpochs != tc.epochs || math.Abs(c.LR-tc.lr) > 1e-15 || c.minEpochs != tc.min {
				t.Errorf("Budget(%d) = batch %d, patience %d, cap %d, lr %g, min %d; want %d, %d, %d, %g, %d", tc.n, c.BatchSize, c.Patience, c.MaxEpochs, c.LR, c.minEpochs, tc.batch, tc.pat, tc.epochs, tc.lr, tc.min)
			}
		})
	}
}

// TestSchedule: warm-up rises linearly to LR, cosine and linear decay
// reach 0 at the last step of MaxEpochs (values by hand), and Stop is
// patience or the cap.
func TestSchedule(t *testing.T) {
	c := Config{LR: 1, BatchSize: 10, MaxEpochs: 3, Patience: 2, Warmup: 2}
	for _, tc := range []struct {
		decay string
		want  []float64 // steps 1…6 of 3 epochs × 2 steps (n = 20)
	}{
		{"", []float64{0.5, 1, 1, 1, 1, 1}},
		// f = (k−2)/4: 0.25, 0.5, 0.75, 1.
		{"linear", []float64{0.5, 1, 0.75, 0.5, 0.25, 0}},
		{"cosine", []float64{0.5, 1, 0.5 * (1 + math.Cos(math.Pi/4)), 0.5, 0.5 * (1 + math.Cos(3*math.Pi/4)), 0}},
	} {
		c.Decay = tc.decay
		s := NewSchedule(c, 20)
		for k, w := range tc.want {
			if got := s.Next(); math.Abs(got-w) > 1e-12 {
				t.Errorf("%q step %d: lr %v, want %v", tc.decay, k+1, got, w)
			}
		}
	}
	s := NewSchedule(c, 20)
	for _, tc := range []struct {
		epoch, best int
		stop        bool
	}{{1, 1, false}, {2, 1, false}, {3, 1, true}, {3, 3, true}, {2, 2, false}} {
		if got := s.Stop(tc.epoch, tc.best); got != tc.stop {
			t.Errorf("Stop(%d, %d) = %v, want %v", tc.epoch, tc.best, got, tc.stop)
		}
	}
}
