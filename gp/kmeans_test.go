package gp

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestKMeansRecoversBlobs: three tight, well separated blobs; the centres
// found equal the blob means (by construction of the data) to 1e-12.
func TestKMeansRecoversBlobs(t *testing.T) {
	centres := [][]float64{{0, 0}, {10, 0}, {0, 10}}
	offsets := [][]float64{{0.1, 0}, {-0.1, 0}, {0, 0.2}, {0, -0.2}}
	X := mat.NewDense(12, 2, nil)
	for c, ctr := range centres {
		for o, off := range offsets {
			X.SetRow(c*4+o, []float64{ctr[0] + off[0], ctr[1] + off[1]})
		}
	}
	for seed := uint64(0); seed < 5; seed++ {
		C, err := KMeans(X, 3, seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := make([][]float64, 3)
		for i := range got {
			got[i] = C.RawRowView(i)
		}
		sort.Slice(got, func(a, b int) bool { return got[a][0]+2*got[a][1] < got[b][0]+2*got[b][1] })
		for i, want := range centres {
			if math.Abs(got[i][0]-want[0]) > 1e-12 || math.Abs(got[i][1]-want[1]) > 1e-12 {
				t.Errorf("seed %d: centre %v, want %v", seed, got[i], want)
			}
		}
	}
}

func TestKMeansDeterministicAndDistinct(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	X := randDense(rng, 500, 4, 1)
	a, err := KMeans(X, 20, 7, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := KMeans(X, 20, 7, 0)
	if !mat.Equal(a, b) {
		t.Error("same seed gave different centres")
	}
	for i := 0; i < 20; i++ {
		for j := 0; j < i; j++ {
			if sqDist(a.RawRowView(i), a.RawRowView(j)) == 0 {
				t.Errorf("centres %d and %d coincide", i, j)
			}
		}
	}
}

func TestKMeansErrors(t *testing.T) {
	cases := []struct {
		name string
		X    *mat.Dense
		k    int
	}{
		{"k zero", mat.NewDense(3, 1, []float64{1, 2, 3}), 0},
		{"too few points", mat.NewDense(2, 1, []float64{1, 2}), 3},
		{"nan", mat.NewDense(2, 1, []float64{1, math.NaN()}), 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := KMeans(c.X, c.k, 1, 0); err == nil {
				t.Error("no error")
			}
		})
	}
	// Duplicated points: more clusters than distinct points still returns.
	if _, err := KMeans(mat.NewDense(4, 1, []float64{1, 1, 1, 2}), 3, 1, 0); err != nil {
		t.Errorf("duplicates: %v", err)
	}
}
