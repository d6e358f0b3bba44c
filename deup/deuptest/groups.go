package deuptest

import "math"

// WaveTruth is sin(6x) + 0.3x, the truth of the group-shift toy of the ood
// package's tests: on [0, 4] it turns every 0.52 units, so a model fitted
// without an interval of width 1 is wrong inside it by up to about 1
// (it cannot know the bends there), and wrong, less, in any shorter
// interval where the data are missing: held-out intervals of the training range (the folds of the
// paper's Algorithm 2) are as hard as a held-out test interval, so an
// error predictor trained on them has something to learn.
func WaveTruth(x float64) float64 { return math.Sin(6*x) + 0.3*x }
