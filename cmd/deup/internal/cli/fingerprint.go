package cli

import (
	"bufio"
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/deup-screening/deup/chem/fptable"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/tabular"
)

func fingerprintCommand() *Command {
	return &Command{
		Name:  "fingerprint",
		Short: "Morgan fingerprints (RDKit-identical) of a drug catalogue or id<TAB>smiles lines",
		Run:   runFingerprint,
	}
}

//go:embed help/fingerprint.txt
var fingerprintDesc string

// fingerprintArgs are deup fingerprint's flags, checked.
type fingerprintArgs struct {
	opt                               fptable.Options
	header, quiet                     bool
	idCol, smilesCol, format, idField string
	out, in                           string // in: "" or "-" for standard input
}

func parseFingerprint(env Env, args []string) (*fingerprintArgs, error) {
	fs := newFlagSet(env, "deup fingerprint", "deup fingerprint [--radius R] [--bits N] [--largest-fragment] [--drug-id-col C] [--smiles-col C] [--header] [--format sdf|smiles] [--id-field F] [--workers W] [--out FILE.csv|FILE.parquet|FILE.arrow] [FILE]", fingerprintDesc)
	a := &fingerprintArgs{}
	fs.IntVar(&a.opt.Radius, "radius", 3, "Morgan radius")
	fs.IntVar(&a.opt.Bits, "bits", 1024, "fingerprint size in bits")
	fs.BoolVar(&a.header, "header", false, "read id<TAB>smiles lines and skip the first line (a header)")
	workers := workersFlag(fs, 0, "goroutines")
	fs.BoolVar(&a.quiet, "quiet", false, "do not print the throughput line")
	fs.BoolVar(&a.opt.Largest, "largest-fragment", false, "fingerprint the largest organic fragment (as the model features do), not the whole SMILES")
	fs.StringVar(&a.idCol, "drug-id-col", "", "catalogue column of the drug id (a PubChem CID or a name), when not a recognised spelling")
	fs.StringVar(&a.smilesCol, "smiles-col", "", smilesColUsage)
	fs.StringVar(&a.format, "format", "", "input format: sdf or smiles (default: sdf for a .sdf, .sd or .mol file, else smiles lines or a catalogue)")
	fs.StringVar(&a.idField, "id-field", "", "SD file: the data item holding each record's id (e.g. NSC; default: the title line)")
	fs.StringVar(&a.out, "out", "", "write a table to this file, CSV or Parquet by its extension (.csv, .parquet), instead of id<TAB>bits lines on stdout")
	pos, err := parseWant(fs, args, 0, 1)
	if err != nil {
		return nil, err
	}
	if a.opt.Radius < 0 {
		return nil, fmt.Errorf("%w: --radius must be >= 0, got %d", ErrUsage, a.opt.Radius)
	}
	if a.opt.Bits <= 0 {
		return nil, fmt.Errorf("%w: --bits must be positive, got %d", ErrUsage, a.opt.Bits)
	}
	if a.header && (a.idCol != "" || a.smilesCol != "") {
		return nil, fmt.Errorf("%w: --header reads id<TAB>smiles lines; --drug-id-col and --smiles-col name a catalogue's columns: give one or the other", ErrUsage)
	}
	if len(pos) == 1 {
		if err := needFile("", pos[0], catalogueWhat+", or id<TAB>smiles lines"); err != nil {
			return nil, err
		}
		a.in = pos[0]
	}
	if err := needOutDir("--out", a.out); err != nil {
		return nil, err
	}
	if a.out != "" {
		if _, err := tabular.FormatOf(a.out); err != nil {
			return nil, fmt.Errorf("%w: --out %s: want a .csv, .parquet or .arrow file", ErrUsage, a.out)
		}
	}
	if a.opt.Workers = *workers; a.opt.Workers <= 0 {
		a.opt.Workers = runtime.GOMAXPROCS(0)
	}
	a.opt.LineIDs = a.out == ""
	return a, nil
}

