package cli

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/plate"
	"github.com/deup-screening/deup/plate/platesim"
	"github.com/deup-screening/deup/suggest"
)

func plateCommand() *cmdline.Command {
	return &cmdline.Command{
		Name:  "plate",
		Short: "plate maps and dispenser pick lists for a suggested batch; plate-reader files back to responses",
		Subs: []*cmdline.Command{
			{Name: "design", Short: "lay a suggested batch out as dose–response blocks on plates, with the pick list", Run: runPlateDesign},
			{Name: "read", Short: "join plate-reader files to a plate map: per-plate normalization, Z′, the responses table", Run: runPlateRead},
			{Name: "simulate", Short: "read a plate map in a simulated lab (known synergy) and write reader files", Run: runPlateSimulate},
		},
	}
}

//go:embed help/plateDesign.txt
var plateDesignDesc string

// gridFlag reads --grid RxC.
func parseGrid(s string) (int, int, error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	r, err1 := strconv.Atoi(a)
	c, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || r < 2 || c < 2 {
		return 0, 0, fmt.Errorf("--grid %q: want ROWSxCOLS with at least 2 of each, as 6x6", s)
	}
	return r, c, nil
}

// plateDesignArgs are the parsed flags of deup plate design.
type plateDesignArgs struct {
	batch, out, concs, source string
	maxConc                   float64
	plots                     int
	design                    plate.Design
}

func parsePlateDesign(env Env, args []string) (*plateDesignArgs, error) {
	fs := newFlagSet(env, "deup plate design", "deup plate design --batch BATCH [--grid 6x6] [--format 384] [--replicates 2] [--controls N] [--edge empty|use] [--seed S] --out DIR", plateDesignDesc)
	a := &plateDesignArgs{}
	fs.StringVar(&a.batch, "batch", "", "suggested batch (deup suggest's CSV, Parquet or JSON) (required)")
	fs.StringVar(&a.out, "out", "", "directory to write map.csv, map.parquet, picklist.csv, source.csv and report.json (required)")
	grid := fs.String("grid", "6x6", "block size: doses of drug A (rows) x doses of drug B (columns), each including 0")
	format := fs.String("format", "384", "plate format: 96, 384 or 1536 wells")
	reps := fs.Int("replicates", 2, "copies of each block, on different plates where there are enough")
	controls := fs.Int("controls", 0, "wells of each control (negative, positive) per plate (default: every well of the two control columns)")
	edge := fs.String("edge", "empty", "outer ring of wells: empty (left empty) or use")
	seed := cmdline.SeedFlag(fs, "seed of the block placement")
	prefix := fs.String("prefix", "P", "plate names: PREFIX and a two-digit number")
	maxPlates := fs.Int("max-plates", 0, "most plates to lay out; the last batch lines beyond them are left out and counted (0: no limit)")
	fs.Float64Var(&a.maxConc, "max-conc", plate.DefaultMaxConc, "top dose of every drug, µM (a drug in --concs takes its own)")
	fs.StringVar(&a.concs, "concs", "", "CSV of drug,max_conc_um: each drug's top dose (drug by ID or name)")
	dilution := fs.Float64("dilution", 3, "ratio of consecutive doses")
	fs.StringVar(&a.source, "source", "", "source layout CSV (source_plate,source_well,compound,conc_um,volume_ul) (default: generated)")
	droplet := fs.Float64("droplet", 2.5, "dispenser droplet, nL: every transfer is a whole number of droplets")
	total := fs.Float64("transfer-volume", 0, "nL every used well receives, stocks plus DMSO backfill (default: 0.25% of the assay volume)")
	assay := fs.Float64("assay-volume", 0, "µL in each well before dispensing (default: 100, 40, 5 for 96, 384, 1536 wells)")
	stock := fs.Float64("stock", 10000, "top stock concentration of a generated source, µM (with three ten-fold dilutions)")
	fs.IntVar(&a.plots, "plots", 0, "draw the first N plates into DIR/plots (PNG and SVG); -1: all")
	if _, err := cmdline.ParseWant(fs, args, 0, 0); err != nil {
		return nil, err
	}
	if a.batch == "" || a.out == "" {
		return nil, cmdline.UsageError(fs, "deup plate design: --batch FILE and --out DIR are required")
	}
	r, c, err := parseGrid(*grid)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", cmdline.ErrUsage, err)
	}
	f, err := plate.ParseFormat(*format)
	if err != nil {
		return nil, cmdline.FlagError("--format", err)
	}
	if err := cmdline.Check(
		cmdline.Want(*reps >= 1, "--replicates %d: want at least 1", *reps),
		cmdline.Want(*controls >= 0, "--controls %d: want 0 (every control-column well) or more", *controls),
		cmdline.Want(*edge == "empty" || *edge == "use", "--edge %q: want empty or use", *edge),
		cmdline.Want(*maxPlates >= 0, "--max-plates %d: want 0 (no limit) or more", *maxPlates),
		cmdline.Want(a.maxConc > 0, "--max-conc %v: want a positive dose in µM", a.maxConc),
		cmdline.Want(*dilution > 1, "--dilution %v: want a ratio above 1", *dilution),
		cmdline.Want(*droplet > 0, "--droplet %v: want a positive volume in nL", *droplet),
		cmdline.Want(*total >= 0 && *assay >= 0, "--transfer-volume and --assay-volume: want positive volumes"),
		cmdline.Want(*stock > 0, "--stock %v: want a positive concentration in µM", *stock),
	); err != nil {
		return nil, err
	}
	for _, x := range []struct{ flag, path, what string }{
		{"--batch", a.batch, "a batch written by deup suggest"},
		{"--concs", a.concs, "a CSV of drug,max_conc_um"},
		{"--source", a.source, "a source layout CSV"},
	} {
		if err := cmdline.NeedFile(x.flag, x.path, x.what); err != nil {
			return nil, err
		}
	}
	a.design = plate.Design{Format: f, GridRows: r, GridCols: c, Replicates: *reps, Controls: *controls, UseEdge: *edge == "use",
		Seed: *seed, Prefix: *prefix, MaxPlates: *maxPlates, Dilution: *dilution,
		Dispense: plate.Dispense{Droplet: *droplet, Total: *total, AssayVolume: *assay, Stock: *stock}}
	return a, nil
}

