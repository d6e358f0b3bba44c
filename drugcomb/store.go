package drugcomb

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/deup-screening/deup/internal/arrowguard"
	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/tabular"
)

// File names inside a screen directory.
const (
	MetaFile         = "meta.json"
	DrugsArrowFile   = "drugs.arrow"
	PairsArrowFile   = "pairs.arrow"
	DrugsParquetFile = "drugs.parquet"
	PairsParquetFile = "pairs.parquet"
	ReportFile       = "report.json"
)

// FormatName and FormatVersion identify a screen directory in meta.json.
// Version 2 renamed the pairs table's row-number columns drug_a, drug_b to
// drug_a_row, drug_b_row (drug_a_id, drug_b_id are the drugs' ids); Open
// reads versions 1 and 2.
const (
	FormatName    = "deup-screen"
	FormatVersion = 2
)

// oldestVersion is the oldest meta.json version Open reads.
const oldestVersion = 1

// Meta is the content of a screen directory's meta.json.
type Meta struct {
	Format       string   `json:"format"`
	Version      int      `json:"version"`
	Name         string   `json:"name"`
	ScoreNames   []string `json:"score_names"`
	CellLines    []string `json:"cell_lines"`
	Drugs        int      `json:"drugs"`
	Pairs        int      `json:"pairs"`
	Measurements int      `json:"measurements"`
	Truth        bool     `json:"truth"`
	Files        []string `json:"files"`
}

// Column names of the on-disk tables. Score columns are named after the
// score (Screen.ScoreNames[j]), with "_var" and "_n" suffixes for the
// replicate variance and, when some replicate lacked the score, count.
const (
	colID         = "id"
	colName       = "name"
	colCID        = "pubchem_cid"
	colSMILES     = "smiles"
	colA          = "drug_a_row"
	colB          = "drug_b_row"
	colAv1        = "drug_a" // version 1's name of drug_a_row
	colBv1        = "drug_b" // version 1's name of drug_b_row
	colAID        = "drug_a_id"
	colBID        = "drug_b_id"
	colCell       = "cell_line"
	colN          = "n"
	colTrueMean   = "true_mean"
	colTrueVar    = "true_noise_var"
	suffixVar     = "_var"
	suffixCount   = "_n"
	reservedNames = "id name pubchem_cid smiles drug_a_row drug_b_row drug_a drug_b drug_a_id drug_b_id cell_line n true_mean true_noise_var"
)

// Validate checks the invariants of a screen: unique non-empty drug IDs,
// pair indices in range with A < B, N >= 1, score slices of the right
// length, unique (A, B, CellLine), unique score names that do not collide
// with the table's fixed columns, Truth aligned with Pairs.
func (s *Screen) Validate() error {
	if len(s.ScoreNames) == 0 {
		return errors.New("drugcomb: screen has no score column")
	}
	names := map[string]bool{}
	for _, w := range strings.Fields(reservedNames) {
		names[w] = true
	}
	for _, n := range s.ScoreNames {
		if n == "" || names[n] || names[n+suffixVar] || names[n+suffixCount] {
			return fmt.Errorf("drugcomb: score column name %q is empty, reserved, or collides with another score's columns", n)
		}
		names[n] = true
		names[n+suffixVar] = true
		names[n+suffixCount] = true
	}
	ids := make(map[string]bool, len(s.Drugs))
	for i, d := range s.Drugs {
		if d.ID == "" {
			return fmt.Errorf("drugcomb: drug %d has an empty id", i)
		}
		if ids[d.ID] {
			return fmt.Errorf("drugcomb: duplicate drug id %q", d.ID)
		}
		ids[d.ID] = true
	}
	cells := map[string]bool{}
	for _, c := range s.CellLines {
		if cells[c] {
			return fmt.Errorf("drugcomb: duplicate cell line %q", c)
		}
		cells[c] = true
	}
	m := len(s.ScoreNames)
	seen := make(map[pairKey]bool, len(s.Pairs))
	for i, p := range s.Pairs {
		switch {
		case p.A < 0 || p.B >= len(s.Drugs) || p.A >= p.B:
			return fmt.Errorf("drugcomb: pair %d: drug indices (%d, %d) not 0 <= A < B < %d", i, p.A, p.B, len(s.Drugs))
		case p.CellLine < 0 || p.CellLine >= len(s.CellLines):
			return fmt.Errorf("drugcomb: pair %d: cell line %d out of range", i, p.CellLine)
		case p.N < 1:
			return fmt.Errorf("drugcomb: pair %d: n = %d", i, p.N)
		case len(p.Mean) != m || len(p.Var) != m:
			return fmt.Errorf("drugcomb: pair %d: %d means and %d variances, want %d", i, len(p.Mean), len(p.Var), m)
		case p.Count != nil && len(p.Count) != m:
			return fmt.Errorf("drugcomb: pair %d: %d counts, want %d", i, len(p.Count), m)
		}
		k := pairKey{p.A, p.B, p.CellLine}
		if seen[k] {
			return fmt.Errorf("drugcomb: pair %d: (%s, %s, %s) appears twice", i, s.Drugs[p.A].ID, s.Drugs[p.B].ID, s.CellLines[p.CellLine])
		}
		seen[k] = true
	}
	if t := s.Truth; t != nil && (len(t.Mean) != len(s.Pairs) || len(t.NoiseVar) != len(s.Pairs)) {
		return fmt.Errorf("drugcomb: truth has %d means and %d variances for %d pairs", len(t.Mean), len(t.NoiseVar), len(s.Pairs))
	}
	return nil
}

