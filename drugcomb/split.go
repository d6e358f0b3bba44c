package drugcomb

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/deup-screening/deup/internal/streams"
)

// DefaultFracs is the paper's train/validation/test split: 40/30/30.
var DefaultFracs = [3]float64{0.4, 0.3, 0.3}

// newRand returns the generator every split draws from: PCG seeded with
// (seed, a fixed stream constant), so a seed gives the same split on every
// machine and Go version that keeps math/rand/v2's PCG stable.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, streams.Split))
}

// SplitRandom partitions the pair indices 0..nPairs-1 into train,
// validation and test sets of sizes proportional to fracs (normalized by
// their sum; all zero means DefaultFracs). Sizes are round(frac*nPairs) for
// train and validation; test takes the rest. Each set is sorted ascending.
// It panics (a programmer error) if nPairs < 0 or a fraction is negative
// or not finite.
func SplitRandom(nPairs int, fracs [3]float64, seed uint64) Split {
	if nPairs < 0 {
		panic("drugcomb: SplitRandom: negative number of pairs")
	}
	sum := 0.0
	for _, f := range fracs {
		if f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			panic("drugcomb: SplitRandom: fraction negative or not finite")
		}
		sum += f
	}
	if sum == 0 {
		fracs, sum = DefaultFracs, 1
	}
	perm := newRand(seed).Perm(nPairs)
	nTrain := int(math.Round(fracs[0] / sum * float64(nPairs)))
	nVal := int(math.Round(fracs[1] / sum * float64(nPairs)))
	if nTrain+nVal > nPairs {
		nVal = nPairs - nTrain
	}
	if fracs[2] == 0 {
		nVal = nPairs - nTrain
	}
	sp := Split{
		Train: sorted(perm[:nTrain]),
		Val:   sorted(perm[nTrain : nTrain+nVal]),
		Test:  sorted(perm[nTrain+nVal:]),
	}
	return sp
}

// ParseSplit reads a split of pairs written as the parts' sizes joined by
// "/". Under the benchmark's rule (inOut false) it is "TRAIN/VAL/TEST":
// three positive numbers, percentages or fractions alike (2/1/1 is
// 50/25/25), returned as fractions that add up to 1. Under deup train's rule
// (inOut true) it may also be "IN/OUT" (70/30: in-sample and out-of-sample
// parts, no test part, returned with a test part of 0): percentages that add
// up to 100, the first two above 0 and a test part, when given, above 0,
// returned as given (SplitRandom normalizes them).
func ParseSplit(s string, inOut bool) ([3]float64, error) {
	var f [3]float64
	parts := strings.Split(s, "/")
	switch {
	case inOut && len(parts) != 2 && len(parts) != 3:
		return f, errors.New("want IN/OUT (e.g. 70/30) or TRAIN/VAL/TEST (e.g. 40/30/30)")
	case !inOut && len(parts) != 3:
		return f, errors.New("want three numbers like 40/30/30")
	}
	sum := 0.0
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		switch {
		case inOut && (err != nil || !(v >= 0) || math.IsInf(v, 0)):
			return f, fmt.Errorf("part %d is not a percentage", i+1)
		case !inOut && (err != nil || !(v > 0)):
			return f, fmt.Errorf("part %d (%q) is not a positive number", i+1, p)
		}
		f[i] = v
		sum += v
	}
	switch {
	case !inOut:
		for i := range f {
			f[i] /= sum
		}
	case f[0] <= 0 || f[1] <= 0 || math.Abs(sum-100) > 1e-9:
		return f, errors.New("the parts must add up to 100, with in-sample and out-of-sample parts above 0")
	case len(parts) == 3 && f[2] <= 0:
		return f, errors.New("a test part of 0: use IN/OUT (e.g. 70/30)")
	}
	return f, nil
}

func sorted(x []int) []int {
	y := append([]int{}, x...)
	sort.Ints(y)
	return y
}

// SplitByDrug holds out drugs for an out-of-distribution test set. Drugs
// are taken in a seeded random order and held out one by one until the
// pairs involving at least one held-out drug reach testFrac of all pairs;
// those pairs are the test set (so every test pair has a drug never seen in
// training or validation). The remaining pairs are split at random into
// validation (valFrac of all pairs, or all that remain if fewer) and
// training. HeldOutDrugs lists the held-out drugs, sorted. It panics on a
// negative or non-finite fraction, or on testFrac+valFrac > 1.
func SplitByDrug(s *Screen, testFrac, valFrac float64, seed uint64) Split {
	for _, f := range []float64{testFrac, valFrac} {
		if f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			panic("drugcomb: SplitByDrug: fraction negative or not finite")
		}
	}
	if testFrac+valFrac > 1 {
		panic(fmt.Sprintf("drugcomb: SplitByDrug: test + validation fractions %g > 1", testFrac+valFrac))
	}
	rng := newRand(seed)
	n := len(s.Pairs)
	byDrug := make([][]int, len(s.Drugs))
	for i, p := range s.Pairs {
		byDrug[p.A] = append(byDrug[p.A], i)
		byDrug[p.B] = append(byDrug[p.B], i)
	}
	inTest := make([]bool, n)
	nTest := 0
	target := int(math.Round(testFrac * float64(n)))
	var held []int
	for _, d := range rng.Perm(len(s.Drugs)) {
		if nTest >= target {
			break
		}
		if len(byDrug[d]) == 0 {
			continue
		}
		held = append(held, d)
		for _, i := range byDrug[d] {
			if !inTest[i] {
				inTest[i] = true
				nTest++
			}
		}
	}
	sort.Ints(held)
	sp := splitHeldOut(inTest, valFrac, rng)
	sp.HeldOutDrugs = held
	return sp
}

// splitHeldOut is the split whose test pairs are those marked in inTest;
// of the others a share valFrac of all pairs (at most all of them), drawn
// with rng, is the validation set and the rest the training set.
func splitHeldOut(inTest []bool, valFrac float64, rng *rand.Rand) Split {
	sp := Split{Test: []int{}}
	var rest []int
	for i, t := range inTest {
		if t {
			sp.Test = append(sp.Test, i)
		} else {
			rest = append(rest, i)
		}
	}
	nVal := min(int(math.Round(valFrac*float64(len(inTest)))), len(rest))
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	sp.Val, sp.Train = sorted(rest[:nVal]), sorted(rest[nVal:])
	return sp
}