func runPlateDesign(ctx context.Context, env Env, args []string) error {
	a, err := parsePlateDesign(env, args)
	if err != nil {
		return err
	}
	sugs, err := suggest.ReadFile(a.batch)
	if err != nil {
		return err
	}
	reqs := make([]plate.Request, len(sugs))
	for i, s := range sugs {
		reqs[i] = plate.Request{DrugA: drugKey(s.DrugA), DrugB: drugKey(s.DrugB), CellLine: s.CellLine, Line: i + 2}
	}
	d := a.design
	tops := map[string]float64{}
	if a.concs != "" {
		if tops, err = readConcs(a.concs, sugs); err != nil {
			return err
		}
	}
	d.MaxConc = func(drug string) float64 {
		if v, ok := tops[drug]; ok {
			return v
		}
		return a.maxConc
	}
	if a.source != "" {
		file, err := os.Open(a.source)
		if err != nil {
			return err
		}
		d.Source, err = plate.ReadSource(a.source, file)
		file.Close()
		if err != nil {
			return err
		}
		d.SourceName = a.source
	}
	p, err := d.Layout(reqs)
	if errors.Is(err, plate.ErrDesign) {
		return fmt.Errorf("%w: %v", cmdline.ErrUsage, err)
	}
	if err != nil {
		return err
	}
	if err := plate.WriteDir(a.out, p); err != nil {
		return err
	}
	if err := p.Report.WriteText(env.Stderr); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%d blocks on %d plates (%d wells used); wrote %s: %s, %s, %s, %s, %s\n", p.Report.Blocks, p.Report.Plates, p.Report.WellsUsed,
		a.out, plate.MapCSV, plate.MapParquet, plate.PickList, plate.SourceCSV, plate.ReportJSON)
	if a.plots != 0 {
		dir := filepath.Join(a.out, plate.PlotsSubdir)
		paths, err := plate.WritePlots(dir, p.Map, a.plots)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "drew %d plate(s) into %s (PNG and SVG)\n", len(paths)/2, dir)
	}
	return nil
}

// drugKey is how a plate map names a drug: its ID in the screen, else its
// name.
func drugKey(d drugcomb.Drug) string {
	if d.ID != "" {
		return d.ID
	}
	return d.Name
}

