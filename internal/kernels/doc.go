// Package kernels holds the numeric kernels under the project's networks:
// a BLAS (gonum's pure Go with an assembly Sgemm: GotoBLAS-style packing
// around an 8×32 AVX-512 or 6×16 AVX2/FMA micro-kernel, both running the
// same chain of fused multiply-adds per element so they agree exactly;
// -tags purego gives gonum's Sgemm, -tags openblas (cgo, Debian
// libopenblas-dev) OpenBLAS's GEMMs; SgemmSerial, the same products on
// the calling goroutine only), the Adam update, the sparse row-accumulate,
// ReLU, and the vector Add, Scale, AddScaled and Dot4, each with an AVX
// path that gives the scalar Go loop's results bit for bit (tested), and
// ForChunks, which shares a loop among GOMAXPROCS goroutines.
//
// It imports no network library: package nn installs Impl for gorgonia.
// Functions panic only on programmer errors (mismatched lengths), with
// messages starting "kernels:".
package kernels
