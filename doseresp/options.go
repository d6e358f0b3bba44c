package doseresp

import (
	"os"
	"path/filepath"

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

// SaveScreen writes a screen built by Screen, with its data report, to dir
// and the scored blocks it came from, with their report, to dir/BlocksDir.
func SaveScreen(dir string, s *drugcomb.Screen, rep *drugcomb.Report, scored []Scored, srep *Report) error {
	if err := drugcomb.SaveWithReport(dir, s, rep); err != nil {
		return err
	}
	return WriteDir(filepath.Join(dir, BlocksDir), scored, srep)
}
