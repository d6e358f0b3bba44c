package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/deup-screening/deup/chem"
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

const fingerprintDesc = `
Computes the folded Morgan fingerprint of every molecule of FILE (or standard
input), identical to RDKit 2022.09.3's GetMorganFingerprintAsBitVect(mol,
radius, nBits) with its defaults (bond types, no chirality, no feature
invariants), of the whole SMILES.

The input is either
  - a drug catalogue, as 'deup data import --drugs' reads it: CSV, TSV
    (optionally gzipped), Parquet or Arrow, with a header naming a SMILES
    column and a name and/or PubChem CID column, recognised by the same
    spellings (smiles, isomeric_smiles, ...; name, drug_name, ...;
    pubchem_cid, cid, ...) or named with --smiles-col and --drug-id-col. Each
    drug's id is its PubChem CID when it has one, else its name, as in
    'data import'. A table is read as a catalogue when it is Parquet, Arrow
    or gzipped, when its first line names a SMILES column, or when a column
    flag is given;
  - or lines "id<TAB>smiles" (further tab-separated columns are ignored;
    --header skips a first line and always reads lines);
  - or an SD file (V2000 molfiles, as NCI's ComboCompoundSet.sdf), chosen by
    the extension .sdf, .sd or .mol, or by --format sdf (standard input).
    Each record's id is its title line, or the data item --id-field names
    (--id-field NSC); structures are read as RDKit's MolFromMolBlock reads
    them, and those it refuses (NCI's cisplatin and oxaliplatin drawings)
    are refused the same way.

Output: without --out, "id<TAB>bits" lines on standard output, where bits are
the space-separated, increasing indices of the on-bits. With --out FILE, a
table chosen by FILE's extension: .csv (columns id, name, bits; bits
space-separated), .parquet or .arrow (id and name strings, bits a list of
int32). name is the catalogue's drug name, empty (null in Parquet and Arrow)
for id<TAB>smiles input. The file is written under a temporary name beside
FILE and renamed into place when complete (a killed run leaves no file or
the previous one); files are created 0644.

With --largest-fragment the fingerprint is that of the SMILES's largest
organic fragment instead (salts and counter-ions left out), the one RDKit's
standardizer keeps (rdMolStandardize.LargestFragmentChooser,
preferOrganic=True) and the one deup's model features use by default
(docs/vocabulary.md).

A molecule that cannot be parsed (or that RDKit would refuse), or a catalogue
drug without a SMILES, is written with an empty bit list; its error goes to
standard error with the id, the file and line (row for Parquet/Arrow) and
the position in the SMILES, and the exit status is 1. A line without a tab is
reported the same way and not written. A catalogue that cannot be read (no
SMILES column, a malformed row) is an error naming the file, line and column,
and nothing is written. The last line on standard error gives the count and
the throughput.

Next: deup data import --drugs FILE brings the catalogue into a screen;
deup predict --drugs FILE scores its pairs with a trained model.`

// fingerprintBatch is how many lines are fingerprinted together; output is
// written in input order after each batch.
const fingerprintBatch = 4096

// fpEntry is one input molecule.
type fpEntry struct {
	id, name, smiles string
	loc              string // "file:line" or "file:row n"
	bad              string // a malformed entry's message, or "" (then it is fingerprinted)
	skip             bool   // not written (a line without a tab)
}