// Save writes s to the directory dir in both on-disk forms (Arrow IPC files
// and Parquet files of the same two tables) plus meta.json. When dir does
// not exist, the screen is written to a temporary sibling directory which is
// then renamed into place. When it exists (it must then be a screen
// directory or empty), each file is written to a temporary file and renamed
// over the old one, meta.json last; other files in dir are left alone.
func Save(dir string, s *Screen) error {
	return saveWith(dir, s, nil, memory.DefaultAllocator)
}

// SaveWithReport is Save with the import's data report (report.json)
// written with the screen's files, before meta.json: a new directory
// appears complete with its report, or not at all.
func SaveWithReport(dir string, s *Screen, r *Report) error {
	return saveWith(dir, s, r, memory.DefaultAllocator)
}

func saveWith(dir string, s *Screen, r *Report, mem memory.Allocator) error {
	if err := s.Validate(); err != nil {
		return err
	}
	files, _, err := encodeScreen(s, mem)
	if err != nil {
		return err
	}
	if r != nil {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return fmt.Errorf("drugcomb: report: %w", err)
		}
		// before meta.json, the last file
		files = append(files[:len(files)-1], encodedFile{ReportFile, append(b, '\n')}, files[len(files)-1])
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		parent := filepath.Dir(filepath.Clean(dir))
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return fmt.Errorf("drugcomb: save: %w", err)
		}
		d, err := atomicfile.CreateDir(dir)
		if err != nil {
			return fmt.Errorf("drugcomb: save: %w", err)
		}
		defer d.Abort()
		for _, f := range files {
			if err := d.WriteFile(f.name, f.data); err != nil {
				return fmt.Errorf("drugcomb: save: %w", err)
			}
		}
		if err := d.Commit(); err != nil {
			return fmt.Errorf("drugcomb: save: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("drugcomb: save: %w", err)
	case !fi.IsDir():
		return fmt.Errorf("drugcomb: save: %s is not a directory", dir)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("drugcomb: save: %w", err)
	}
	if len(ents) > 0 {
		if _, err := os.Stat(filepath.Join(dir, MetaFile)); err != nil {
			return fmt.Errorf("drugcomb: save: %s is neither empty nor a screen directory (no %s); refusing to write into it", dir, MetaFile)
		}
	}
	for _, f := range files { // meta.json is last in files
		if err := atomicfile.WriteFile(filepath.Join(dir, f.name), f.data); err != nil {
			return fmt.Errorf("drugcomb: save: %w", err)
		}
	}
	return nil
}

type encodedFile struct {
	name string
	data []byte
}

