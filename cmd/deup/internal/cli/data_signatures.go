package cli

import (
	"context"
	_ "embed"
	"errors"
	"fmt"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/lincs"
)

//go:embed help/dataSignatures.txt
var dataSignaturesDesc string

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
	if _, err := cmdline.ParseWant(fs, args, 0, 0); err != nil {
		return nil, err
	}
	if a.gct == "" || (a.screenDir == "" && a.matrixOut == "") {
		return nil, cmdline.UsageError(fs, "deup data signatures: --gct and --screen (or --matrix-out) are required")
	}
	for _, err := range []error{
		cmdline.NeedFile("--gct", a.gct, "a LINCS signature file (GCT 1.2/1.3 text, .gz allowed, or GCTX)"),
		cmdline.NeedFile("--pertinfo", a.pert, "the LINCS perturbagen table (pubchem_cid, pert_iname), or leave it out to match by name"),
		cmdline.NeedOutDir("--matrix-out", a.matrixOut),
	} {
		if err != nil {
			return nil, err
		}
	}
	if a.maxMemory < 1024 || a.maxMemory > 1<<30 {
		return nil, cmdline.UsageError(fs, "deup data signatures: --max-memory %d: want a number of MiB from 1024 to %d", a.maxMemory, int64(1<<30))
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
	if lincs.IsGCTX(a.gct) && env.Sandbox != nil {
		return env.Sandboxed(ctx, append([]string{"data", "signatures"}, args...), a.maxMemory<<20, a.gct, "--max-memory")
	}
	if a.matrixOut != "" && lincs.CheckMatrixFile(a.matrixOut) != nil {
		return fmt.Errorf("%w: deup data signatures: --matrix-out %q: %v", cmdline.ErrUsage, a.matrixOut, lincs.ErrMatrixFile)
	}
	var screen *drugcomb.Screen
	if a.screenDir != "" {
		if screen, err = drugcomb.OpenDir(a.screenDir); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// A GCTX file is read whole only for --matrix-out; for matching, only
	// its matched columns are read (MatchScreen).
	var m *lincs.Matrix
	if a.matrixOut != "" || !lincs.IsGCTX(a.gct) {
		if m, err = lincs.ReadMatrixFile(a.gct); err != nil {
			return err
		}
	}
	if a.matrixOut != "" {
		if err := lincs.WriteMatrixFile(a.matrixOut, m); err != nil {
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
			fmt.Fprintf(env.Stderr, "deup data signatures: note: %s: %d of %d perturbagens have an invalid pubchem_cid and cannot match by CID: %s\n",
				a.pert, len(info.Invalid), info.Rows, info.InvalidExamples(3))
		}
	}
	sigs, sum, err := lincs.MatchScreen(a.gct, m, info, screen)
	if err != nil {
		return err
	}
	if sum.Matched == 0 {
		sum.Write(env.Stdout, a.asJSON)
		return errors.New("deup data signatures: no drug matched a signature; nothing written")
	}
	if err := lincs.WriteSignatures(a.screenDir, sigs); err != nil {
		return err
	}
	sum.Files = lincs.SignatureFiles(a.screenDir)
	return sum.Write(env.Stdout, a.asJSON)
}
