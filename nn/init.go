package nn

import (
	"math"
	"math/rand/v2"
)

// InitLinear fills w with draws from U(−1/√fanIn, 1/√fanIn) (PyTorch's
// nn.Linear default for weights and biases), one rng.Float64 per element
// in order: the kit's one initializer.
func InitLinear[T float32 | float64](w []T, fanIn int, rng *rand.Rand) {
	bound := 1 / math.Sqrt(float64(fanIn))
	for i := range w {
		w[i] = T((2*rng.Float64() - 1) * bound)
	}
}
