package model

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/deup-screening/deup/nn"
)

// FeatureConfig describes how a drug feature matrix was built. It is saved
// with a trained model, and Predict refuses features built differently.
type FeatureConfig struct {
	Kind   string `json:"kind"`   // "fp" (Morgan bits) or "fp+sig" (Morgan bits + L1000 signature)
	Radius int    `json:"radius"` // Morgan radius (paper: 3)
	NBits  int    `json:"nbits"`  // folded fingerprint length (paper: 1024)
	SigDim int    `json:"sigdim"` // signature length appended after the bits; 0 for "fp"
	// Fragment is the part of each SMILES fingerprinted: "" the whole
	// molecule (every fragment, salts included; models saved before this
	// field existed), "largest-organic" the fragment RDKit's standardizer
	// keeps (chem.LargestFragmentChooser with PreferOrganic).
	Fragment string `json:"fragment,omitempty"`
}

// Dim is the feature vector length NBits + SigDim.
func (c FeatureConfig) Dim() int { return c.NBits + c.SigDim }

// Bounds of a valid FeatureConfig: real models use radius 2-3, 1024-2048
// bits and at most 978 signature values.
const (
	MaxRadius   = 32
	MaxFeatures = 1 << 24
)

// Validate checks a configuration read from a file: a known kind, a
// radius in [0, MaxRadius], NBits in [1, MaxFeatures], SigDim in
// [0, MaxFeatures] and 0 exactly for kind "fp".
func (c FeatureConfig) Validate() error {
	if c.Kind != "fp" && c.Kind != "fp+sig" {
		return fmt.Errorf("model: feature kind %q (want fp or fp+sig)", c.Kind)
	}
	if c.Radius < 0 || c.Radius > MaxRadius || c.NBits < 1 || c.NBits > MaxFeatures || c.SigDim < 0 || c.SigDim > MaxFeatures || (c.Kind == "fp") != (c.SigDim == 0) {
		return fmt.Errorf("model: features %+v out of range", c)
	}
	if c.Fragment != "" && c.Fragment != "largest-organic" {
		return fmt.Errorf("model: feature fragment %q (want \"largest-organic\" or none)", c.Fragment)
	}
	return nil
}

// Features is a drug feature matrix (one row per drug) in compressed sparse
// row form: row i holds the values Val[RowPtr[i]:RowPtr[i+1]] at columns
// Col[RowPtr[i]:RowPtr[i+1]], columns strictly increasing within a row.
// Fingerprint bits are stored as 1s; absent entries are 0. The matrix is
// read-only once built: models keep a reference and cache per-row results.
type Features struct {
	Config FeatureConfig
	IDs    []string // drug identifiers, one per row (for messages and output)
	RowPtr []int    // len = rows+1
	Col    []int32
	Val    []float32
}

// NumDrugs is the number of rows.
func (f *Features) NumDrugs() int { return len(f.RowPtr) - 1 }

// ID is the drug id of row r: IDs[r], or r in decimal where IDs does not
// reach it (features built without ids).
func (f *Features) ID(r int) string {
	if r < len(f.IDs) {
		return f.IDs[r]
	}
	return strconv.Itoa(r)
}

// Validate checks the CSR invariants and that every value is finite.
// They are nn.CSR's checks (the error names the first bad row), with the
// number of ids checked once the matrix is known not empty and of a
// positive dimension.
func (f *Features) Validate() error {
	if f == nil {
		return errors.New("model: features: empty matrix")
	}
	s := f.csr()
	if len(s.RowPtr) > 0 && s.Dim > 0 && f.IDs != nil && len(f.IDs) != f.NumDrugs() {
		return fmt.Errorf("model: features: %d ids for %d rows", len(f.IDs), f.NumDrugs())
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("model: features: %w", err)
	}
	return nil
}

// Dense returns row i as a dense vector (for tests and small uses).
func (f *Features) Dense(i int) []float64 { return f.csr().Dense(i) }

// csr is the matrix as the network kit's sparse-row type (a view: the
// slices are shared).
func (f *Features) csr() *nn.CSR {
	return &nn.CSR{Dim: f.Config.Dim(), RowPtr: f.RowPtr, Col: f.Col, Val: f.Val}
}
