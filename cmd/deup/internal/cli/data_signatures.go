package cli

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/lincs"
)

func dataSignaturesCommand() *Command {
	return &Command{
		Name:  "signatures",
		Short: "match L1000 signatures (GCT) to a screen's drugs and store them beside it",
		Run:   runDataSignatures,
	}
}

//go:embed help/dataSignatures.txt
var dataSignaturesDesc string

type signaturesSummary struct {
	lincs.Report
	GCT                 string   `json:"gct"`
	Genes               int      `json:"genes"`
	Signatures          int      `json:"signatures"`
	Pairs               int      `json:"pairs"`
	PairsCovered        int      `json:"pairs_covered"`
	Measurements        int      `json:"measurements"`
	MeasurementsCovered int      `json:"measurements_covered"`
	Files               []string `json:"files"`
}

// signaturesArgs are deup data signatures' flags, checked.
type signaturesArgs struct {
	gct, pert, screenDir, matrixOut string
	asJSON                          bool
	maxMemory                       int64
}

func parseSignatures(env Env, args []string) (*signaturesArgs, error) {
	fs := newFlagSet(env, "deup data signatures", "deup data signatures --gct FILE [--pertinfo FILE] --screen DIR [--json] [--matrix-out FILE]", dataSignaturesDesc)
	a := &signaturesArgs{}
	fs.StringVar(&a.gct, "gct", "", "signatures `file`: GCT 1.2/1.3 text (.gz allowed) or GCTX (.gctx)")
	fs.StringVar(&a.pert, "pertinfo", "", "LINCS perturbagen table `file` (pubchem_cid, pert_iname); without it, drugs match by name only")
	fs.StringVar(&a.screenDir, "screen", "", "screen `directory` (from deup data import or synth); the signatures are written into it")
	fs.BoolVar(&a.asJSON, "json", false, "print the report as one JSON object")
	fs.StringVar(&a.matrixOut, "matrix-out", "", "also convert the whole signature file to this Arrow (.arrow, .feather) or Parquet (.parquet) `file`")
	fs.Int64Var(&a.maxMemory, "max-memory", 4096, "cap on the address space, in `MiB`, of the process that reads a GCTX file (Linux; ≥ 1024)")
	_, err := parseWant(fs, args, 0, 0)
	if err != nil {
		return nil, err
	}
	if a.gct == "" || (a.screenDir == "" && a.matrixOut == "") {
		return nil, usageError(fs, "deup data signatures: --gct and --screen (or --matrix-out) are required")
	}
	for _, err := range []error{
		needFile("--gct", a.gct, "a LINCS signature file (GCT 1.2/1.3 text, .gz allowed, or GCTX)"),
		needFile("--pertinfo", a.pert, "the LINCS perturbagen table (pubchem_cid, pert_iname), or leave it out to match by name"),
		needOutDir("--matrix-out", a.matrixOut),
	} {
		if err != nil {
			return nil, err
		}
	}
	if a.maxMemory < 1024 || a.maxMemory > 1<<30 {
		return nil, usageError(fs, "deup data signatures: --max-memory %d: want a number of MiB from 1024 to %d", a.maxMemory, int64(1<<30))
	}
	return a, nil
}

func runDataSignatures(ctx context.Context, env Env, args []string) error {
	a, err := parseSignatures(env, args)
	if err != nil {
		return err
	}
	// A GCTX file goes to scigolib/hdf5, which allocates whatever a
	// damaged header declares: read it in a capped child (the same
	// command, run by the child in-process since its Env has no Sandbox).
	isGCTX := strings.HasSuffix(strings.ToLower(a.gct), ".gctx")
	if isGCTX && env.Sandbox != nil {
		return sandboxed(ctx, env, append([]string{"data", "signatures"}, args...), a.maxMemory<<20, a.gct, "--max-memory")
	}
	var write func(io.Writer, *lincs.Matrix, memory.Allocator) error
	switch ext := strings.ToLower(filepath.Ext(a.matrixOut)); {
	case a.matrixOut == "":
	case ext == ".arrow" || ext == ".feather":
		write = lincs.WriteIPC
	case ext == ".parquet":
		write = lincs.WriteParquet
	default:
		return fmt.Errorf("%w: deup data signatures: --matrix-out %q: name must end in .arrow, .feather or .parquet", ErrUsage, a.matrixOut)
	}
	var screen *drugcomb.Screen
	if a.screenDir != "" {
		if screen, err = openScreen(a.screenDir); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// A GCTX file is read whole only for --matrix-out; for matching, only
	// its matched columns are read (LINCS level-5 files are tens of GB).
	var m *lincs.Matrix
	if write != nil || !isGCTX {
		if m, err = lincs.ReadMatrixFile(a.gct); err != nil {
			return err
		}
	}
	if write != nil {
		var buf bytes.Buffer
		if err := write(&buf, m, memory.DefaultAllocator); err != nil {
			return err
		}
		if err := atomicfile.WriteFile(a.matrixOut, buf.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "deup data signatures: wrote %s (%d signatures x %d genes)\n", a.matrixOut, len(m.Cols), len(m.Rows))
	}
	if screen == nil {
		return nil
	}
	return matchSignatures(env, a, m, screen)
}

// matchSignatures matches the signatures (m, or the GCTX file read column
// by column when m is nil) to the drugs of screen, stores them beside it
// and prints the report.
func matchSignatures(env Env, a *signaturesArgs, m *lincs.Matrix, screen *drugcomb.Screen) error {
	var info *lincs.PertInfo
	if a.pert != "" {
		var err error
		if info, err = lincs.ReadPertInfoFile(a.pert); err != nil {
			return err
		}
		if len(info.Invalid) > 0 {
			var ex []string
			for _, iv := range info.Invalid[:min(3, len(info.Invalid))] {
				ex = append(ex, fmt.Sprintf("line %d %q (%s)", iv.Line, iv.Value, iv.Name))
			}
			fmt.Fprintf(env.Stderr, "deup data signatures: note: %s: %d of %d perturbagens have an invalid pubchem_cid and cannot match by CID: %s\n",
				a.pert, len(info.Invalid), info.Rows, strings.Join(ex, ", "))
		}
	}
	var (
		sigs *lincs.Signatures
		rep  lincs.Report
		nSig int
	)
	if m != nil {
		sigs, rep = lincs.MatchDrugs(m, info, screen.Drugs)
		nSig = len(m.Cols)
	} else {
		var err error
		if sigs, rep, nSig, err = lincs.MatchGCTXFile(a.gct, info, screen.Drugs); err != nil {
			return err
		}
	}
	sum := signaturesSummary{Report: rep, GCT: a.gct, Genes: len(sigs.Genes), Signatures: nSig, Pairs: len(screen.Pairs), Measurements: screen.Measurements()}
	sum.PairsCovered, sum.MeasurementsCovered = sigs.CoveredPairs(screen)
	if rep.Matched == 0 {
		writeSignaturesReport(env, sum, a.asJSON)
		return errors.New("deup data signatures: no drug matched a signature; nothing written")
	}
	if err := lincs.WriteSignatures(a.screenDir, sigs); err != nil {
		return err
	}
	sum.Files = []string{filepath.Join(a.screenDir, lincs.SignaturesParquet), filepath.Join(a.screenDir, lincs.SignaturesArrow)}
	return writeSignaturesReport(env, sum, a.asJSON)
}

func writeSignaturesReport(env Env, s signaturesSummary, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(env.Stdout)
		return enc.Encode(s)
	}
	w := env.Stdout
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
		fmt.Fprintf(w, "wrote %s\n", f)
	}
	return nil
}