func encodeScreen(s *Screen, mem memory.Allocator) ([]encodedFile, *Meta, error) {
	drugs := drugsRecord(s, mem)
	defer drugs.Release()
	pairs := pairsRecord(s, mem)
	defer pairs.Release()
	var files []encodedFile
	for _, t := range []struct {
		arrowName, parquetName string
		rec                    arrow.Record
	}{{DrugsArrowFile, DrugsParquetFile, drugs}, {PairsArrowFile, PairsParquetFile, pairs}} {
		a, err := encodeIPC(t.rec, mem)
		if err != nil {
			return nil, nil, fmt.Errorf("drugcomb: %s: %w", t.arrowName, err)
		}
		p, err := encodeParquet(t.rec, mem)
		if err != nil {
			return nil, nil, fmt.Errorf("drugcomb: %s: %w", t.parquetName, err)
		}
		files = append(files, encodedFile{t.arrowName, a}, encodedFile{t.parquetName, p})
	}
	meta := &Meta{
		Format: FormatName, Version: FormatVersion, Name: s.Name,
		ScoreNames: s.ScoreNames, CellLines: s.CellLines,
		Drugs: len(s.Drugs), Pairs: len(s.Pairs), Measurements: s.Measurements(),
		Truth: s.Truth != nil,
		Files: []string{DrugsArrowFile, DrugsParquetFile, PairsArrowFile, PairsParquetFile},
	}
	if meta.ScoreNames == nil {
		meta.ScoreNames = []string{}
	}
	if meta.CellLines == nil {
		meta.CellLines = []string{}
	}
	mj, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	files = append(files, encodedFile{MetaFile, append(mj, '\n')})
	return files, meta, nil
}

func drugsSchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: colID, Type: arrow.BinaryTypes.String},
		{Name: colName, Type: arrow.BinaryTypes.String},
		{Name: colCID, Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: colSMILES, Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
}

func drugsRecord(s *Screen, mem memory.Allocator) arrow.Record {
	b := array.NewRecordBuilder(mem, drugsSchema())
	defer b.Release()
	id := b.Field(0).(*array.StringBuilder)
	name := b.Field(1).(*array.StringBuilder)
	cid := b.Field(2).(*array.Int64Builder)
	smi := b.Field(3).(*array.StringBuilder)
	for _, d := range s.Drugs {
		id.Append(d.ID)
		name.Append(d.Name)
		if d.PubChemCID != 0 {
			cid.Append(d.PubChemCID)
		} else {
			cid.AppendNull()
		}
		if d.SMILES != "" {
			smi.Append(d.SMILES)
		} else {
			smi.AppendNull()
		}
	}
	return b.NewRecord()
}

// hasCounts reports whether some pair has a per-score count that differs
// from its N for score column j.
func hasCounts(s *Screen, j int) bool {
	for _, p := range s.Pairs {
		if p.Count != nil && p.Count[j] != p.N {
			return true
		}
	}
	return false
}

func pairsSchema(s *Screen) *arrow.Schema {
	f := []arrow.Field{
		{Name: colA, Type: arrow.PrimitiveTypes.Int32},
		{Name: colB, Type: arrow.PrimitiveTypes.Int32},
		{Name: colAID, Type: arrow.BinaryTypes.String},
		{Name: colBID, Type: arrow.BinaryTypes.String},
		{Name: colCell, Type: arrow.BinaryTypes.String},
		{Name: colN, Type: arrow.PrimitiveTypes.Int32},
	}
	for j, n := range s.ScoreNames {
		f = append(f,
			arrow.Field{Name: n, Type: arrow.PrimitiveTypes.Float64, Nullable: true},
			arrow.Field{Name: n + suffixVar, Type: arrow.PrimitiveTypes.Float64, Nullable: true})
		if hasCounts(s, j) {
			f = append(f, arrow.Field{Name: n + suffixCount, Type: arrow.PrimitiveTypes.Int32})
		}
	}
	if s.Truth != nil {
		f = append(f,
			arrow.Field{Name: colTrueMean, Type: arrow.PrimitiveTypes.Float64},
			arrow.Field{Name: colTrueVar, Type: arrow.PrimitiveTypes.Float64})
	}
	return arrow.NewSchema(f, nil)
}

func appendFloat(b *array.Float64Builder, v float64) {
	if math.IsNaN(v) {
		b.AppendNull()
	} else {
		b.Append(v)
	}
}

