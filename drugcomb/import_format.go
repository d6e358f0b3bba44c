package drugcomb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// SetFormat sets o.Format and the column map it implies: almanac's
// (AlmanacColumns, which needs o.Catalogue and keeps only its drugs) and
// drugcomb's (DrugCombColumns, with single-drug rows) are fixed; table's is
// cols, which must name both drugs and a score. The errors are worded for
// deup data import, whose flags (--drug-a, --drugs, ...) fill cols and o.
func (o *Options) SetFormat(format string, cols Columns) error {
	o.Format = format
	tableFlags := cols.DrugA != "" || cols.DrugB != "" || cols.CellLine != "" || len(cols.Scores) > 0 || cols.SMILESA != "" || cols.SMILESB != ""
	switch format {
	case "almanac":
		if o.Catalogue == nil {
			return errors.New("deup data import --format almanac needs --drugs FILE (the CID catalogue)")
		}
		if tableFlags {
			return errors.New("deup data import --format almanac has a fixed column map; use --format table for --drug-a etc.")
		}
		o.Columns = AlmanacColumns()
		o.RequireKnown = true
	case "drugcomb":
		if tableFlags {
			return errors.New("deup data import --format drugcomb has a fixed column map; use --format table for --drug-a etc.")
		}
		o.Columns = DrugCombColumns()
		o.SingleDrug = true
	case "table":
		if cols.DrugA == "" || cols.DrugB == "" || len(cols.Scores) == 0 {
			return errors.New("deup data import --format table needs --drug-a, --drug-b and --score")
		}
		if (cols.SMILESA == "") != (cols.SMILESB == "") {
			return errors.New("deup data import: give both --smiles-a and --smiles-b, or neither")
		}
		o.Columns = cols
	default:
		return fmt.Errorf("deup data import: unknown --format %q (almanac, almanac-wells, doseresponse, drugcomb, table)", format)
	}
	if o.RequireKnown && o.Catalogue == nil {
		return errors.New("deup data import: --known-only needs --drugs FILE")
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