// readConcs reads drug,max_conc_um, keyed by the map's drug key (a drug
// given by name is found among the batch's drugs).
func readConcs(path string, sugs []suggest.Suggestion) (map[string]float64, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	rows, err := drugcomb.OpenRows(path, file, 0)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	jd, jc := -1, -1
	for j, h := range rows.Header() {
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "drug":
			jd = j
		case "max_conc_um":
			jc = j
		}
	}
	if jd < 0 || jc < 0 {
		return nil, &drugcomb.ParseError{File: path, Line: 1, Err: fmt.Errorf("%w: want the columns drug and max_conc_um", drugcomb.ErrMissingColumn)}
	}
	byName := map[string]string{}
	for _, s := range sugs {
		for _, d := range []drugcomb.Drug{s.DrugA, s.DrugB} {
			byName[d.Name], byName[d.ID] = drugKey(d), drugKey(d)
		}
	}
	out := map[string]float64{}
	for {
		more, err := rows.Next()
		if !more {
			return out, err
		}
		if err != nil {
			return nil, err
		}
		d, _ := rows.Field(jd)
		v, _ := rows.Field(jc)
		x, perr := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if perr != nil || !(x > 0) {
			return nil, rows.Error(jc, fmt.Errorf("max_conc_um %q: want a positive dose in µM", v))
		}
		k, ok := byName[strings.TrimSpace(d)]
		if !ok {
			k = strings.TrimSpace(d) // a drug not in this batch: harmless
		}
		out[k] = x
	}
}

//go:embed help/plateRead.txt
var plateReadDesc string

// listFlag is a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func runPlateRead(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup plate read", "deup plate read --map DIR --reads FILE [FILE...] [--readout inhibition|viability] --out RESPONSES", plateReadDesc)
	mapDir := fs.String("map", "", "design directory of deup plate design (its map.parquet or map.csv) (required)")
	var reads listFlag
	fs.Var(&reads, "reads", "plate-reader file (grid per plate or long plate,well,value); repeat it, or list more files after the flags (required)")
	out := fs.String("out", "", "responses table to write (.csv, .parquet or .arrow) (required)")
	readout := fs.String("readout", "inhibition", "response written: inhibition (100·(neg − x)/(neg − pos)) or viability (100·(x − pos)/(neg − pos))")
	minZ := fs.Float64("min-z", plate.DefaultMinZ, "Z′ below which a plate is flagged and kept out")
	keepLow := fs.Bool("keep-low-z", false, "keep the wells of flagged plates (still counted in the report)")
	lenient := fs.Bool("lenient", false, "skip and count reads, wells and plates with problems instead of stopping at the first")
	report := fs.String("report", "", "also write the report as JSON to FILE")
	pos, err := cmdline.ParseArgs(fs, args)
	if err != nil {
		return err
	}
	reads = append(reads, pos...)
	if *mapDir == "" || len(reads) == 0 || *out == "" {
		return cmdline.UsageError(fs, "deup plate read: --map DIR, --reads FILE and --out FILE are required")
	}
	ro, err := plate.ParseReadout(*readout)
	if err != nil {
		return cmdline.FlagError("--readout", err)
	}
	for _, r := range reads {
		if err := cmdline.NeedFile("--reads", r, "a plate-reader export"); err != nil {
			return err
		}
	}
	for _, o := range [][2]string{{"--out", *out}, {"--report", *report}} {
		if err := cmdline.NeedOutDir(o[0], o[1]); err != nil {
			return err
		}
	}
	m, err := plate.ReadMapDir(*mapDir)
	if err != nil {
		return err
	}
	opt := plate.ReadOptions{Lenient: *lenient}
	var rep plate.ReadReport
	var all []plate.Read
	for _, path := range reads {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		rs, err := plate.ParseReads(path, f, opt, &rep)
		f.Close()
		if err != nil {
			return err
		}
		all = append(all, rs...)
	}
	resp, err := plate.Normalize(m, all, ro, *minZ, *keepLow, opt, &rep)
	if err != nil {
		return err
	}
	if len(resp) == 0 {
		rep.WriteText(env.Stderr)
		return fmt.Errorf("no responses: every plate was kept out (see above; --keep-low-z keeps flagged plates)")
	}
	if err := plate.WriteResponses(*out, resp, ro); err != nil {
		return err
	}
	if *report != "" {
		if err := atomicfile.Write(*report, func(w io.Writer) error {
			e := json.NewEncoder(w)
			e.SetIndent("", "  ")
			return e.Encode(&rep)
		}); err != nil {
			return err
		}
	}
	if err := rep.WriteText(env.Stdout); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s\n", *out)
	return nil
}

