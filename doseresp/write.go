package doseresp

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/deup-screening/deup/internal/atomicfile"
)

// Files written by WriteDir.
const (
	BlocksCSV     = "blocks.csv"
	WellsCSV      = "wells.csv"
	BlocksParquet = "blocks.parquet"
	WellsParquet  = "wells.parquet"
	ReportFile    = "report.json"
)

// WriteDir writes the scored blocks to dir (created if needed): blocks.csv
// and wells.csv, their Parquet twins and the data report as report.json,
// each file atomically.
func WriteDir(dir string, scored []Scored, rep *Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	blocks, wells := Tables(scored)
	mem := memory.NewGoAllocator()
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{BlocksCSV, blocks.WriteCSV},
		{WellsCSV, wells.WriteCSV},
		{BlocksParquet, func(w io.Writer) error { return blocks.WriteParquet(w, mem) }},
		{WellsParquet, func(w io.Writer) error { return wells.WriteParquet(w, mem) }},
		{ReportFile, func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(rep)
		}},
	} {
		path := filepath.Join(dir, f.name)
		if err := atomicfile.Write(path, f.write); err != nil {
			return fmt.Errorf("doseresp: %s: %w", path, err)
		}
	}
	return nil
}