func runFingerprint(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup fingerprint", "deup fingerprint [--radius R] [--bits N] [--largest-fragment] [--drug-id-col C] [--smiles-col C] [--header] [--format sdf|smiles] [--id-field F] [--workers W] [--out FILE.csv|FILE.parquet|FILE.arrow] [FILE]", fingerprintDesc)
	radius := fs.Int("radius", 3, "Morgan radius")
	bits := fs.Int("bits", 1024, "fingerprint size in bits")
	header := fs.Bool("header", false, "read id<TAB>smiles lines and skip the first line (a header)")
	workers := workersFlag(fs, 0, "goroutines")
	quiet := fs.Bool("quiet", false, "do not print the throughput line")
	largest := fs.Bool("largest-fragment", false, "fingerprint the largest organic fragment (as the model features do), not the whole SMILES")
	idCol := fs.String("drug-id-col", "", "catalogue column of the drug id (a PubChem CID or a name), when not a recognised spelling")
	smilesCol := fs.String("smiles-col", "", "catalogue column of the SMILES, when not a recognised spelling")
	format := fs.String("format", "", "input format: sdf or smiles (default: sdf for a .sdf, .sd or .mol file, else smiles lines or a catalogue)")
	idField := fs.String("id-field", "", "SD file: the data item holding each record's id (e.g. NSC; default: the title line)")
	outPath := fs.String("out", "", "write a table to this file, CSV or Parquet by its extension (.csv, .parquet), instead of id<TAB>bits lines on stdout")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, pos, 0, 1); err != nil {
		return err
	}
	if *radius < 0 {
		return fmt.Errorf("%w: --radius must be >= 0, got %d", ErrUsage, *radius)
	}
	if *bits <= 0 {
		return fmt.Errorf("%w: --bits must be positive, got %d", ErrUsage, *bits)
	}
	if *header && (*idCol != "" || *smilesCol != "") {
		return fmt.Errorf("%w: --header reads id<TAB>smiles lines; --drug-id-col and --smiles-col name a catalogue's columns: give one or the other", ErrUsage)
	}
	if len(pos) == 1 {
		if err := needFile("", pos[0], catalogueWhat+", or id<TAB>smiles lines"); err != nil {
			return err
		}
	}
	if err := needOutDir("--out", *outPath); err != nil {
		return err
	}
	if *outPath != "" {
		if _, err := tabular.FormatOf(*outPath); err != nil {
			return fmt.Errorf("%w: --out %s: want a .csv, .parquet or .arrow file", ErrUsage, *outPath)
		}
	}
	nw := *workers
	if nw <= 0 {
		nw = runtime.GOMAXPROCS(0)
	}
	var in io.Reader = env.Stdin
	name := "stdin"
	if len(pos) == 1 && pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return fmt.Errorf("fingerprint: %w", err)
		}
		defer f.Close()
		in, name = f, pos[0]
	}
	br := bufio.NewReaderSize(in, 1<<16)
	start := env.now()
	sdf, err := fpIsSDF(*format, name)
	if err != nil {
		return err
	}
	if !sdf && *idField != "" {
		return fmt.Errorf("%w: --id-field names a data item of an SD file; give an .sdf file or --format sdf", ErrUsage)
	}

	// A catalogue is read whole (and checked) before any output exists.
	var cat []fpEntry
	isCat := !sdf && !*header && (*idCol != "" || *smilesCol != "" || fpLooksLikeCatalogue(br, *smilesCol))
	if isCat {
		c, err := drugcomb.ReadCatalogueWith(name, br, drugcomb.CatalogueColumns{ID: *idCol, SMILES: *smilesCol})
		if err != nil {
			return fmt.Errorf("fingerprint: %w (name the columns with --drug-id-col and --smiles-col)", fpStripPkg(err))
		}
		if c.SMILESColumn == "" {
			return fmt.Errorf("fingerprint: %s: the catalogue has no SMILES column (%s); the header has: %s; name it with --smiles-col",
				name, strings.Join(drugcomb.CatalogueSMILESColumns(), ", "), strings.Join(c.Header, ", "))
		}
		for _, n := range c.Notes { // rows not fingerprinted: said, not dropped silently
			where := make([]string, len(n.Examples))
			for i, x := range n.Examples {
				where[i] = x.Where
			}
			fmt.Fprintf(env.Stderr, "deup fingerprint: %d %s, not fingerprinted: %s\n", n.Count, n.Reason, strings.Join(where, ", "))
		}
		for i, d := range c.Drugs {
			e := fpEntry{id: d.ID, name: d.Name, smiles: d.SMILES, loc: c.Locs[i]}
			if d.SMILES == "" {
				e.bad, e.smiles = fmt.Sprintf("id %s: no SMILES in column %q", d.ID, c.SMILESColumn), "C"
			}
			cat = append(cat, e)
		}
	}

	sink, err := newFPSink(env.Stdout, *outPath)
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			sink.abort()
		}
	}()

	var (
		batch       []fpEntry
		nMol, nFail int
	)
	flush := func() error {
		smiles := make([]string, len(batch))
		for i := range batch {
			smiles[i] = batch[i].smiles
		}
		var res [][]int
		var errs []error
		if *largest {
			res, _, errs = chem.LargestFragmentBitsAll(smiles, *radius, *bits, nw, chem.LargestFragmentChooser{PreferOrganic: true})
		} else {
			res, errs = chem.MorganBitsAll(smiles, *radius, *bits, nw)
		}
		for i, e := range batch {
			if e.skip {
				nFail++
				fmt.Fprintf(env.Stderr, "deup fingerprint: %s: %s\n", e.loc, e.bad)
				continue
			}
			if sink.kind == "lines" && strings.ContainsAny(e.id, "\t\r\n") {
				nFail++
				fmt.Fprintf(env.Stderr, "deup fingerprint: %s: id %q holds a tab or line break, which id<TAB>bits lines cannot carry: not written; --out FILE.csv or FILE.parquet keeps it\n", e.loc, e.id)
				continue
			}
			nMol++
			b := res[i]
			switch {
			case e.bad != "":
				nFail++
				b = nil
				fmt.Fprintf(env.Stderr, "deup fingerprint: %s: %s\n", e.loc, e.bad)
			case errs[i] != nil:
				nFail++
				fmt.Fprintf(env.Stderr, "deup fingerprint: %s: id %s: %v\n", e.loc, e.id, errs[i])
			}
			if err := sink.write(e.id, e.name, b); err != nil {
				return fmt.Errorf("fingerprint: %w", err)
			}
		}
		batch = batch[:0]
		return ctx.Err()
	}
	if sdf {
		nMol, nFail, err = fingerprintSDF(ctx, env, br, name, *idField, *radius, *bits, *largest, sink)
		if err != nil {
			return err
		}
	} else if isCat {
		for i := 0; i < len(cat); i += fingerprintBatch {
			batch = append(batch[:0], cat[i:min(i+fingerprintBatch, len(cat))]...)
			if err := flush(); err != nil {
				return err
			}
		}
	} else {
		sc := bufio.NewScanner(br)
		sc.Buffer(make([]byte, 64*1024), 16<<20)
		line := 0
		for sc.Scan() {
			line++
			if line == 1 && *header {
				continue
			}
			text := strings.TrimSuffix(sc.Text(), "\r")
			id, rest, ok := strings.Cut(text, "\t")
			smi, _, _ := strings.Cut(rest, "\t")
			e := fpEntry{id: id, smiles: smi, loc: fmt.Sprintf("%s:%d", name, line)}
			if !ok {
				e.id, e.smiles, e.skip = "", "C", true // placeholder, not fingerprinted
				e.bad = fmt.Sprintf("want id<TAB>smiles, got %q", fpTruncate(text, 60))
			}
			batch = append(batch, e)
			if len(batch) == fingerprintBatch {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("fingerprint: %s:%d: %w", name, line+1, err)
		}
		if err := flush(); err != nil {
			return err
		}
	}
	if err := sink.close(); err != nil {
		return fmt.Errorf("fingerprint: %w", err)
	}
	done = true
	el := env.since(start)
	if !*quiet {
		rate := float64(nMol) / el.Seconds()
		fmt.Fprintf(env.Stderr, "deup fingerprint: %d molecules (%d failed) in %.3f s: %.0f molecules/s on %d workers (%.0f/s per worker)\n",
			nMol, nFail, el.Seconds(), rate, nw, rate/float64(nw))
	}
	if nFail > 0 {
		return exitError{1}
	}
	return nil
}

func fpTruncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// fpLooksLikeCatalogue reports whether the input br starts a catalogue
// table: Parquet, Arrow or gzip bytes, or a first line that names a SMILES
// column (a recognised spelling or smilesCol), split on tabs when it has
// one, else on commas.
func fpLooksLikeCatalogue(br *bufio.Reader, smilesCol string) bool {
	magic, _ := br.Peek(8)
	for _, m := range [][]byte{{0x1f, 0x8b}, []byte("PAR1"), []byte("ARROW1"), {0xff, 0xff, 0xff, 0xff}} {
		if bytes.HasPrefix(magic, m) {
			return true
		}
	}
	head, _ := br.Peek(br.Size())
	first, _, _ := bytes.Cut(head, []byte("\n"))
	line := strings.TrimPrefix(strings.TrimSuffix(string(first), "\r"), "\ufeff")
	sep := ","
	if strings.Contains(line, "\t") {
		sep = "\t"
	}
	want := drugcomb.CatalogueSMILESColumns()
	if smilesCol != "" {
		want = append(want, smilesCol)
	}
	for _, f := range strings.Split(line, sep) {
		f = strings.TrimSpace(strings.Trim(strings.TrimSpace(f), `"`))
		for _, w := range want {
			if strings.EqualFold(f, w) {
				return true
			}
		}
	}
	return false
}