//go:embed help/plateSimulate.txt
var plateSimulateDesc string

func runPlateSimulate(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup plate simulate", "deup plate simulate --map DIR [--screen DIR] [--seed S] [--bad-plate N] [--layout grid|long] --out DIR", plateSimulateDesc)
	mapDir := fs.String("map", "", "design directory of deup plate design (required)")
	screenDir := screenFlag(fs)
	out := fs.String("out", "", "directory to write the reader file (reads.txt or reads.csv) and truth.csv (required)")
	seed := cmdline.SeedFlag(fs, "seed of the simulated lab (curves, gains, noise)")
	noise := fs.Float64("noise", 3, "well noise, % of the control window")
	edgeLoss := fs.Float64("edge-loss", 0.15, "fraction of signal the outer ring of wells loses (0: none)")
	bad := fs.Int("bad-plate", 0, "read plate N (1-based) with ten times the noise, below Z′ 0.5 (0: none)")
	scale := fs.Float64("scale", 20, "synergy score for which the interaction is tanh(1)")
	layout := fs.String("layout", "grid", "reader file layout: grid (a grid per plate) or long (plate,well,value)")
	if _, err := cmdline.ParseWant(fs, args, 0, 0); err != nil {
		return err
	}
	if *mapDir == "" || *out == "" {
		return cmdline.UsageError(fs, "deup plate simulate: --map DIR and --out DIR are required")
	}
	if err := cmdline.Check(
		cmdline.Want(*layout == "grid" || *layout == "long", "--layout %q: want grid or long", *layout),
		cmdline.Want(*noise > 0, "--noise %v: want a positive percentage", *noise),
		cmdline.Want(*edgeLoss >= 0 && *edgeLoss < 1, "--edge-loss %v: want a fraction in [0, 1)", *edgeLoss),
		cmdline.Want(*bad >= 0, "--bad-plate %d: want 0 (none) or a plate number", *bad),
		cmdline.Want(*scale > 0, "--scale %v: want a positive score", *scale),
	); err != nil {
		return err
	}
	m, err := plate.ReadMapDir(*mapDir)
	if err != nil {
		return err
	}
	sc, _, err := loadScreen(*screenDir)
	if err != nil {
		return err
	}
	lab := platesim.Lab{Seed: *seed, Synergy: screenTruth(sc), Scale: *scale, Noise: *noise, EdgeLoss: *edgeLoss, BadPlate: *bad}
	if *edgeLoss == 0 {
		lab.EdgeLoss = -1
	}
	rd := lab.Read(m)
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	name, write := "reads.txt", rd.WriteGrid
	if *layout == "long" {
		name, write = "reads.csv", rd.WriteLong
	}
	if err := atomicfile.Write(filepath.Join(*out, name), write); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(*out, "truth.csv"), rd.WriteTruth); err != nil {
		return err
	}
	known := 0
	for _, t := range rd.Truth {
		if t.Score != 0 {
			known++
		}
	}
	fmt.Fprintf(env.Stdout, "read %d plates (%d blocks, %d with a known synergy); wrote %s: %s, truth.csv\n", len(m.Plates), len(rd.Truth), known, *out, name)
	return nil
}

// screenTruth is the synthetic screen's true mean score of a pair on a
// line, drugs by ID or name (nil for a screen without a truth).
func screenTruth(sc *drugcomb.Screen) func(a, b, line string) (float64, bool) {
	if sc.Truth == nil {
		return nil
	}
	idx := map[string]int{}
	for i, d := range sc.Drugs {
		idx[d.Name], idx[d.ID] = i, i
	}
	type key struct{ a, b, c int }
	means := map[key]float64{}
	for i, p := range sc.Pairs {
		a, b := p.A, p.B
		if b < a {
			a, b = b, a
		}
		means[key{a, b, p.CellLine}] = sc.Truth.Mean[i]
	}
	line := map[string]int{}
	for i, l := range sc.CellLines {
		line[l] = i
	}
	return func(da, db, cl string) (float64, bool) {
		a, ok1 := idx[da]
		b, ok2 := idx[db]
		c, ok3 := line[cl]
		if !ok1 || !ok2 || !ok3 {
			return 0, false
		}
		if b < a {
			a, b = b, a
		}
		v, ok := means[key{a, b, c}]
		return v, ok
	}
}
