package model

import (
	"github.com/deup-screening/deup/internal/kernels"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The matrix products of this package and of gorgonia go through
// kernels.Impl (see package kernels): installed once, at program start,
// for gorgonia too (tensor.Use, gorgonia.Use: process-wide settings of
// gorgonia, so other gorgonia users in the same program get the same,
// tested, Sgemm). It is not changed afterwards.
func init() {
	tensor.Use(kernels.Impl())
	G.Use(kernels.Impl())
}

// BLAS names the BLAS the model's matrix products use: "gonum" (pure Go),
// "gonum+avx512-sgemm" or "gonum+avx2-sgemm" (pure Go with our assembly
// GEMM kernel) or "openblas".
func BLAS() string { return kernels.Name() }
