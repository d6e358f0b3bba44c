package model

import (
	"math"
	"math/bits"
)

// The training budget of a screen follows from its number of training
// pairs n (Budget); the validation curve then decides when to stop
// (Schedule.Stop). No constant below is sized for one screen: each is a
// number of steps or pairs per step.
const (
	// budgetPairsPerStep: the batch is the largest power of two at most
	// n/budgetPairsPerStep, so that an epoch has at least 8 steps, within
	// [budgetMinBatch, budgetMaxBatch]. budgetMaxBatch bounds a step's
	// cost (the tower runs once per distinct drug of the batch; the μ
	// and σ layers once per pair).
	budgetPairsPerStep = 8
	budgetMinBatch     = 32
	budgetMaxBatch     = 512
	// budgetBaseLR at budgetBaseBatch, scaled linearly with larger
	// batches (the linear scaling rule): 1e-4 at 64 and below, the
	// paper's setting.
	budgetBaseLR    = 1e-4
	budgetBaseBatch = 64
	// budgetPatienceSteps is the early-stopping patience in steps,
	// budgetMaxSteps the cap, both as epochs rounded up and clamped to
	// [budgetMinPatience, budgetMaxPatience] and [budgetMinEpochs,
	// budgetMaxEpochs].
	budgetPatienceSteps = 400
	budgetMinPatience   = 5
	budgetMaxPatience   = 25
	budgetMaxSteps      = 2700
	// budgetMinSteps: with the rule's patience, early stopping waits for
	// half the step cap (an early minimum of the validation curve, at the
	// first epochs of a small panel, is not the optimum: docs/training.md).
	budgetMinSteps  = budgetMaxSteps / 2
	budgetMinEpochs = 20
	budgetMaxEpochs = 300
)

// Budget returns c with the zero fields of its training budget
// (BatchSize, LR, Patience, MaxEpochs) set by the rule for n training
// pairs:
//
//	BatchSize = 2^floor(log2(n/8)), within [32, 512]
//	LR        = 1e-4 · max(BatchSize, 64)/64
//	steps     = ceil(n / BatchSize) per epoch
//	Patience  = ceil(400 / steps) epochs, within [5, 25]
//	MaxEpochs = ceil(2700 / steps) epochs, within [20, 300]
//	and, with the rule's patience, no early stop before ceil(1350 / steps) epochs
//
// On NCI-ALMANAC PC-3 (576 training pairs in the benchmark's 40/30/30,
// 1,008 in train's 70/30) it gives the one-line defaults (64, 1e-4, 25
// epochs; the cap of 300 or 169 epochs is not reached there), with at
// least 150 or 85 epochs; on a fold of the 43-line panel (31,396
// training pairs) 512, 8e-4, 7 and 44 epochs, at least 22.
// Fields already set are kept (the user's flags).
func (c Config) Budget(n int) Config {
	b := c.BatchSize
	if b == 0 {
		b = budgetMinBatch
		if q := n / budgetPairsPerStep; q > 0 {
			b = 1 << (bits.Len(uint(q)) - 1)
		}
		b = min(max(b, budgetMinBatch), budgetMaxBatch)
		c.BatchSize = b
	}
	if c.LR == 0 {
		c.LR = budgetBaseLR * float64(max(b, budgetBaseBatch)) / budgetBaseBatch
	}
	steps := max((n+b-1)/b, 1)
	epochs := func(s, lo, hi int) int { return min(max((s+steps-1)/steps, lo), hi) }
	if c.Patience == 0 {
		c.Patience = epochs(budgetPatienceSteps, budgetMinPatience, budgetMaxPatience)
		c.minEpochs = epochs(budgetMinSteps, 1, budgetMaxEpochs)
	}
	if c.MaxEpochs == 0 {
		c.MaxEpochs = epochs(budgetMaxSteps, budgetMinEpochs, budgetMaxEpochs)
	}
	return c
}

// Schedule is the learning rate of each step of a training of
// MaxEpochs epochs of n pairs (Config.Warmup and Config.Decay), and its
// early stopping on the validation curve.
type Schedule struct {
	lr            float64
	warm, total   int
	decay         string
	step          int
	patience, cap int
	minEpochs     int
}

// NewSchedule returns the schedule of c (after Budget and WithDefaults)
// for n training pairs.
func NewSchedule(c Config, n int) *Schedule {
	steps := max((n+c.BatchSize-1)/c.BatchSize, 1)
	return &Schedule{lr: c.LR, warm: c.Warmup, total: c.MaxEpochs * steps, decay: c.Decay, patience: c.Patience, cap: c.MaxEpochs, minEpochs: c.minEpochs}
}

// Next returns the learning rate of the next step: linear warm-up from
// LR/warm to LR over the first Warmup steps, then LR (Decay ""), or a
// cosine or linear decay to 0 over the remaining steps of MaxEpochs.
func (s *Schedule) Next() float64 {
	s.step++
	k := s.step
	if k <= s.warm {
		return s.lr * float64(k) / float64(s.warm)
	}
	if s.decay == "" || s.total <= s.warm {
		return s.lr
	}
	f := float64(k-s.warm) / float64(s.total-s.warm)
	f = min(f, 1)
	switch s.decay {
	case "cosine":
		return s.lr * 0.5 * (1 + math.Cos(math.Pi*f))
	case "linear":
		return s.lr * (1 - f)
	}
	return s.lr
}

// Stop reports whether training stops after epoch, the best validation
// epoch being best: Patience epochs without improvement (and, with the
// rule's patience, at least half the step cap trained), or the cap.
func (s *Schedule) Stop(epoch, best int) bool {
	return epoch-best >= s.patience && epoch >= s.minEpochs || epoch >= s.cap
}