// fpStripPkg drops the catalogue reader's package prefix from its message:
// the user knows the command, not the package.
func fpStripPkg(err error) error {
	msg := strings.TrimPrefix(err.Error(), "drugcomb: catalogue: ")
	return fmt.Errorf("catalogue %s", msg)
}

// fpSink receives fingerprints in input order: id<TAB>bits lines on a
// writer, or a table file (CSV, Parquet or Arrow by its extension) written
// in records of fpRecordRows rows under a temporary name until close.
type fpSink struct {
	kind string // "lines" or "table"
	bw   *bufio.Writer
	buf  []byte
	file *tabular.File
	b    *array.RecordBuilder
}

const fpRecordRows = 4096

// newFPSink creates the output: the table file path, or lines on w when
// path is "".
func newFPSink(w io.Writer, path string) (*fpSink, error) {
	if path == "" {
		return &fpSink{kind: "lines", bw: bufio.NewWriterSize(w, 1<<16)}, nil
	}
	f, err := tabular.Create(path, FingerprintSchema(), tabular.Options{})
	if err != nil {
		return nil, fmt.Errorf("fingerprint: --out: %w", err)
	}
	return &fpSink{kind: "table", file: f, b: array.NewRecordBuilder(memory.DefaultAllocator, FingerprintSchema())}, nil
}

func (s *fpSink) write(id, name string, bits []int) error {
	if s.kind == "table" {
		s.b.Field(0).(*array.StringBuilder).Append(id)
		if name != "" {
			s.b.Field(1).(*array.StringBuilder).Append(name)
		} else {
			s.b.Field(1).AppendNull()
		}
		lb := s.b.Field(2).(*array.ListBuilder)
		vb := lb.ValueBuilder().(*array.Int32Builder)
		lb.Append(true)
		for _, x := range bits {
			vb.Append(int32(x))
		}
		if s.b.Field(0).Len() >= fpRecordRows {
			return s.flush()
		}
		return nil
	}
	s.buf = append(append(s.buf[:0], id...), '\t')
	s.buf = append(fpAppendBits(s.buf, bits), '\n')
	_, err := s.bw.Write(s.buf)
	return err
}

// flush writes the rows built so far to the table.
func (s *fpSink) flush() error {
	if s.b.Field(0).Len() == 0 {
		return nil
	}
	rec := s.b.NewRecord()
	defer rec.Release()
	return s.file.Write(rec)
}

func fpAppendBits(b []byte, bits []int) []byte {
	for k, x := range bits {
		if k > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return b
}

// FingerprintSchema is the Arrow schema of `deup fingerprint --out
// FILE.parquet`.
func FingerprintSchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.BinaryTypes.String},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "bits", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)},
	}, nil)
}

func (s *fpSink) close() error {
	if s.kind == "lines" {
		return s.bw.Flush()
	}
	if err := s.flush(); err != nil {
		return err
	}
	s.b.Release()
	s.b = nil
	return s.file.Commit()
}

// abort removes a half-written --out file.
func (s *fpSink) abort() {
	if s.kind == "table" {
		if s.b != nil {
			s.b.Release()
		}
		s.file.Abort()
	}
}
