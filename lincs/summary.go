package lincs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/atomicfile"
)

// Summary is the report of matching a signature file to a screen (deup
// data signatures prints it; its JSON keys are the command's): the match
// Report, the file's genes and signatures, the screen's pairs and
// measurements whose two drugs both have a signature, and the files written.
type Summary struct {
	Report
	GCT                 string   `json:"gct"`
	Genes               int      `json:"genes"`
	Signatures          int      `json:"signatures"`
	Pairs               int      `json:"pairs"`
	PairsCovered        int      `json:"pairs_covered"`
	Measurements        int      `json:"measurements"`
	MeasurementsCovered int      `json:"measurements_covered"`
	Files               []string `json:"files"`
}

// MatchScreen matches the signatures of m (MatchDrugs), or, when m is nil,
// those of the GCTX file gct read column by column (MatchGCTXFile: LINCS
// level-5 files are tens of GB), to the drugs of screen and summarizes the
// coverage. gct names the file in the summary.
func MatchScreen(gct string, m *Matrix, info *PertInfo, screen *drugcomb.Screen) (*Signatures, Summary, error) {
	var (
		sigs *Signatures
		rep  Report
		nSig int
		err  error
	)
	if m != nil {
		sigs, rep = MatchDrugs(m, info, screen.Drugs)
		nSig = len(m.Cols)
	} else {
		if sigs, rep, nSig, err = MatchGCTXFile(gct, info, screen.Drugs); err != nil {
			return nil, Summary{}, err
		}
	}
	sum := Summary{Report: rep, GCT: gct, Genes: len(sigs.Genes), Signatures: nSig, Pairs: len(screen.Pairs), Measurements: screen.Measurements()}
	sum.PairsCovered, sum.MeasurementsCovered = sigs.CoveredPairs(screen)
	return sigs, sum, nil
}

// Write writes the summary as one line of JSON, or as text.
func (s Summary) Write(w io.Writer, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(w).Encode(s)
	}
	fmt.Fprintf(w, "%d of %d drugs have a signature (%d by PubChem CID, %d by name, %d by the parent name of a salt) in %s (%d genes x %d signatures)\n",
		s.Matched, s.Drugs, s.ByCID, s.ByName, s.ByParentName, filepath.Base(s.GCT), s.Genes, s.Signatures)
	for _, p := range s.Parents {
		fmt.Fprintf(w, "  %-10s %-36q by parent name %q: signature %q\n", p.ID, p.Name, p.Parent, p.Signature)
	}
	fmt.Fprintf(w, "pairs with both drugs covered: %d of %d (%d of %d measurements)\n", s.PairsCovered, s.Pairs, s.MeasurementsCovered, s.Measurements)
	if s.AllNaN > 0 {
		fmt.Fprintf(w, "warning: %d matched signatures are entirely NaN in the file (drugs %s)\n", s.AllNaN, strings.Join(s.AllNaNDrugs, ", "))
	}
	for _, a := range s.Ambiguous {
		others := strings.Join(a.Others[:min(3, len(a.Others))], ", ")
		if len(a.Others) > 3 {
			others += fmt.Sprintf(" and %d more", len(a.Others)-3)
		}
		fmt.Fprintf(w, "note: drug %s matched %q; other columns of the same name: %s\n", a.ID, a.Signature, others)
	}
	if len(s.Missing) > 0 {
		fmt.Fprintf(w, "%d drugs without a signature:\n", len(s.Missing))
		for _, d := range s.Missing {
			fmt.Fprintf(w, "  %-10s %-36q tried %s\n", d.ID, d.Name, strings.Join(d.Tried, ", "))
		}
	}
	for _, f := range s.Files {
		if _, err := fmt.Fprintf(w, "wrote %s\n", f); err != nil {
			return err
		}
	}
	return nil
}

// SignatureFiles are the paths of the files WriteSignatures writes into dir.
func SignatureFiles(dir string) []string {
	return []string{filepath.Join(dir, SignaturesParquet), filepath.Join(dir, SignaturesArrow)}
}

// InvalidExamples lists the first n perturbagens whose pubchem_cid is
// invalid, as `line L "VALUE" (NAME)`, comma-separated.
func (p *PertInfo) InvalidExamples(n int) string {
	var ex []string
	for _, iv := range p.Invalid[:min(n, len(p.Invalid))] {
		ex = append(ex, fmt.Sprintf("line %d %q (%s)", iv.Line, iv.Value, iv.Name))
	}
	return strings.Join(ex, ", ")
}

// ErrMatrixFile is a matrix file name WriteMatrixFile cannot write.
var ErrMatrixFile = errors.New("name must end in .arrow, .feather or .parquet")

// CheckMatrixFile says whether WriteMatrixFile can write path: its name
// ends in .arrow or .feather (Arrow IPC) or .parquet, in any case.
func CheckMatrixFile(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".arrow", ".feather", ".parquet":
		return nil
	}
	return ErrMatrixFile
}

// WriteMatrixFile writes m to path atomically in the format of its
// extension (CheckMatrixFile): WriteIPC or WriteParquet.
func WriteMatrixFile(path string, m *Matrix) error {
	if err := CheckMatrixFile(path); err != nil {
		return err
	}
	write := WriteIPC
	if strings.ToLower(filepath.Ext(path)) == ".parquet" {
		write = WriteParquet
	}
	return atomicfile.Write(path, func(w io.Writer) error { return write(w, m, memory.DefaultAllocator) })
}
