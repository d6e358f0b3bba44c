package cli

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/deup-screening/deup/almanac"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/internal/progress"
	"github.com/deup-screening/deup/internal/rusage"
)

//go:embed help/importWells.txt
var importWellsDesc string

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
	fs.StringVar(&a.wells, "wells", "", "the wells: ComboDrugGrowth CSV, or the zip holding it (required)")
	fs.StringVar(&a.compounds, "compounds", "", "the structures: NCI's ComboCompoundSet.sdf, NSC in the data item <NSC> (required)")
	fs.StringVar(&a.names, "names", "", "NSC<TAB>name lines (ComboCompoundNames_small.txt); NSCs of one name are one drug")
	fs.StringVar(&a.drugs, "drugs", "", "drug catalogue with SMILES, looked up by name, for structures the SDF lacks or RDKit refuses")
	fs.StringVar(&a.out, "out", "", screenOutUsage)
	fs.StringVar(&a.name, "name", "", "screen name (default: the wells file's base name)")
	fs.IntVar(&a.window, "plate-window", almanac.DefaultPlateWindow, "plates kept open while streaming (negative: all)")
	fs.BoolVar(&a.asJSON, "json", false, "print the report as JSON (as report.json holds it) instead of text")
	if _, err := cmdline.ParseWant(fs, args, 0, 0); err != nil {
		return nil, err
	}
	if a.wells == "" || a.compounds == "" || a.out == "" {
		return nil, cmdline.UsageError(fs, "deup data import --format almanac-wells needs --wells, --compounds and --out")
	}
	for _, f := range [][3]string{{"--wells", a.wells, "NCI's ComboDrugGrowth wells (.csv or .zip)"}, {"--compounds", a.compounds, "NCI's ComboCompoundSet.sdf"},
		{"--names", a.names, "NSC<TAB>name lines"}, {"--drugs", a.drugs, catalogueWhat}} {
		if err := cmdline.NeedFile(f[0], f[1], f[2]); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func runImportWells(ctx context.Context, env Env, args []string) error {
	a, err := parseImportWells(env, args)
	if err != nil {
		return err
	}
	start := env.Time()
	src, err := almanac.ReadSources(a.compounds, a.names, a.drugs)
	if err != nil {
		return sourceHint(err)
	}
	rc, wname, err := almanac.OpenWells(a.wells)
	if err != nil {
		return fmt.Errorf("import: --wells %w", err)
	}
	defer rc.Close()
	bar, finish := progress.Lazy(env.Stderr, "import", "wells")
	res, err := almanac.Import(rc, wname, almanac.Options{PlateWindow: a.window, Progress: bar})
	finish()
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	read := env.Since(start)
	if a.name == "" {
		a.name = baseName(a.wells)
	}
	s, serr := almanac.BuildScreen(a.name, res.ComboScores, src, res.Report)
	write := res.Report.WriteText
	if a.asJSON {
		write = res.Report.ScreenReport(s).WriteJSON // the document report.json holds
	}
	if err := write(env.Stdout); err != nil {
		return err
	}
	if serr != nil {
		return fmt.Errorf("import %s: %w", wname, serr)
	}
	if err := almanac.SaveScreen(a.out, s, res.Report.ScreenReport(s), res.ComboScores); err != nil {
		return err
	}
	if !a.asJSON {
		fmt.Fprintf(env.Stdout, "wrote %s: %d pairs, %d measurements, %d drugs, %d cell line(s); %s: %d ordered pair-lines\n",
			a.out, len(s.Pairs), s.Measurements(), len(s.Drugs), len(s.CellLines), almanac.ComboScoreFile, len(res.ComboScores))
	}
	el := env.Since(start)
	line := fmt.Sprintf("deup data import: %d wells read and scored in %.3f s (%.0f wells/s); %.3f s in all with the screen and files",
		res.Report.WellsRead, read.Seconds(), float64(res.Report.WellsRead)/read.Seconds(), el.Seconds())
	if cpu, rss, ok := rusage.Self(); ok {
		line += fmt.Sprintf(", cpu %.3f s, peak RSS %.1f MiB", cpu.Seconds(), float64(rss)/(1<<20))
	}
	fmt.Fprintln(env.Stderr, line)
	return nil
}
