package doseresp

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
)

// BlocksDir is the directory of a dose-response screen that holds the
// scored blocks (WriteDir's files).
const BlocksDir = "blocks"

// ParseOptions builds the reading and scoring options of a plate table from
// the names of its response unit (ParseUnit) and baseline correction
// (ParseBaseline), its column map and whether malformed blocks are skipped.
func ParseOptions(unit, baseline string, cols Columns, lenient bool) (ReadOptions, Options, error) {
	u, err := ParseUnit(unit)
	if err != nil {
		return ReadOptions{}, Options{}, err
	}
	b, err := ParseBaseline(baseline)
	if err != nil {
		return ReadOptions{}, Options{}, err
	}
	return ReadOptions{Columns: cols, Unit: u, Lenient: lenient}, Options{Baseline: b}, nil
}

// ReadFile reads the plate table at path (Read).
func ReadFile(path string, opt ReadOptions) ([]*Block, *Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return Read(path, f, opt)
}

// ScoreFile reads the plate table at path and scores its blocks (ScoreAll).
func ScoreFile(path string, ropt ReadOptions, sopt Options) ([]Scored, *Report, error) {
	blocks, rep, err := ReadFile(path, ropt)
	if err != nil {
		return nil, nil, err
	}
	return ScoreAll(blocks, sopt, rep), rep, nil
}

// Import is a dose-response table imported as a screen: the scored blocks
// with their report, and the screen of one block score with its data
// report.
type Import struct {
	Scored       []Scored
	BlocksReport *Report
	Screen       *drugcomb.Screen
	Report       *drugcomb.Report // nil when Screen failed before reading
}

// ImportFile reads and scores the plate table at path (ScoreFile) and builds
// the screen whose target is the block score named score (Screen), named
// name ("": the file's base name without its extension). A reading error is
// returned alone; a screen error ("import PATH: ...") with the Import so far,
// whose reports say what was read.
func ImportFile(path, name, score string, ropt ReadOptions, sopt Options, opt drugcomb.Options) (*Import, error) {
	scored, rep, err := ScoreFile(path, ropt, sopt)
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	im := &Import{Scored: scored, BlocksReport: rep}
	if im.Screen, im.Report, err = Screen(name, scored, score, opt); err != nil {
		return im, fmt.Errorf("import %s: %w", path, err)
	}
	return im, nil
}

// WriteText writes the reports as text: the blocks', then the screen's.
func (im *Import) WriteText(w io.Writer) error {
	if err := im.BlocksReport.WriteText(w); err != nil || im.Report == nil {
		return err
	}
	return im.Report.WriteText(w)
}

// Save writes the screen, with its data report, to dir and the scored
// blocks, with their report, to dir/BlocksDir (WriteDir).
func (im *Import) Save(dir string) error {
	if err := drugcomb.SaveWithReport(dir, im.Screen, im.Report); err != nil {
		return err
	}
	return WriteDir(filepath.Join(dir, BlocksDir), im.Scored, im.BlocksReport)
}
