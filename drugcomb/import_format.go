package drugcomb

import (
	"fmt"
	"os"
	"path/filepath"
)

// FormatProblem is why SetFormat refuses a format with a column map.
type FormatProblem uint8

const (
	// FormatUnknown: not almanac, drugcomb or table.
	FormatUnknown FormatProblem = iota + 1
	// FormatNeedsCatalogue: almanac without Options.Catalogue (the CID
	// catalogue).
	FormatNeedsCatalogue
	// FormatFixedColumns: almanac or drugcomb with columns given.
	FormatFixedColumns
	// FormatNeedsColumns: table without both drugs' columns and a score.
	FormatNeedsColumns
	// FormatOneSMILES: table with the SMILES column of one drug only.
	FormatOneSMILES
	// FormatKnownNeedsCatalogue: RequireKnown without a catalogue.
	FormatKnownNeedsCatalogue
)

// FormatError is a format that SetFormat refuses with its column map. It
// says what is wrong; the command layer words it in its flags.
type FormatError struct {
	Format  string
	Problem FormatProblem
}

func (e *FormatError) Error() string {
	switch e.Problem {
	case FormatNeedsCatalogue:
		return fmt.Sprintf("format %s needs a drug catalogue (the CID catalogue)", e.Format)
	case FormatFixedColumns:
		return fmt.Sprintf("format %s has a fixed column map", e.Format)
	case FormatNeedsColumns:
		return fmt.Sprintf("format %s needs the columns of both drugs and a score", e.Format)
	case FormatOneSMILES:
		return "the SMILES columns of both drugs are needed, or neither"
	case FormatKnownNeedsCatalogue:
		return "keeping only the catalogue's drugs needs a drug catalogue"
	}
	return fmt.Sprintf("unknown format %q (almanac, drugcomb, table)", e.Format)
}

// SetFormat sets o.Format and the column map it implies: almanac's
// (AlmanacColumns, which needs o.Catalogue and keeps only its drugs) and
// drugcomb's (DrugCombColumns, with single-drug rows) are fixed; table's is
// cols, which must name both drugs and a score. The errors are
// *FormatErrors.
func (o *Options) SetFormat(format string, cols Columns) error {
	o.Format = format
	refuse := func(p FormatProblem) error { return &FormatError{Format: format, Problem: p} }
	tableFlags := cols.DrugA != "" || cols.DrugB != "" || cols.CellLine != "" || len(cols.Scores) > 0 || cols.SMILESA != "" || cols.SMILESB != ""
	switch format {
	case "almanac":
		if o.Catalogue == nil {
			return refuse(FormatNeedsCatalogue)
		}
		if tableFlags {
			return refuse(FormatFixedColumns)
		}
		o.Columns = AlmanacColumns()
		o.RequireKnown = true
	case "drugcomb":
		if tableFlags {
			return refuse(FormatFixedColumns)
		}
		o.Columns = DrugCombColumns()
		o.SingleDrug = true
	case "table":
		if cols.DrugA == "" || cols.DrugB == "" || len(cols.Scores) == 0 {
			return refuse(FormatNeedsColumns)
		}
		if (cols.SMILESA == "") != (cols.SMILESB == "") {
			return refuse(FormatOneSMILES)
		}
		o.Columns = cols
	default:
		return refuse(FormatUnknown)
	}
	if o.RequireKnown && o.Catalogue == nil {
		return refuse(FormatKnownNeedsCatalogue)
	}
	return nil
}

// SaveReplacing saves s with its report r (none when nil) to dir like
// SaveWithReport. When dir held a screen already, a report.json that r does
// not replace is removed (it described the old screen), and the other
// files left in dir (OtherFiles) are returned: they may describe the old
// screen too.
func SaveReplacing(dir string, s *Screen, r *Report) (kept []string, err error) {
	replaced := IsScreenDir(dir)
	if err := SaveWithReport(dir, s, r); err != nil {
		return nil, err
	}
	if !replaced {
		return nil, nil
	}
	if r == nil {
		if err := os.Remove(filepath.Join(dir, ReportFile)); err != nil && !os.IsNotExist(err) {
			return nil, err
		}
	}
	return OtherFiles(dir), nil
}
