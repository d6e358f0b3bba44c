package cli

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/internal/progress"
)

func dataImportCommand() *Command {
	return &Command{
		Name:  "import",
		Short: "import a screen (ALMANAC, DrugComb summary, or any table with a column map) into a screen directory",
		Run:   runDataImport,
	}
}

//go:embed help/dataImport.txt
var dataImportDesc string

// scoreList is a repeatable, comma-separated flag value.
type scoreList []string

func (s *scoreList) String() string     { return strings.Join(*s, ",") }
func (s *scoreList) Set(v string) error { *s = append(*s, splitList(v)...); return nil }

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
	fs.Var((*scoreList)(&cols.Scores), "score", "table: score column(s), comma-separated or repeated")
	fs.StringVar(&cols.SMILESA, "smiles-a", "", "table: column of drug A's SMILES")
	fs.StringVar(&cols.SMILESB, "smiles-b", "", "table: column of drug B's SMILES")
	delim := fs.String("delimiter", "", "text tables: field delimiter (a character, or tab, comma, semicolon, pipe, space); default: sniffed from the header line")
	fs.BoolVar(&a.opt.Lenient, "lenient", false, "count rows with unparsable scores, wrong field counts or bad quoting in the report instead of failing")
	fs.BoolVar(&a.opt.RequireSMILES, "require-smiles", false, "drop rows with a drug that has no SMILES (reason \"missing SMILES\")")
	fs.BoolVar(&a.opt.RequireKnown, "known-only", false, "table, drugcomb: drop rows with a drug not in --drugs (reason \"unknown drug\")")
	fs.BoolVar(&a.asJSON, "json", false, "print the report as JSON instead of text")
	pos, err := parseWant(fs, args, 0, -1)
	if err != nil {
		return nil, err
	}
	if a.out == "" {
		return nil, usageError(fs, "deup data import: --out DIR is required")
	}
	if a.opt.Delimiter, err = drugcomb.ParseDelimiter(*delim); err != nil {
		return nil, fmt.Errorf("%w: --delimiter %v", ErrUsage, err)
	}
	if *pairs != "" {
		a.inputs = append(a.inputs, *pairs)
	}
	if a.inputs = append(a.inputs, pos...); len(a.inputs) == 0 {
		return nil, usageError(fs, "deup data import: no input file")
	}
	for _, in := range a.inputs {
		if err := needFile("", in, "the screen's measurements: a table file (CSV, TSV, Parquet, Arrow; .gz allowed)"); err != nil {
			return nil, err
		}
	}
	if err := needFile("--drugs", *drugs, catalogueWhat); err != nil {
		return nil, err
	}
	a.opt.Format = *format
	a.opt.CheckSMILES = checkSMILES // the one structure rule: see structureRule
	if *drugs != "" {
		cat, err := drugcomb.ReadCatalogueFileWith(*drugs, drugcomb.CatalogueColumns{ID: *idCol, SMILES: *smilesCol})
		if err != nil {
			return nil, fmt.Errorf("%w (name the columns with --drug-id-col and --smiles-col)", err)
		}
		a.opt.Catalogue = cat
	}
	if err := importColumns(&a.opt, cols); err != nil {
		fs.Usage()
		return nil, err
	}
	return a, nil
}

