package cli

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"time"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/doseresp"
	"github.com/deup-screening/deup/internal/kernels"
	"github.com/deup-screening/deup/internal/rusage"
)

//go:embed help/dataSynergy.txt
var dataSynergyDesc string

func runDataSynergy(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup data synergy", "deup data synergy --responses FILE [--response inhibition|viability] --out DIR", dataSynergyDesc)
	pf := newPlateFlags(fs)
	out := fs.String("out", "", "directory to write blocks.csv, wells.csv, Parquet twins and report.json (required)")
	plots := fs.Int("plots", 0, "draw the first N blocks into DIR/plots (response and synergy heat maps, single-drug fits; PNG and SVG); -1: all")
	if _, err := cmdline.ParseWant(fs, args, 0, 0); err != nil {
		return err
	}
	if *pf.in == "" || *out == "" {
		return cmdline.UsageError(fs, "deup data synergy: --responses FILE and --out DIR are required")
	}
	ropt, sopt, err := pf.options()
	if err != nil {
		return err
	}
	cpu0, _, _ := rusage.Self()
	blocks, rep, err := doseresp.ReadFile(*pf.in, ropt)
	if err != nil {
		return plateColumnHint(err)
	}
	// Stopped (SIGINT, SIGTERM) between stages: write nothing.
	if err := ctx.Err(); err != nil {
		return err
	}
	start := env.Time()
	scored := doseresp.ScoreAll(blocks, sopt, rep)
	el := env.Since(start)
	cpu1, _, cpuOK := rusage.Self()
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := doseresp.WriteDir(*out, scored, rep); err != nil {
		return err
	}
	if err := rep.WriteText(env.Stdout); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "scored %d blocks in %s on %d cores (%.0f blocks/s)", rep.Blocks, el.Round(time.Millisecond), kernels.Workers(), float64(len(scored))/el.Seconds())
	if cpu := cpu1 - cpu0; cpuOK && cpu > 0 {
		// CPU time (reading and scoring) does not depend on what else runs.
		fmt.Fprintf(env.Stdout, ", CPU %s (%.0f blocks per CPU-second)", cpu.Round(time.Millisecond), float64(len(scored))/cpu.Seconds())
	}
	if _, rss, ok := rusage.Self(); ok {
		fmt.Fprintf(env.Stdout, ", peak RSS %.0f MiB", float64(rss)/(1<<20))
	}
	fmt.Fprintf(env.Stdout, "\nwrote %s: %s, %s, %s, %s, %s\n", *out, doseresp.BlocksCSV, doseresp.WellsCSV, doseresp.BlocksParquet, doseresp.WellsParquet, doseresp.ReportFile)
	if *plots != 0 {
		dir := filepath.Join(*out, "plots")
		paths, err := doseresp.WritePlots(dir, scored, *plots)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "drew %d block(s) into %s (PNG and SVG)\n", len(paths)/2, dir)
	}
	return nil
}

// plateFlags are the flags of a plate table that data synergy and data
// import --format doseresponse share: the file (--responses), its unit
// (--response), its column names, --baseline and --lenient.
type plateFlags struct {
	in, unit, baseline *string
	lenient            *bool
	cols               doseresp.Columns
}

func newPlateFlags(fs *flag.FlagSet) *plateFlags {
	p := &plateFlags{
		in:   fs.String("responses", "", "long table of dose–response measurements (required)"),
		unit: fs.String("response", "", "response unit: inhibition or viability (default: from the column name)"),
	}
	c := &p.cols
	fs.StringVar(&c.Block, "block", "", "block column (default: recognised; without one a block is a drug pair on a cell line)")
	fs.StringVar(&c.DrugRow, "drug-row", "", "row drug column")
	fs.StringVar(&c.DrugCol, "drug-col", "", "column drug column")
	fs.StringVar(&c.CellLine, "cell-line", "", "cell line column")
	fs.StringVar(&c.ConcRow, "conc-row", "", "row drug dose column")
	fs.StringVar(&c.ConcCol, "conc-col", "", "column drug dose column")
	fs.StringVar(&c.Response, "response-col", "", "response column")
	fs.StringVar(&c.Unit, "conc-unit", "", "concentration unit column")
	p.baseline = fs.String("baseline", "non", "SynergyFinder baseline correction: non, part or all")
	p.lenient = fs.Bool("lenient", false, "skip (and report) blocks with malformed rows instead of stopping at the first")
	return p
}

// plateColumnFlags are the flags that name a plate table's columns, by
// doseresp's column role.
var plateColumnFlags = map[string]string{"block": "--block", "drug_row": "--drug-row", "drug_col": "--drug-col", "cell_line": "--cell-line",
	"conc_row": "--conc-row", "conc_col": "--conc-col", "response": "--response-col", "unit": "--conc-unit"}

// plateColumnHint adds to a plate table's missing-column error the flag
// that names the column.
func plateColumnHint(err error) error {
	var mc *doseresp.MissingColumnError
	if errors.As(err, &mc) {
		if f, ok := plateColumnFlags[mc.Role]; ok {
			return fmt.Errorf("%w: name it with %s COLUMN", err, f)
		}
	}
	return err
}

// platesWhat is what --responses names, for cmdline.NeedFile's errors.
const platesWhat = "a plate table file (one row per well and replicate, or SynergyFinder's matrix layout; CSV, TSV, .gz, Parquet or Arrow)"

func (p *plateFlags) options() (doseresp.ReadOptions, doseresp.Options, error) {
	if err := cmdline.NeedFile("--responses", *p.in, platesWhat); err != nil {
		return doseresp.ReadOptions{}, doseresp.Options{}, err
	}
	ropt, sopt, err := doseresp.ParseOptions(*p.unit, *p.baseline, p.cols, *p.lenient)
	if err != nil {
		return ropt, sopt, fmt.Errorf("%w: %v", cmdline.ErrUsage, err)
	}
	return ropt, sopt, nil
}
