// Package fptable fingerprints the molecules of a file (deup fingerprint):
// a drug catalogue, "id<TAB>smiles" lines or an SD file, in input order,
// each with its Morgan bits or the problems that kept it from them, and
// writes them as "id<TAB>bits" lines or an id, name, bits table.
package fptable

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/deup-screening/deup/chem"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/tabular"
)

// Options are the fingerprint's settings.
type Options struct {
	Radius, Bits int
	Largest      bool // the largest organic fragment (chem.LargestFragmentChooser, PreferOrganic), not the whole molecule
	Workers      int  // goroutines of a batch (lines and catalogues)
	// LineIDs refuses ids that an id<TAB>bits line cannot carry (a tab or
	// a line break): such a molecule is reported and not written.
	LineIDs bool
	// LineIDsHint ends the report of such a molecule ("; " and the hint)
	// when not empty: the caller's word for how to keep it.
	LineIDsHint string
}

// Result is one input molecule: what to write (when Write) and the
// problems met, each a message starting with the molecule's place
// ("file:line: ..."), each a failure.
type Result struct {
	ID, Name string
	Bits     []int // nil for a molecule that could not be fingerprinted
	Write    bool
	Problems []string
}

// Entry is one molecule of a catalogue or of id<TAB>smiles lines.
type Entry struct {
	ID, Name, SMILES string
	Loc              string // "file:line" or "file:row n"
	Bad              string // a malformed entry's message, or "" (then it is fingerprinted)
	Skip             bool   // not written (a line without a tab)
}

// Batch is how many entries are fingerprinted together.
const Batch = 4096

// CatalogueEntries are the drugs of catalogue c as entries; a drug without
// a SMILES is a bad entry (written with no bits).
func CatalogueEntries(c *drugcomb.Catalogue) []Entry {
	var out []Entry
	for i, d := range c.Drugs {
		e := Entry{ID: d.ID, Name: d.Name, SMILES: d.SMILES, Loc: c.Locs[i]}
		if d.SMILES == "" {
			e.Bad, e.SMILES = fmt.Sprintf("id %s: no SMILES in column %q", d.ID, c.SMILESColumn), "C"
		}
		out = append(out, e)
	}
	return out
}

// Entries fingerprints entries in batches of Batch with opt.Workers
// goroutines and hands each result to put, in order; it stops at put's
// first error, or after a batch when ctx has ended.
func Entries(ctx context.Context, entries []Entry, opt Options, put func(Result) error) error {
	for i := 0; i < len(entries); i += Batch {
		if err := batch(ctx, entries[i:min(i+Batch, len(entries))], opt, put); err != nil {
			return err
		}
	}
	return nil
}