// importColumns sets the column map of opt.Format: almanac's and
// drugcomb's are fixed, table's is cols.
func importColumns(opt *drugcomb.Options, cols drugcomb.Columns) error {
	tableFlags := cols.DrugA != "" || cols.DrugB != "" || cols.CellLine != "" || len(cols.Scores) > 0 || cols.SMILESA != "" || cols.SMILESB != ""
	switch opt.Format {
	case "almanac":
		if opt.Catalogue == nil {
			return fmt.Errorf("%w: deup data import --format almanac needs --drugs FILE (the CID catalogue)", ErrUsage)
		}
		if tableFlags {
			return fmt.Errorf("%w: deup data import --format almanac has a fixed column map; use --format table for --drug-a etc.", ErrUsage)
		}
		opt.Columns = drugcomb.AlmanacColumns()
		opt.RequireKnown = true
	case "drugcomb":
		if tableFlags {
			return fmt.Errorf("%w: deup data import --format drugcomb has a fixed column map; use --format table for --drug-a etc.", ErrUsage)
		}
		opt.Columns = drugcomb.DrugCombColumns()
		opt.SingleDrug = true
	case "table":
		if cols.DrugA == "" || cols.DrugB == "" || len(cols.Scores) == 0 {
			return fmt.Errorf("%w: deup data import --format table needs --drug-a, --drug-b and --score", ErrUsage)
		}
		if (cols.SMILESA == "") != (cols.SMILESB == "") {
			return fmt.Errorf("%w: deup data import: give both --smiles-a and --smiles-b, or neither", ErrUsage)
		}
		opt.Columns = cols
	default:
		return fmt.Errorf("%w: deup data import: unknown --format %q (almanac, almanac-wells, doseresponse, drugcomb, table)", ErrUsage, opt.Format)
	}
	if opt.RequireKnown && opt.Catalogue == nil {
		return fmt.Errorf("%w: deup data import: --known-only needs --drugs FILE", ErrUsage)
	}
	return nil
}

// importFormatArg is the last value of data import's --format before a
// lone "--" ("" when there is none): it picks the flag set.
func importFormatArg(args []string) string {
	format := ""
	for i, a := range args {
		switch {
		case a == "--":
			return format
		case (a == "--format" || a == "-format") && i+1 < len(args):
			format = args[i+1]
		case strings.HasPrefix(a, "--format=") || strings.HasPrefix(a, "-format="):
			_, format, _ = strings.Cut(a, "=")
		}
	}
	return format
}

func runDataImport(ctx context.Context, env Env, args []string) error {
	switch importFormatArg(args) { // these two have flag sets of their own
	case "doseresponse":
		return runDataImportDoseResponse(ctx, env, args)
	case "almanac-wells":
		return runImportWells(ctx, env, args)
	}
	a, err := parseDataImport(env, args)
	if err != nil {
		return err
	}
	var bar *progress.Bar
	a.opt.Progress = func(rows int) {
		if bar == nil {
			bar = progress.New(env.Stderr, "import", 0)
		}
		bar.Set(rows, "rows")
	}
	s, rep, err := drugcomb.ImportTables(a.inputs, a.opt)
	if bar != nil {
		bar.Finish()
	}
	if rep != nil {
		// The report is the output on success; beside an error it is a
		// diagnostic, and goes with the error to stderr.
		w := env.Stdout
		if err != nil {
			w = env.Stderr
		}
		if werr := writeImportReport(w, rep, a.asJSON); werr != nil {
			return werr
		}
	}
	input := strings.Join(a.inputs, ", ")
	switch {
	case errors.Is(err, drugcomb.ErrNoRows):
		return fmt.Errorf("import %s: %w", input, err)
	case errors.Is(err, drugcomb.ErrCatalogue):
		return fmt.Errorf("import %s: %w: name the catalogue's columns with --drug-id-col and --smiles-col", input, err)
	case errors.Is(err, drugcomb.ErrNoPairs):
		return fmt.Errorf("import %s: %w", input, err)
	case err != nil:
		return err
	}
	replaced := drugcomb.IsScreenDir(a.out)
	if err := drugcomb.SaveWithReport(a.out, s, rep); err != nil {
		return err
	}
	if replaced {
		if extra := drugcomb.OtherFiles(a.out); len(extra) > 0 {
			fmt.Fprintf(env.Stderr, "deup: replaced the screen in %s; kept %s, which may describe the old one\n", a.out, strings.Join(extra, ", "))
		}
	}
	if !a.asJSON {
		fmt.Fprintf(env.Stdout, "wrote %s: %d pairs, %d measurements, %d drugs, %d cell line(s)\n", a.out, len(s.Pairs), s.Measurements(), len(s.Drugs), len(s.CellLines))
	}
	return nil
}

// writeImportReport prints a data report as text or indented JSON.
func writeImportReport(w io.Writer, rep *drugcomb.Report, asJSON bool) error {
	if !asJSON {
		return rep.WriteText(w)
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// checkSMILES is the structure check of data import: the one training
// applies (features.CheckSMILES), its message without the package prefix.
func checkSMILES(smiles string) error {
	if err := features.CheckSMILES(smiles); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "chem: "))
	}
	return nil
}