func pairsRecord(s *Screen, mem memory.Allocator) arrow.Record {
	schema := pairsSchema(s)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	withCount := make([]bool, len(s.ScoreNames))
	for j, n := range s.ScoreNames {
		withCount[j] = len(schema.FieldIndices(n+suffixCount)) > 0
	}
	for i, p := range s.Pairs {
		b.Field(0).(*array.Int32Builder).Append(int32(p.A))
		b.Field(1).(*array.Int32Builder).Append(int32(p.B))
		b.Field(2).(*array.StringBuilder).Append(s.Drugs[p.A].ID)
		b.Field(3).(*array.StringBuilder).Append(s.Drugs[p.B].ID)
		b.Field(4).(*array.StringBuilder).Append(s.CellLines[p.CellLine])
		b.Field(5).(*array.Int32Builder).Append(int32(p.N))
		c := 6
		for j := range s.ScoreNames {
			appendFloat(b.Field(c).(*array.Float64Builder), p.Mean[j])
			appendFloat(b.Field(c+1).(*array.Float64Builder), p.Var[j])
			c += 2
			if withCount[j] {
				cnt := p.N
				if p.Count != nil {
					cnt = p.Count[j]
				}
				b.Field(c).(*array.Int32Builder).Append(int32(cnt))
				c++
			}
		}
		if s.Truth != nil {
			b.Field(c).(*array.Float64Builder).Append(s.Truth.Mean[i])
			b.Field(c + 1).(*array.Float64Builder).Append(s.Truth.NoiseVar[i])
		}
	}
	return b.NewRecord()
}