func batch(ctx context.Context, batch []Entry, opt Options, put func(Result) error) error {
	smiles := make([]string, len(batch))
	for i := range batch {
		smiles[i] = batch[i].SMILES
	}
	var res [][]int
	var errs []error
	if opt.Largest {
		res, _, errs = chem.LargestFragmentBitsAll(smiles, opt.Radius, opt.Bits, opt.Workers, chem.LargestFragmentChooser{PreferOrganic: true})
	} else {
		res, errs = chem.MorganBitsAll(smiles, opt.Radius, opt.Bits, opt.Workers)
	}
	for i, e := range batch {
		r := Result{ID: e.ID, Name: e.Name, Bits: res[i], Write: true}
		switch {
		case e.Skip:
			r = Result{Problems: []string{fmt.Sprintf("%s: %s", e.Loc, e.Bad)}}
		case opt.LineIDs && strings.ContainsAny(e.ID, "\t\r\n"):
			msg := fmt.Sprintf("%s: id %q holds a tab or line break, which id<TAB>bits lines cannot carry: not written", e.Loc, e.ID)
			if opt.LineIDsHint != "" {
				msg += "; " + opt.LineIDsHint
			}
			r = Result{Problems: []string{msg}}
		case e.Bad != "":
			r.Bits, r.Problems = nil, []string{fmt.Sprintf("%s: %s", e.Loc, e.Bad)}
		case errs[i] != nil:
			r.Problems = []string{fmt.Sprintf("%s: id %s: %v", e.Loc, e.ID, errs[i])}
		}
		if err := put(r); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// Lines fingerprints "id<TAB>smiles" lines of r (named name in messages;
// further tab-separated columns ignored; the first line skipped when
// header), in batches as Entries does; a line without a tab is a problem,
// not written.
func Lines(ctx context.Context, r io.Reader, name string, header bool, opt Options, put func(Result) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	var entries []Entry
	line := 0
	for sc.Scan() {
		line++
		if line == 1 && header {
			continue
		}
		text := strings.TrimSuffix(sc.Text(), "\r")
		id, rest, ok := strings.Cut(text, "\t")
		smi, _, _ := strings.Cut(rest, "\t")
		e := Entry{ID: id, SMILES: smi, Loc: fmt.Sprintf("%s:%d", name, line)}
		if !ok {
			e.ID, e.SMILES, e.Skip = "", "C", true // placeholder, not fingerprinted
			e.Bad = fmt.Sprintf("want id<TAB>smiles, got %q", truncate(text, 60))
		}
		if entries = append(entries, e); len(entries) == Batch {
			if err := batch(ctx, entries, opt, put); err != nil {
				return err
			}
			entries = entries[:0]
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return batch(ctx, entries, opt, put)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// SDF fingerprints every record of the SD file r (named name), one at a
// time, the id taken from the data item idField (the title line when
// idField is ""), the record's title as its name. A structure RDKit
// refuses is written with no bits and reported; a record without an id is
// reported and not written. It stops at put's first error, or when ctx has
// ended.
func SDF(ctx context.Context, r io.Reader, name, idField string, opt Options, put func(Result) error) error {
	rd := chem.NewSDReader(r, name)
	chooser := chem.LargestFragmentChooser{PreferOrganic: true}
	for {
		rec, err := rd.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		id := rec.Title
		if idField != "" {
			v, ok := rec.Field(idField)
			if !ok || strings.TrimSpace(v) == "" {
				if err := put(Result{Problems: []string{fmt.Sprintf("%s:%d: record %q has no data item <%s>: not written", name, rec.Line, rec.Title, idField)}}); err != nil {
					return err
				}
				continue
			}
			id = strings.TrimSpace(v)
		}
		res := Result{ID: id, Name: rec.Title, Write: true}
		switch {
		case rec.Err != nil:
			res.Problems = append(res.Problems, fmt.Sprintf("%s:%d: id %s (title %q): refused, as RDKit refuses it: %v", name, rec.Line, id, rec.Title, rec.Err))
		case opt.Largest:
			c := chooser.Choose(rec.Mol)
			res.Bits = chem.MorganBitsOf(rec.Mol.Fragment(c.Atoms), opt.Radius, opt.Bits)
		default:
			res.Bits = chem.MorganBitsOf(rec.Mol, opt.Radius, opt.Bits)
		}
		if opt.LineIDs && strings.ContainsAny(id, "\t\r\n") {
			res.Write = false
			res.Problems = append(res.Problems, fmt.Sprintf("%s:%d: id %q holds a tab or line break: not written", name, rec.Line, id))
		}
		if err := put(res); err != nil {
			return err
		}
		if res.Write {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
}

// FormatError is an input format that is neither sdf nor smiles (IsSDF).
type FormatError struct{ Format string }

func (e *FormatError) Error() string { return fmt.Sprintf("format %q: want sdf or smiles", e.Format) }

// CatalogueError is a catalogue input that cannot be read (Err, the
// drugcomb error, which names file, line and column) or that has no SMILES
// column (Err nil; Header holds its columns). It says what is wrong; the
// command layer says which flags name the columns.
type CatalogueError struct {
	Name   string // the input, as named in messages
	Err    error
	Header []string
}

func (e *CatalogueError) Error() string {
	if e.Err != nil {
		return "catalogue " + strings.TrimPrefix(e.Err.Error(), "drugcomb: catalogue: ")
	}
	return fmt.Sprintf("%s: the catalogue has no SMILES column (%s); the header has: %s",
		e.Name, strings.Join(drugcomb.CatalogueSMILESColumns(), ", "), strings.Join(e.Header, ", "))
}

func (e *CatalogueError) Unwrap() error { return e.Err }

// IsSDF reports whether the input is an SD file: format "sdf", or, when
// format is "", a file named *.sdf, *.sd or *.mol; format "smiles" is not.
// Another format is a *FormatError.
func IsSDF(format, path string) (bool, error) {
	switch format {
	case "sdf":
		return true, nil
	case "smiles":
		return false, nil
	case "":
		switch strings.ToLower(filepath.Ext(path)) {
		case ".sdf", ".sd", ".mol":
			return true, nil
		}
		return false, nil
	}
	return false, &FormatError{Format: format}
}

// LooksLikeCatalogue reports whether the input br starts a catalogue
// table: Parquet, Arrow or gzip bytes, or a first line that names a SMILES
// column (a recognised spelling or smilesCol), split on tabs when it has
// one, else on commas.
func LooksLikeCatalogue(br *bufio.Reader, smilesCol string) bool {
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

// Input says how to read a file of molecules.
type Input struct {
	SDF              bool   // an SD file (see IsSDF)
	IDField          string // SD file: the data item of the ids ("": the title line)
	Header           bool   // id<TAB>smiles lines whose first line is skipped
	IDCol, SMILESCol string // a catalogue's columns, when not a recognised spelling
}

// Source is an input opened: an SD file, id<TAB>smiles lines, or a
// catalogue, read whole and checked before any output exists.
type Source struct {
	in    Input
	r     *bufio.Reader
	name  string
	isCat bool
	cat   []Entry
}

// Open opens the input r (named name in messages): a catalogue when it is
// neither an SD file nor header lines and either names a column or
// LooksLikeCatalogue. note is told of each kind of catalogue row left out.
// A catalogue that cannot be read, or has no SMILES column, is a
// *CatalogueError.
func Open(r io.Reader, name string, in Input, note func(string)) (*Source, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	s := &Source{in: in, r: br, name: name}
	s.isCat = !in.SDF && !in.Header && (in.IDCol != "" || in.SMILESCol != "" || LooksLikeCatalogue(br, in.SMILESCol))
	if !s.isCat {
		return s, nil
	}
	c, err := drugcomb.ReadCatalogueWith(name, br, drugcomb.CatalogueColumns{ID: in.IDCol, SMILES: in.SMILESCol})
	if err != nil {
		return nil, &CatalogueError{Name: name, Err: err}
	}
	if c.SMILESColumn == "" {
		return nil, &CatalogueError{Name: name, Header: c.Header}
	}
	for _, n := range c.Notes { // rows not fingerprinted: said, not dropped silently
		where := make([]string, len(n.Examples))
		for i, x := range n.Examples {
			where[i] = x.Where
		}
		note(fmt.Sprintf("%d %s, not fingerprinted: %s", n.Count, n.Reason, strings.Join(where, ", ")))
	}
	s.cat = CatalogueEntries(c)
	return s, nil
}

// Fingerprint fingerprints the molecules of s into w in input order (SDF,
// Entries or Lines) and closes w, or aborts it on an error. A molecule
// with a problem (a SMILES that does not parse, a structure RDKit refuses,
// a drug without a SMILES, a line without a tab) is skipped and reported:
// problem is told each problem as it is met, and the molecule is not
// written (no row with empty bits). It returns the number of molecules
// written and of molecules skipped.
func (s *Source) Fingerprint(ctx context.Context, opt Options, w *Writer, problem func(string)) (written, skipped int, err error) {
	put := func(r Result) error {
		for _, p := range r.Problems {
			problem(p)
		}
		if len(r.Problems) > 0 {
			skipped++
			return nil
		}
		if !r.Write {
			return nil
		}
		written++
		return w.Write(r.ID, r.Name, r.Bits)
	}
	switch {
	case s.in.SDF:
		err = SDF(ctx, s.r, s.name, s.in.IDField, opt, put)
	case s.isCat:
		err = Entries(ctx, s.cat, opt, put)
	default:
		err = Lines(ctx, s.r, s.name, s.in.Header, opt, put)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		w.Abort()
	}
	return written, skipped, err
}

// Schema is the Arrow schema of a fingerprint table.
func Schema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.BinaryTypes.String},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "bits", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)},
	}, nil)
}

// Writer receives fingerprints in input order: id<TAB>bits lines on a
// writer, or a table file (CSV, Parquet or Arrow by its extension) written
// in records of RecordRows rows under a temporary name until Close.
type Writer struct {
	Lines bool // id<TAB>bits lines
	bw    *bufio.Writer
	buf   []byte
	file  *tabular.File
	b     *array.RecordBuilder
}

// RecordRows is the number of rows of a table record.
const RecordRows = 4096

// NewWriter creates the output: the table file path, or lines on w when
// path is "".
func NewWriter(w io.Writer, path string) (*Writer, error) {
	if path == "" {
		return &Writer{Lines: true, bw: bufio.NewWriterSize(w, 1<<16)}, nil
	}
	f, err := tabular.Create(path, Schema(), tabular.Options{})
	if err != nil {
		return nil, err
	}
	return &Writer{file: f, b: array.NewRecordBuilder(memory.DefaultAllocator, Schema())}, nil
}

// Write writes one fingerprint: name "" is null in a table.
func (s *Writer) Write(id, name string, bits []int) error {
	if !s.Lines {
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
		if s.b.Field(0).Len() >= RecordRows {
			return s.flush()
		}
		return nil
	}
	s.buf = append(append(s.buf[:0], id...), '\t')
	s.buf = append(AppendBits(s.buf, bits), '\n')
	_, err := s.bw.Write(s.buf)
	return err
}

// flush writes the rows built so far to the table.
func (s *Writer) flush() error {
	if s.b.Field(0).Len() == 0 {
		return nil
	}
	rec := s.b.NewRecord()
	defer rec.Release()
	return s.file.Write(rec)
}

// AppendBits appends bits to b, space-separated.
func AppendBits(b []byte, bits []int) []byte {
	for k, x := range bits {
		if k > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return b
}

// Close completes the output: flushes the lines, or puts the table in
// place.
func (s *Writer) Close() error {
	if s.Lines {
		return s.bw.Flush()
	}
	if err := s.flush(); err != nil {
		return err
	}
	s.b.Release()
	s.b = nil
	return s.file.Commit()
}

// Abort removes a half-written table.
func (s *Writer) Abort() {
	if !s.Lines {
		if s.b != nil {
			s.b.Release()
		}
		s.file.Abort()
	}
}
