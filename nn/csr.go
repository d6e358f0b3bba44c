package nn

import (
	"fmt"
	"math"
)

// CSR is a sparse matrix in compressed sparse row form, the project's one
// sparse-row type (drug feature rows): row i holds the values
// Val[RowPtr[i]:RowPtr[i+1]] at columns Col[RowPtr[i]:RowPtr[i+1]],
// columns strictly increasing within a row, every column in [0, Dim).
// Absent entries are 0.
type CSR struct {
	Dim    int   // number of columns
	RowPtr []int // len = rows+1
	Col    []int32
	Val    []float32
}

// NumRows is the number of rows.
func (s *CSR) NumRows() int { return len(s.RowPtr) - 1 }

// Validate checks the CSR invariants and that every value is finite; the
// error names the first bad row (and column).
func (s *CSR) Validate() error {
	if s == nil || len(s.RowPtr) == 0 {
		return fmt.Errorf("empty matrix")
	}
	if s.Dim <= 0 {
		return fmt.Errorf("dimension %d", s.Dim)
	}
	if s.RowPtr[0] != 0 || s.RowPtr[len(s.RowPtr)-1] != len(s.Col) || len(s.Col) != len(s.Val) {
		return fmt.Errorf("inconsistent row pointers")
	}
	for i := 0; i < s.NumRows(); i++ {
		lo, hi := s.RowPtr[i], s.RowPtr[i+1]
		if hi < lo {
			return fmt.Errorf("row %d: decreasing row pointer", i)
		}
		prev := int32(-1)
		for k := lo; k < hi; k++ {
			c := s.Col[k]
			if c <= prev || int(c) >= s.Dim {
				return fmt.Errorf("row %d: column %d out of order or range [0,%d)", i, c, s.Dim)
			}
			if v := float64(s.Val[k]); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("row %d column %d: value %v", i, c, v)
			}
			prev = c
		}
	}
	return nil
}

// Dense returns row i as a dense vector (for tests and small uses).
func (s *CSR) Dense(i int) []float64 {
	out := make([]float64, s.Dim)
	for k := s.RowPtr[i]; k < s.RowPtr[i+1]; k++ {
		out[s.Col[k]] = float64(s.Val[k])
	}
	return out
}
