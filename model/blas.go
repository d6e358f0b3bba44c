package model

import "github.com/deup-screening/deup/nn"

// BLAS names the BLAS the model's matrix products use: "gonum" (pure Go),
// "gonum+avx512-sgemm" or "gonum+avx2-sgemm" (pure Go with our assembly
// GEMM kernel) or "openblas" (see nn.BLAS).
func BLAS() string { return nn.BLAS() }
