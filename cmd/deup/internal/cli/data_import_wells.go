package cli

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/deup-screening/deup/almanac"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/progress"
)

// ComboScoreFile is the per ordered pair and line output of
// --format almanac-wells.
const ComboScoreFile = "comboscore.csv"

//go:embed help/importWells.txt
var importWellsDesc string

// wellsArgs are deup data import --format almanac-wells' flags, checked.
type wellsArgs struct {
	wells, compounds, names, drugs, out, name string
	window                                    int
	asJSON                                    bool
}

func parseImportWells(env Env, args []string) (*wellsArgs, error) {
	fs := newFlagSet(env, "deup data import --format almanac-wells",
		"deup data import --format almanac-wells --wells FILE(.csv|.zip) --compounds FILE.sdf [--names FILE] [--drugs CATALOGUE] --out DIR",
		importWellsDesc)
	fs.String("format", "almanac-wells", "almanac-wells")
	a := &wellsArgs{}
	wells := fs.String("wells", "", "the wells: ComboDrugGrowth CSV, or the zip holding it (required)")
	compounds := fs.String("compounds", "", "the structures: NCI's ComboCompoundSet.sdf, NSC in the data item <NSC> (required)")
	names := fs.String("names", "", "NSC<TAB>name lines (ComboCompoundNames_small.txt); NSCs of one name are one drug")
	drugs := fs.String("drugs", "", "drug catalogue with SMILES, looked up by name, for structures the SDF lacks or RDKit refuses")
	out := fs.String("out", "", screenOutUsage)
	name := fs.String("name", "", "screen name (default: the wells file's base name)")
	window := fs.Int("plate-window", almanac.DefaultPlateWindow, "plates kept open while streaming (negative: all)")
	asJSON := fs.Bool("json", false, "print the report as JSON (as report.json holds it) instead of text")
	_, err := parseWant(fs, args, 0, 0)
	if err != nil {
		return nil, err
	}
	if *wells == "" || *compounds == "" || *out == "" {
		return nil, usageError(fs, "deup data import --format almanac-wells needs --wells, --compounds and --out")
	}
	for _, f := range [][3]string{{"--wells", *wells, "NCI's ComboDrugGrowth wells (.csv or .zip)"}, {"--compounds", *compounds, "NCI's ComboCompoundSet.sdf"},
		{"--names", *names, "NSC<TAB>name lines"}, {"--drugs", *drugs, catalogueWhat}} {
		if err := needFile(f[0], f[1], f[2]); err != nil {
			return nil, err
		}
	}
	*a = wellsArgs{wells: *wells, compounds: *compounds, names: *names, drugs: *drugs, out: *out, name: *name, window: *window, asJSON: *asJSON}
	return a, nil
}

// readWellsSources reads the structures, names and catalogue of an
// almanac-wells import.
func readWellsSources(a *wellsArgs) (almanac.Sources, error) {
	src := almanac.Sources{}
	if err := readFile(a.compounds, func(r io.Reader) (err error) { src.Compounds, err = almanac.ReadCompounds(r, a.compounds); return }); err != nil {
		return src, fmt.Errorf("import: --compounds %w", err)
	}
	if a.names != "" {
		if err := readFile(a.names, func(r io.Reader) (err error) { src.Names, err = almanac.ReadNames(r, a.names); return }); err != nil {
			return src, fmt.Errorf("import: --names %w", err)
		}
	}
	if a.drugs != "" {
		var err error
		if src.Catalogue, err = drugcomb.ReadCatalogueFile(a.drugs); err != nil {
			return src, fmt.Errorf("import: --drugs %w", err)
		}
	}
	return src, nil
}

func runImportWells(ctx context.Context, env Env, args []string) error {
	a, err := parseImportWells(env, args)
	if err != nil {
		return err
	}
	start := env.now()
	src, err := readWellsSources(a)
	if err != nil {
		return err
	}
	rc, wname, err := almanac.OpenWells(a.wells)
	if err != nil {
		return fmt.Errorf("import: --wells %w", err)
	}
	defer rc.Close()
	var bar *progress.Bar
	res, err := almanac.Import(rc, wname, almanac.Options{PlateWindow: a.window, Progress: func(n int) {
		if bar == nil {
			bar = progress.New(env.Stderr, "import", 0)
		}
		bar.Set(n, "wells")
	}})
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	read := env.since(start)
	if a.name == "" {
		a.name = strings.TrimSuffix(filepath.Base(a.wells), filepath.Ext(a.wells))
	}
	s, serr := almanac.BuildScreen(a.name, res.ComboScores, src, res.Report)
	if a.asJSON { // the document report.json holds
		b, err := json.MarshalIndent(res.Report.ScreenReport(s), "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "%s\n", b)
	} else if err := res.Report.WriteText(env.Stdout); err != nil {
		return err
	}
	if serr != nil {
		return fmt.Errorf("import %s: %w", wname, serr)
	}
	if err := drugcomb.Save(a.out, s); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(a.out, ComboScoreFile), func(w io.Writer) error { return almanac.WriteComboScores(w, res.ComboScores) }); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	if err := drugcomb.SaveReport(a.out, res.Report.ScreenReport(s)); err != nil {
		return err
	}
	if !a.asJSON {
		fmt.Fprintf(env.Stdout, "wrote %s: %d pairs, %d measurements, %d drugs, %d cell line(s); %s: %d ordered pair-lines\n",
			a.out, len(s.Pairs), s.Measurements(), len(s.Drugs), len(s.CellLines), ComboScoreFile, len(res.ComboScores))
	}
	el := env.since(start)
	line := fmt.Sprintf("deup data import: %d wells read and scored in %.3f s (%.0f wells/s); %.3f s in all with the screen and files",
		res.Report.WellsRead, read.Seconds(), float64(res.Report.WellsRead)/read.Seconds(), el.Seconds())
	if cpu, rss, ok := usage(); ok {
		line += fmt.Sprintf(", cpu %.3f s, peak RSS %.1f MiB", cpu.Seconds(), float64(rss)/(1<<20))
	}
	fmt.Fprintln(env.Stderr, line)
	return nil
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
