package almanac

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/atomicfile"
)

// ComboScoreFile is the file of a screen directory that SaveScreen writes
// the ComboScores to (WriteComboScores), one row per ordered pair and line.
const ComboScoreFile = "comboscore.csv"

// SourceFile names one of the files of ReadSources.
type SourceFile string

// The files of ReadSources.
const (
	CompoundsFile SourceFile = "compounds" // the SDF of structures
	NamesFile     SourceFile = "names"     // the names file
	CatalogueFile SourceFile = "catalogue" // the drug catalogue
)

// SourceError is a file of ReadSources that cannot be read: which one, and
// why (Err names the path).
type SourceError struct {
	File SourceFile
	Err  error
}

func (e *SourceError) Error() string { return fmt.Sprintf("import: %s file: %v", e.File, e.Err) }

func (e *SourceError) Unwrap() error { return e.Err }

// ReadSources reads the Sources of BuildScreen from files: the SDF of
// structures (ReadCompounds), and, when their paths are not empty, the
// names file (ReadNames) and the drug catalogue. An error is a
// *SourceError saying which file.
func ReadSources(compounds, names, catalogue string) (Sources, error) {
	src := Sources{}
	if err := readFile(compounds, func(r io.Reader) (err error) { src.Compounds, err = ReadCompounds(r, compounds); return }); err != nil {
		return src, &SourceError{File: CompoundsFile, Err: err}
	}
	if names != "" {
		if err := readFile(names, func(r io.Reader) (err error) { src.Names, err = ReadNames(r, names); return }); err != nil {
			return src, &SourceError{File: NamesFile, Err: err}
		}
	}
	if catalogue != "" {
		var err error
		if src.Catalogue, err = drugcomb.ReadCatalogueFile(catalogue); err != nil {
			return src, &SourceError{File: CatalogueFile, Err: err}
		}
	}
	return src, nil
}

// readFile opens path and hands it to read.
func readFile(path string, read func(io.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return read(f)
}

// SaveScreen writes the screen BuildScreen built, with its data report, to
// dir, and the ComboScores it came from to dir/ComboScoreFile.
func SaveScreen(dir string, s *drugcomb.Screen, rep *drugcomb.Report, scores []ComboScore) error {
	if err := drugcomb.SaveWithReport(dir, s, rep); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, ComboScoreFile), func(w io.Writer) error { return WriteComboScores(w, scores) }); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	return nil
}
