package nn

import (
	"fmt"

	"github.com/deup-screening/deup/internal/kernels"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The matrix products of the kit and of gorgonia go through kernels.Impl
// (see package internal/kernels): installed once, at program start, for
// gorgonia too (tensor.Use, gorgonia.Use: process-wide settings of
// gorgonia, so other gorgonia users in the same program get the same,
// tested, Sgemm). It is not changed afterwards.
func init() {
	tensor.Use(kernels.Impl())
	G.Use(kernels.Impl())
}

// BLAS names the BLAS of the kit's matrix products: "gonum" (pure Go),
// "gonum+avx512-sgemm" or "gonum+avx2-sgemm" (pure Go with our assembly
// GEMM kernel) or "openblas".
func BLAS() string { return kernels.Name() }

// Tensor is a dense value of a graph (gorgonia's tensor.Dense; the kit's
// users read it with Data and Shape and never import gorgonia).
type Tensor = tensor.Dense

// DType is the element type of a graph: Float32 or Float64.
type DType uint8

const (
	Float32 DType = iota
	Float64
)

func (d DType) gorgonia() tensor.Dtype {
	if d == Float64 {
		return tensor.Float64
	}
	return tensor.Float32
}

func (d DType) String() string {
	if d == Float64 {
		return "float64"
	}
	return "float32"
}

// NewTensor returns a zero rows×cols matrix of the given type.
func NewTensor(dt DType, rows, cols int) *Tensor {
	return tensor.New(tensor.WithShape(rows, cols), tensor.Of(dt.gorgonia()))
}

// TensorFrom returns a rows×cols matrix backed by data ([]float32 or
// []float64 of length rows·cols; not copied).
func TensorFrom(data any, rows, cols int) (*Tensor, error) {
	switch d := data.(type) {
	case []float32:
		if len(d) != rows*cols {
			return nil, fmt.Errorf("nn: %d values for a %d×%d tensor", len(d), rows, cols)
		}
	case []float64:
		if len(d) != rows*cols {
			return nil, fmt.Errorf("nn: %d values for a %d×%d tensor", len(d), rows, cols)
		}
	default:
		return nil, fmt.Errorf("nn: tensor of %T", data)
	}
	return tensor.New(tensor.WithShape(rows, cols), tensor.WithBacking(data)), nil
}
