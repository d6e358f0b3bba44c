package cli

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/deup-screening/deup/chem/fptable"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/internal/tabular"
)

func fingerprintCommand() *cmdline.Command {
	return &cmdline.Command{
		Name:  "fingerprint",
		Short: "Morgan fingerprints (RDKit-identical) of a drug catalogue or id<TAB>smiles lines",
		Run:   runFingerprint,
	}
}

//go:embed help/fingerprint.txt
var fingerprintDesc string

type fingerprintArgs struct {
	opt      fptable.Options
	input    fptable.Input
	quiet    bool
	out, in  string // in: "" or "-" for standard input
	nameOfIn string // in messages: in, or "stdin"
}

func parseFingerprint(env Env, args []string) (*fingerprintArgs, error) {
	fs := newFlagSet(env, "deup fingerprint", "deup fingerprint [--radius R] [--bits N] [--largest-fragment] [--drug-id-col C] [--smiles-col C] [--header] [--format sdf|smiles] [--id-field F] [--workers W] [--out FILE.csv|FILE.parquet|FILE.arrow] [FILE]", fingerprintDesc)
	a := &fingerprintArgs{nameOfIn: "stdin"}
	in := &a.input
	fs.IntVar(&a.opt.Radius, "radius", 3, "Morgan radius")
	fs.IntVar(&a.opt.Bits, "bits", 1024, "fingerprint size in bits")
	fs.BoolVar(&in.Header, "header", false, "read id<TAB>smiles lines and skip the first line (a header)")
	workers := cmdline.WorkersFlag(fs, 0, "goroutines")
	fs.BoolVar(&a.quiet, "quiet", false, "do not print the throughput line")
	fs.BoolVar(&a.opt.Largest, "largest-fragment", false, "fingerprint the largest organic fragment (as the model features do), not the whole SMILES")
	fs.StringVar(&in.IDCol, "drug-id-col", "", "catalogue column of the drug id (a PubChem CID or a name), when not a recognised spelling")
	fs.StringVar(&in.SMILESCol, "smiles-col", "", smilesColUsage)
	format := fs.String("format", "", "input format: sdf or smiles (default: sdf for a .sdf, .sd or .mol file, else smiles lines or a catalogue)")
	fs.StringVar(&in.IDField, "id-field", "", "SD file: the data item holding each record's id (e.g. NSC; default: the title line)")
	fs.StringVar(&a.out, "out", "", "write a table to this file, CSV or Parquet by its extension (.csv, .parquet), instead of id<TAB>bits lines on stdout")
	pos, err := cmdline.ParseWant(fs, args, 0, 1)
	if err != nil {
		return nil, err
	}
	if err := cmdline.Check(
		cmdline.Want(a.opt.Radius >= 0, "--radius must be >= 0, got %d", a.opt.Radius),
		cmdline.Want(a.opt.Bits > 0, "--bits must be positive, got %d", a.opt.Bits),
		cmdline.Want(!in.Header || in.IDCol == "" && in.SMILESCol == "", "--header reads id<TAB>smiles lines; --drug-id-col and --smiles-col name a catalogue's columns: give one or the other"),
	); err != nil {
		return nil, err
	}
	if len(pos) == 1 {
		if err := cmdline.NeedFile("", pos[0], catalogueWhat+", or id<TAB>smiles lines"); err != nil {
			return nil, err
		}
		if a.in = pos[0]; a.in != "-" {
			a.nameOfIn = a.in
		}
	}
	if err := cmdline.NeedOutDir("--out", a.out); err != nil {
		return nil, err
	}
	if a.out != "" {
		if _, err := tabular.FormatOf(a.out); err != nil {
			return nil, fmt.Errorf("%w: --out %s: want a .csv, .parquet or .arrow file", cmdline.ErrUsage, a.out)
		}
	}
	if in.SDF, err = fptable.IsSDF(*format, a.nameOfIn); err != nil {
		var fe *fptable.FormatError
		if errors.As(err, &fe) {
			return nil, fmt.Errorf("%w: --format %q: want sdf or smiles", cmdline.ErrUsage, fe.Format)
		}
		return nil, fmt.Errorf("%w: %v", cmdline.ErrUsage, err)
	}
	if err := cmdline.Check(
		cmdline.Want(in.SDF || in.IDField == "", "--id-field names a data item of an SD file; give an .sdf file or --format sdf"),
		cmdline.WorkersRule(*workers),
	); err != nil {
		return nil, err
	}
	a.opt.Workers = cmdline.Workers(*workers)
	a.opt.LineIDs = a.out == ""
	if a.opt.LineIDs {
		a.opt.LineIDsHint = "--out FILE.csv or FILE.parquet keeps it"
	}
	return a, nil
}

func runFingerprint(ctx context.Context, env Env, args []string) error {
	a, err := parseFingerprint(env, args)
	if err != nil {
		return err
	}
	var in io.Reader = env.Stdin
	if a.in != "" && a.in != "-" {
		f, err := os.Open(a.in)
		if err != nil {
			return fmt.Errorf("fingerprint: %w", err)
		}
		defer f.Close()
		in = f
	}
	say := func(s string) { fmt.Fprintf(env.Stderr, "deup fingerprint: %s\n", s) }
	start := env.Time()
	src, err := fptable.Open(in, a.nameOfIn, a.input, say)
	if err != nil {
		return fmt.Errorf("fingerprint: %w", catalogueHint(err))
	}
	sink, err := fptable.NewWriter(env.Stdout, a.out)
	if err != nil {
		return fmt.Errorf("fingerprint: --out: %w", err)
	}
	// The project's rule for bad rows: skip and report. A molecule that
	// cannot be fingerprinted is named on stderr (file, line, why) and not
	// written; the run succeeds unless none could be.
	nMol, nSkip, err := src.Fingerprint(ctx, a.opt, sink, say)
	if err != nil {
		if err == ctx.Err() {
			return err
		}
		return fmt.Errorf("fingerprint: %w", err)
	}
	el := env.Since(start)
	if !a.quiet {
		rate := float64(nMol) / el.Seconds()
		fmt.Fprintf(env.Stderr, "deup fingerprint: %d molecules written, %d skipped (named above, not written) in %.3f s: %.0f molecules/s on %d workers (%.0f/s per worker)\n",
			nMol, nSkip, el.Seconds(), rate, a.opt.Workers, rate/float64(a.opt.Workers))
	}
	if nMol == 0 && nSkip > 0 {
		return fmt.Errorf("fingerprint: %s: none of its %d molecule(s) could be fingerprinted (each is named above)", a.nameOfIn, nSkip)
	}
	return nil
}