func encodeIPC(rec arrow.Record, mem memory.Allocator) ([]byte, error) {
	var buf bytes.Buffer
	if err := tabular.Encode(&buf, tabular.Arrow, rec, tabular.Options{Mem: mem}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// encodeParquet writes rec with the project's one Parquet policy (package
// tabular: Snappy, a REQUIRED root that every reader opens).
func encodeParquet(rec arrow.Record, mem memory.Allocator) ([]byte, error) {
	var buf bytes.Buffer
	if err := tabular.Encode(&buf, tabular.Parquet, rec, tabular.Options{Mem: mem}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Form selects which on-disk form Open reads.
type Form int

const (
	// FormAuto reads the Arrow IPC files, or the Parquet files when the
	// Arrow ones are absent (a directory written by another tool).
	FormAuto Form = iota
	FormArrow
	FormParquet
)

// Open loads the screen stored in dir (see Save), reading the Arrow IPC
// files, or the Parquet ones when those are absent.
func Open(dir string) (*Screen, error) {
	return OpenForm(dir, FormAuto)
}

// OpenForm loads the screen stored in dir from the chosen form.
func OpenForm(dir string, form Form) (*Screen, error) {
	return openWith(dir, form, memory.DefaultAllocator)
}

// ReadMeta reads dir's meta.json.
func ReadMeta(dir string) (*Meta, error) {
	b, err := os.ReadFile(filepath.Join(dir, MetaFile))
	if err != nil {
		return nil, fmt.Errorf("drugcomb: open: %w", err)
	}
	var m Meta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("drugcomb: open: %s: %w", filepath.Join(dir, MetaFile), err)
	}
	if m.Format != FormatName {
		return nil, fmt.Errorf("drugcomb: open: %s: format %q, want %q", filepath.Join(dir, MetaFile), m.Format, FormatName)
	}
	if m.Version < oldestVersion || m.Version > FormatVersion {
		return nil, fmt.Errorf("drugcomb: open: %s: version %d, this program reads versions %d to %d (a newer deup wrote it?)", filepath.Join(dir, MetaFile), m.Version, oldestVersion, FormatVersion)
	}
	return &m, nil
}

func openWith(dir string, form Form, mem memory.Allocator) (*Screen, error) {
	meta, err := ReadMeta(dir)
	if err != nil {
		return nil, err
	}
	if form == FormAuto {
		form = FormArrow
		if _, err := os.Stat(filepath.Join(dir, DrugsArrowFile)); err != nil {
			form = FormParquet
		}
	}
	dn, pn := DrugsArrowFile, PairsArrowFile
	read := readIPCFile
	if form == FormParquet {
		dn, pn = DrugsParquetFile, PairsParquetFile
		read = readParquetFile
	}
	s := &Screen{Name: meta.Name, ScoreNames: meta.ScoreNames, CellLines: meta.CellLines}
	dt, err := read(filepath.Join(dir, dn), mem)
	if err != nil {
		return nil, fmt.Errorf("drugcomb: open: %w", err)
	}
	err = decodeDrugs(s, dt, mem)
	dt.Release()
	if err != nil {
		return nil, fmt.Errorf("drugcomb: open: %s: %w", filepath.Join(dir, dn), err)
	}
	pt, err := read(filepath.Join(dir, pn), mem)
	if err != nil {
		return nil, fmt.Errorf("drugcomb: open: %w", err)
	}
	err = decodePairs(s, pt, meta.Truth, mem)
	pt.Release()
	if err != nil {
		return nil, fmt.Errorf("drugcomb: open: %s: %w", filepath.Join(dir, pn), err)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("drugcomb: open: %s: %w", dir, err)
	}
	return s, nil
}

// readIPCFile reads an Arrow IPC file into a table. The caller releases it.
func readIPCFile(path string, mem memory.Allocator) (arrow.Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return readIPCBytes(b, path, mem)
}

// readIPCBytes reads an Arrow IPC file or stream held in memory through
// arrowguard.ReadIPC (checked first; at most arrowguard.Budget(len(b))
// bytes of buffers). The caller releases the table.
func readIPCBytes(b []byte, name string, mem memory.Allocator) (arrow.Table, error) {
	t, err := arrowguard.ReadIPC(bytes.NewReader(b), int64(len(b)), mem)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}

func readParquetFile(path string, mem memory.Allocator) (arrow.Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return readParquet(f, st.Size(), path, mem)
}

// readParquet reads a whole Parquet file into a table through
// arrowguard.ReadParquet (checked first, read in the calling goroutine, at
// most arrowguard.Budget(size) bytes of buffers). The caller releases it.
func readParquet(r parquet.ReaderAtSeeker, size int64, name string, mem memory.Allocator) (arrow.Table, error) {
	t, err := arrowguard.ReadParquet(r, size, mem)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}

// column returns the single-chunk concatenation of the named column of t,
// checked against the wanted type. The caller releases it.
func column(t arrow.Table, name string, want arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	idx := t.Schema().FieldIndices(name)
	if len(idx) != 1 {
		return nil, fmt.Errorf("column %q: found %d times, want once", name, len(idx))
	}
	col := t.Column(idx[0])
	if !arrow.TypeEqual(col.DataType(), want) {
		return nil, fmt.Errorf("column %q: type %s, want %s", name, col.DataType(), want)
	}
	chunks := col.Data().Chunks()
	if len(chunks) == 1 {
		chunks[0].Retain()
		return chunks[0], nil
	}
	if len(chunks) == 0 {
		return array.MakeArrayOfNull(mem, want, 0), nil
	}
	return array.Concatenate(chunks, mem)
}

type columns struct {
	mem  memory.Allocator
	arrs []arrow.Array
}

func (c *columns) get(t arrow.Table, name string, want arrow.DataType) (arrow.Array, error) {
	a, err := column(t, name, want, c.mem)
	if err != nil {
		return nil, err
	}
	c.arrs = append(c.arrs, a)
	return a, nil
}

// getAs is c.get for a column of Arrow type want held in arrays of type A
// (*array.Int32 for Int32, …).
func getAs[A arrow.Array](c *columns, t arrow.Table, name string, want arrow.DataType) (A, error) {
	a, err := c.get(t, name, want)
	if err != nil {
		var none A
		return none, err
	}
	return a.(A), nil
}

func (c *columns) release() {
	for _, a := range c.arrs {
		a.Release()
	}
}

func decodeDrugs(s *Screen, t arrow.Table, mem memory.Allocator) (err error) {
	defer func() {
		if p := recover(); p != nil { // arrow-go does not validate offsets it read
			err = fmt.Errorf("corrupt table: %v", p)
		}
	}()
	c := columns{mem: mem}
	defer c.release()
	id, err := c.get(t, colID, arrow.BinaryTypes.String)
	if err != nil {
		return err
	}
	name, err := c.get(t, colName, arrow.BinaryTypes.String)
	if err != nil {
		return err
	}
	cid, err := c.get(t, colCID, arrow.PrimitiveTypes.Int64)
	if err != nil {
		return err
	}
	smi, err := c.get(t, colSMILES, arrow.BinaryTypes.String)
	if err != nil {
		return err
	}
	ids, names, cids, smis := id.(*array.String), name.(*array.String), cid.(*array.Int64), smi.(*array.String)
	s.Drugs = make([]Drug, t.NumRows())
	for i := range s.Drugs {
		if ids.IsNull(i) {
			return fmt.Errorf("row %d: null id", i)
		}
		d := Drug{ID: ids.Value(i), Name: names.Value(i)}
		if cids.IsValid(i) {
			d.PubChemCID = cids.Value(i)
		}
		if smis.IsValid(i) {
			d.SMILES = smis.Value(i)
		}
		s.Drugs[i] = d
	}
	return nil
}

func decodePairs(s *Screen, t arrow.Table, truth bool, mem memory.Allocator) (err error) {
	defer func() {
		if p := recover(); p != nil { // arrow-go does not validate offsets it read
			err = fmt.Errorf("corrupt table: %v", p)
		}
	}()
	c := columns{mem: mem}
	defer c.release()
	get32 := func(name string) (*array.Int32, error) {
		return getAs[*array.Int32](&c, t, name, arrow.PrimitiveTypes.Int32)
	}
	getF := func(name string) (*array.Float64, error) {
		return getAs[*array.Float64](&c, t, name, arrow.PrimitiveTypes.Float64)
	}
	getS := func(name string) (*array.String, error) {
		return getAs[*array.String](&c, t, name, arrow.BinaryTypes.String)
	}
	ca, cb := colA, colB
	if len(t.Schema().FieldIndices(colA)) == 0 && len(t.Schema().FieldIndices(colAv1)) > 0 {
		ca, cb = colAv1, colBv1 // a version 1 screen
	}
	a, err := get32(ca)
	if err != nil {
		return err
	}
	b, err := get32(cb)
	if err != nil {
		return err
	}
	aid, err := getS(colAID)
	if err != nil {
		return err
	}
	bid, err := getS(colBID)
	if err != nil {
		return err
	}
	cell, err := getS(colCell)
	if err != nil {
		return err
	}
	n, err := get32(colN)
	if err != nil {
		return err
	}
	m := len(s.ScoreNames)
	means := make([]*array.Float64, m)
	vars := make([]*array.Float64, m)
	counts := make([]*array.Int32, m)
	for j, name := range s.ScoreNames {
		if means[j], err = getF(name); err != nil {
			return err
		}
		if vars[j], err = getF(name + suffixVar); err != nil {
			return err
		}
		if len(t.Schema().FieldIndices(name+suffixCount)) > 0 {
			if counts[j], err = get32(name + suffixCount); err != nil {
				return err
			}
		}
	}
	var tm, tv *array.Float64
	if truth {
		if tm, err = getF(colTrueMean); err != nil {
			return err
		}
		if tv, err = getF(colTrueVar); err != nil {
			return err
		}
		s.Truth = &Truth{Mean: make([]float64, t.NumRows()), NoiseVar: make([]float64, t.NumRows())}
	}
	cellIdx := make(map[string]int, len(s.CellLines))
	for i, c := range s.CellLines {
		cellIdx[c] = i
	}
	nd := len(s.Drugs)
	s.Pairs = make([]Pair, t.NumRows())
	for i := range s.Pairs {
		p := Pair{A: int(a.Value(i)), B: int(b.Value(i)), N: int(n.Value(i)), Mean: make([]float64, m), Var: make([]float64, m)}
		if a.IsNull(i) || b.IsNull(i) || n.IsNull(i) || cell.IsNull(i) {
			return fmt.Errorf("row %d: null in a non-nullable column", i)
		}
		if p.A < 0 || p.A >= nd || p.B < 0 || p.B >= nd {
			return fmt.Errorf("row %d: drug index out of range", i)
		}
		if s.Drugs[p.A].ID != aid.Value(i) || s.Drugs[p.B].ID != bid.Value(i) {
			return fmt.Errorf("row %d: drug ids (%q, %q) do not match drug indices (%d, %d)", i, aid.Value(i), bid.Value(i), p.A, p.B)
		}
		ci, ok := cellIdx[cell.Value(i)]
		if !ok {
			return fmt.Errorf("row %d: cell line %q not listed in %s", i, cell.Value(i), MetaFile)
		}
		p.CellLine = ci
		for j := 0; j < m; j++ {
			p.Mean[j], p.Var[j] = math.NaN(), math.NaN()
			if means[j].IsValid(i) {
				p.Mean[j] = means[j].Value(i)
			}
			if vars[j].IsValid(i) {
				p.Var[j] = vars[j].Value(i)
			}
			if counts[j] != nil && int(counts[j].Value(i)) != p.N {
				if p.Count == nil {
					p.Count = make([]int, m)
					for k := range p.Count {
						p.Count[k] = p.N
					}
				}
				p.Count[j] = int(counts[j].Value(i))
			}
		}
		if truth {
			s.Truth.Mean[i] = tm.Value(i)
			s.Truth.NoiseVar[i] = tv.Value(i)
		}
		s.Pairs[i] = p
	}
	return nil
}
