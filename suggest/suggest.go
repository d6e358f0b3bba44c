package suggest

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/atomicfile"
)

// Suggestion is one suggested experiment.
type Suggestion struct {
	Rank         int
	DrugA, DrugB drugcomb.Drug
	CellLine     string

	Mu, SigmaTotal, SigmaEpistemic, SigmaAleatoric float64
	// Interval is the calibrated prediction interval of the score; nil
	// when the model has no calibration (written as missing values).
	Interval    *Interval
	Acquisition float64
	Reason      string
}

// Interval is a prediction interval [Lower, Upper] of a score.
type Interval struct {
	Lower, Upper float64
}

// intervalColumns are the optional columns of Interval.
var intervalColumns = [2]string{"lower", "upper"}

// oldNames maps the column names of files written before the vocabulary
// of docs/vocabulary.md to today's: the drug names were drug_a, drug_b.
// Readers accept either spelling (not both in one file).
var oldNames = map[string]string{"drug_a": "drug_a_name", "drug_b": "drug_b_name"}

// checkInterval checks a read interval: both bounds finite, lower <= upper.
func checkInterval(lo, hi float64) error {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || lo > hi {
		return fmt.Errorf("interval [%v, %v]: want finite bounds with lower <= upper", lo, hi)
	}
	return nil
}

// Columns are the column names of a suggestions file, in order.
func Columns() []string {
	return []string{
		"rank",
		"drug_a_id", "drug_a_name", "drug_a_pubchem_cid", "drug_a_smiles",
		"drug_b_id", "drug_b_name", "drug_b_pubchem_cid", "drug_b_smiles",
		"cell_line",
		"mu", "sigma_total", "sigma_epistemic", "sigma_aleatoric", "lower", "upper", "acquisition",
		"reason",
	}
}

// Format is a file format.
type Format int

// The formats.
const (
	CSV Format = iota + 1
	Parquet
	JSON
)

func (f Format) String() string {
	switch f {
	case CSV:
		return "csv"
	case Parquet:
		return "parquet"
	case JSON:
		return "json"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ErrFormat reports a file name whose extension names no known format.
var ErrFormat = errors.New("unknown suggestions format")

// FormatOf returns the format named by path's extension (case-insensitive):
// .csv, .parquet or .pq, .json.
func FormatOf(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return CSV, nil
	case ".parquet", ".pq":
		return Parquet, nil
	case ".json":
		return JSON, nil
	}
	return 0, fmt.Errorf("suggest: %w: %q (want .csv, .parquet or .json)", ErrFormat, path)
}

// Write writes s to w in format f.
func Write(w io.Writer, f Format, s []Suggestion) error {
	switch f {
	case CSV:
		return WriteCSV(w, s)
	case Parquet:
		return WriteParquet(w, s, memory.DefaultAllocator)
	case JSON:
		return WriteJSON(w, s)
	}
	return fmt.Errorf("suggest: %w: %v", ErrFormat, f)
}

// WriteFile writes s to the file path in the format of its extension,
// replacing the file atomically.
func WriteFile(path string, s []Suggestion) error {
	f, err := FormatOf(path)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, func(w io.Writer) error { return Write(w, f, s) }); err != nil {
		return fmt.Errorf("%w (writing %s)", err, path)
	}
	return nil
}

// ReadFile reads a suggestions file in the format of its extension.
func ReadFile(path string) ([]Suggestion, error) {
	f, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("suggest: %w", err)
	}
	defer file.Close()
	var s []Suggestion
	switch f {
	case CSV:
		s, err = ReadCSV(file)
	case Parquet:
		s, err = ReadParquet(file, memory.DefaultAllocator)
	case JSON:
		s, err = ReadJSON(file)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// cidMissing and floatMissing say which values the formats write as
// missing.
func cidMissing(cid int64) bool   { return cid == 0 }
func floatMissing(x float64) bool { return math.IsNaN(x) }

// floats lists the float fields of s in column order.
func floats(s *Suggestion) [5]*float64 {
	return [5]*float64{&s.Mu, &s.SigmaTotal, &s.SigmaEpistemic, &s.SigmaAleatoric, &s.Acquisition}
}
