package cli

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/progress"
)

//go:embed help/dataImport.txt
var dataImportDesc string

// importArgs are deup data import's flags (table formats), checked.
type importArgs struct {
	inputs []string
	out    string
	asJSON bool
	opt    drugcomb.Options
}

func parseDataImport(env Env, args []string) (*importArgs, error) {
	fs := newFlagSet(env, "deup data import",
		"deup data import --format almanac --pairs FILE [FILE...] --drugs FILE --out DIR\n"+
			"       deup data import --format drugcomb FILE [FILE...] [--drugs FILE] --out DIR\n"+
			"       deup data import --format table FILE [FILE...] --drug-a COL --drug-b COL [--cell-line COL] --score COL[,COL...] [--smiles-a COL --smiles-b COL] [--drugs FILE] --out DIR",
		dataImportDesc)
	a := &importArgs{}
	format := fs.String("format", "table", "input format: almanac, almanac-wells, doseresponse, drugcomb or table")
	pairs := fs.String("pairs", "", "the pairs table (almanac; for the other formats the positional FILE)")
	drugs := fs.String("drugs", "", "drug catalogue: a name and/or PubChem CID column (name, pubchem_cid, pubchemid, cid, ...) and a SMILES column (smiles, isosmiles, canonical_smiles, ...)")
	idCol := fs.String("drug-id-col", "", "catalogue column of the drug id the pairs use (a PubChem CID or a name), when not a recognised spelling")
	smilesCol := fs.String("smiles-col", "", smilesColUsage)
	fs.StringVar(&a.out, "out", "", screenOutUsage)
	fs.StringVar(&a.opt.Name, "name", "", "screen name (default: the input file's base name)")
	var cols drugcomb.Columns
	fs.StringVar(&cols.DrugA, "drug-a", "", "table: column of drug A (a name, id or PubChem CID)")
	fs.StringVar(&cols.DrugB, "drug-b", "", "table: column of drug B")
	fs.StringVar(&cols.CellLine, "cell-line", "", "table: column of the cell line (none: every row is on --cell-line-name)")
	fs.StringVar(&a.opt.CellLineName, "cell-line-name", "", "cell line of every row when there is no cell line column (default \"unknown\")")
	fs.Func("score", "table: score column(s), comma-separated or repeated", func(v string) error {
		cols.Scores = append(cols.Scores, cmdline.SplitList(v)...)
		return nil
	})
	fs.StringVar(&cols.SMILESA, "smiles-a", "", "table: column of drug A's SMILES")
	fs.StringVar(&cols.SMILESB, "smiles-b", "", "table: column of drug B's SMILES")
	delim := fs.String("delimiter", "", "text tables: field delimiter (a character, or tab, comma, semicolon, pipe, space); default: sniffed from the header line")
	fs.BoolVar(&a.opt.Lenient, "lenient", false, "count rows with unparsable scores, wrong field counts or bad quoting in the report instead of failing")
	fs.BoolVar(&a.opt.RequireSMILES, "require-smiles", false, "drop rows with a drug that has no SMILES (reason \"missing SMILES\")")
	fs.BoolVar(&a.opt.RequireKnown, "known-only", false, "table, drugcomb: drop rows with a drug not in --drugs (reason \"unknown drug\")")
	fs.BoolVar(&a.asJSON, "json", false, "print the report as JSON instead of text")
	pos, err := cmdline.ParseWant(fs, args, 0, -1)
	if err != nil {
		return nil, err
	}
	if a.out == "" {
		return nil, cmdline.UsageError(fs, "deup data import: --out DIR is required")
	}
	if a.opt.Delimiter, err = drugcomb.ParseDelimiter(*delim); err != nil {
		return nil, fmt.Errorf("%w: --delimiter %v", cmdline.ErrUsage, err)
	}
	if *pairs != "" {
		a.inputs = append(a.inputs, *pairs)
	}
	if a.inputs = append(a.inputs, pos...); len(a.inputs) == 0 {
		return nil, cmdline.UsageError(fs, "deup data import: no input file")
	}
	for _, in := range a.inputs {
		if err := cmdline.NeedFile("", in, "the screen's measurements: a table file (CSV, TSV, Parquet, Arrow; .gz allowed)"); err != nil {
			return nil, err
		}
	}
	if err := cmdline.NeedFile("--drugs", *drugs, catalogueWhat); err != nil {
		return nil, err
	}
	a.opt.CheckSMILES = checkSMILES // the one structure rule: see structureRule
	if *drugs != "" {
		if a.opt.Catalogue, err = readCatalogue(*drugs, *idCol, *smilesCol); err != nil {
			return nil, err
		}
	}
	if err := a.opt.SetFormat(*format, cols); err != nil {
		fs.Usage()
		return nil, fmt.Errorf("%w: %s", cmdline.ErrUsage, importFormatMessage(err))
	}
	return a, nil
}

func runDataImport(ctx context.Context, env Env, args []string) error {
	switch cmdline.LastFlag(args, "format") { // these two have flag sets of their own
	case "doseresponse":
		return runDataImportDoseResponse(ctx, env, args)
	case "almanac-wells":
		return runImportWells(ctx, env, args)
	}
	a, err := parseDataImport(env, args)
	if err != nil {
		return err
	}
	var finish func()
	a.opt.Progress, finish = progress.Lazy(env.Stderr, "import", "rows")
	s, rep, err := drugcomb.ImportTables(a.inputs, a.opt)
	finish()
	if rep != nil {
		// The report is the output on success; beside an error it is a
		// diagnostic, and goes with the error to stderr.
		w := env.Stdout
		if err != nil {
			w = env.Stderr
		}
		if werr := rep.Write(w, a.asJSON); werr != nil {
			return werr
		}
	}
	input := strings.Join(a.inputs, ", ")
	switch {
	case errors.Is(err, drugcomb.ErrNoRows), errors.Is(err, drugcomb.ErrNoPairs):
		return fmt.Errorf("import %s: %w", input, err)
	case errors.Is(err, drugcomb.ErrCatalogue):
		return fmt.Errorf("import %s: %w: name the catalogue's columns with --drug-id-col and --smiles-col", input, err)
	case err != nil:
		return err
	}
	// Stopped (SIGINT, SIGTERM) while reading: write nothing.
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("import %s: %w", input, err)
	}
	if err := saveScreen(env, a.out, s, rep); err != nil {
		return err
	}
	if !a.asJSON {
		fmt.Fprintf(env.Stdout, "wrote %s: %d pairs, %d measurements, %d drugs, %d cell line(s)\n", a.out, len(s.Pairs), s.Measurements(), len(s.Drugs), len(s.CellLines))
	}
	return nil
}

// saveScreen saves s and its report rep (nil: none) to dir
// (drugcomb.SaveReplacing), and warns of the files kept beside a screen
// it replaced.
func saveScreen(env Env, dir string, s *drugcomb.Screen, rep *drugcomb.Report) error {
	kept, err := drugcomb.SaveReplacing(dir, s, rep)
	if len(kept) > 0 {
		fmt.Fprintf(env.Stderr, "deup: replaced the screen in %s; kept %s, which may describe the old one\n", dir, strings.Join(kept, ", "))
	}
	return err
}