func runFingerprint(ctx context.Context, env Env, args []string) error {
	a, err := parseFingerprint(env, args)
	if err != nil {
		return err
	}
	var in io.Reader = env.Stdin
	name := "stdin"
	if a.in != "" && a.in != "-" {
		f, err := os.Open(a.in)
		if err != nil {
			return fmt.Errorf("fingerprint: %w", err)
		}
		defer f.Close()
		in, name = f, a.in
	}
	br := bufio.NewReaderSize(in, 1<<16)
	start := env.now()
	sdf, err := fptable.IsSDF(a.format, name)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	if !sdf && a.idField != "" {
		return fmt.Errorf("%w: --id-field names a data item of an SD file; give an .sdf file or --format sdf", ErrUsage)
	}
	// A catalogue is read whole (and checked) before any output exists.
	var cat []fptable.Entry
	isCat := !sdf && !a.header && (a.idCol != "" || a.smilesCol != "" || fptable.LooksLikeCatalogue(br, a.smilesCol))
	if isCat {
		if cat, err = fingerprintCatalogue(env, br, name, a); err != nil {
			return err
		}
	}
	sink, err := fptable.NewWriter(env.Stdout, a.out)
	if err != nil {
		return fmt.Errorf("fingerprint: --out: %w", err)
	}
	nMol, nFail := 0, 0
	put := func(r fptable.Result) error {
		for _, p := range r.Problems {
			fmt.Fprintf(env.Stderr, "deup fingerprint: %s\n", p)
		}
		nFail += len(r.Problems)
		if !r.Write {
			return nil
		}
		nMol++
		return sink.Write(r.ID, r.Name, r.Bits)
	}
	switch {
	case sdf:
		err = fptable.SDF(ctx, br, name, a.idField, a.opt, put)
	case isCat:
		err = fptable.Entries(ctx, cat, a.opt, put)
	default:
		err = fptable.Lines(ctx, br, name, a.header, a.opt, put)
	}
	if err == nil {
		err = sink.Close()
	}
	if err != nil {
		sink.Abort()
		if err == ctx.Err() {
			return err
		}
		return fmt.Errorf("fingerprint: %w", err)
	}
	el := env.since(start)
	if !a.quiet {
		rate := float64(nMol) / el.Seconds()
		fmt.Fprintf(env.Stderr, "deup fingerprint: %d molecules (%d failed) in %.3f s: %.0f molecules/s on %d workers (%.0f/s per worker)\n",
			nMol, nFail, el.Seconds(), rate, a.opt.Workers, rate/float64(a.opt.Workers))
	}
	if nFail > 0 {
		return exitError{1}
	}
	return nil
}

// fingerprintCatalogue reads the catalogue br (named name) and says on
// stderr which rows it leaves out.
func fingerprintCatalogue(env Env, br io.Reader, name string, a *fingerprintArgs) ([]fptable.Entry, error) {
	c, err := drugcomb.ReadCatalogueWith(name, br, drugcomb.CatalogueColumns{ID: a.idCol, SMILES: a.smilesCol})
	if err != nil {
		return nil, fmt.Errorf("fingerprint: %w (name the columns with --drug-id-col and --smiles-col)", fpStripPkg(err))
	}
	if c.SMILESColumn == "" {
		return nil, fmt.Errorf("fingerprint: %s: the catalogue has no SMILES column (%s); the header has: %s; name it with --smiles-col",
			name, strings.Join(drugcomb.CatalogueSMILESColumns(), ", "), strings.Join(c.Header, ", "))
	}
	for _, n := range c.Notes { // rows not fingerprinted: said, not dropped silently
		where := make([]string, len(n.Examples))
		for i, x := range n.Examples {
			where[i] = x.Where
		}
		fmt.Fprintf(env.Stderr, "deup fingerprint: %d %s, not fingerprinted: %s\n", n.Count, n.Reason, strings.Join(where, ", "))
	}
	return fptable.CatalogueEntries(c), nil
}

// fpStripPkg drops the catalogue reader's package prefix from its message:
// the user knows the command, not the package.
func fpStripPkg(err error) error {
	msg := strings.TrimPrefix(err.Error(), "drugcomb: catalogue: ")
	return fmt.Errorf("catalogue %s", msg)
}
