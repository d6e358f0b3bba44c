package tabular

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/vocab"
)

// Format is a table file format.
type Format int

const (
	CSV Format = iota + 1
	Arrow
	Parquet
)

func (f Format) String() string {
	switch f {
	case CSV:
		return "csv"
	case Arrow:
		return "arrow"
	case Parquet:
		return "parquet"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ErrFormat is returned for an extension that names no table format.
var ErrFormat = errors.New("unknown table format")

// FormatOf is the format of path by its extension (case-insensitive):
// .csv; .arrow, .feather or .ipc (Arrow IPC file); .parquet or .pq.
func FormatOf(path string) (Format, error) {
	f, _ := vocab.FormatOf(path)
	switch f {
	case vocab.CSV:
		return CSV, nil
	case vocab.Arrow:
		return Arrow, nil
	case vocab.Parquet:
		return Parquet, nil
	}
	return 0, fmt.Errorf("%w: %s: extension must be .csv, .arrow or .parquet", ErrFormat, path)
}

// RowGroupRows is the most rows a Parquet row group holds.
const RowGroupRows = 1 << 20

// ParquetProperties are the writer properties of every Parquet file the
// project writes (see the package documentation).
func ParquetProperties(mem memory.Allocator) *parquet.WriterProperties {
	return parquet.NewWriterProperties(parquet.WithAllocator(mem),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithRootRepetition(parquet.Repetitions.Required),
		parquet.WithMaxRowGroupLength(RowGroupRows))
}

// Options are the knobs of a Writer. The zero value is ready to use.
type Options struct {
	// Mem allocates Arrow and Parquet buffers; nil means
	// memory.DefaultAllocator.
	Mem memory.Allocator
	// Digits gives, by column name, the significant digits of a float64
	// column in CSV; a column not named is written in the shortest form
	// that reads back exactly.
	Digits map[string]int
}

// Writer writes records of one schema as a table to an io.Writer.
type Writer struct {
	format Format
	schema *arrow.Schema
	opt    Options

	// csv
	w      io.Writer
	line   []byte
	digits []int
	// arrow
	ipcw *ipc.FileWriter
	// parquet
	pqw *pqarrow.FileWriter

	closed bool
}

// NewWriter starts a table of format f and schema on w (the CSV header
// is written at once; Arrow and Parquet write their headers as they
// need). w is not closed by Close. A CSV schema may hold strings,
// booleans, signed integers, float64 and lists of integers.
func NewWriter(w io.Writer, f Format, schema *arrow.Schema, opt Options) (*Writer, error) {
	if opt.Mem == nil {
		opt.Mem = memory.DefaultAllocator
	}
	tw := &Writer{format: f, schema: schema, opt: opt, w: w}
	var err error
	switch f {
	case CSV:
		tw.digits = make([]int, schema.NumFields())
		for i, fl := range schema.Fields() {
			if err := csvSupported(fl.Type); err != nil {
				return nil, fmt.Errorf("csv: column %s: %w", fl.Name, err)
			}
			tw.digits[i] = -1
			if d, ok := opt.Digits[fl.Name]; ok {
				tw.digits[i] = d
			}
		}
		l := tw.line[:0]
		for i, fl := range schema.Fields() {
			if i > 0 {
				l = append(l, ',')
			}
			l = AppendCSVField(l, fl.Name)
		}
		tw.line = append(l, '\n')
		_, err = w.Write(tw.line)
	case Arrow:
		tw.ipcw, err = ipc.NewFileWriter(&offsetWriter{w: w}, ipc.WithSchema(schema), ipc.WithAllocator(opt.Mem))
	case Parquet:
		// pqarrow closes its sink if it can: hide Close.
		tw.pqw, err = pqarrow.NewFileWriter(schema, struct{ io.Writer }{w}, ParquetProperties(opt.Mem),
			pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(opt.Mem), pqarrow.WithStoreSchema()))
	default:
		err = fmt.Errorf("%w: %v", ErrFormat, f)
	}
	if err != nil {
		return nil, fmt.Errorf("%v: %w", f, err)
	}
	return tw, nil
}

// Write appends the rows of rec, whose schema must equal the writer's.
func (w *Writer) Write(rec arrow.Record) error {
	if w.closed {
		return errors.New("tabular: write after close")
	}
	if !rec.Schema().Equal(w.schema) {
		return fmt.Errorf("tabular: record schema %v differs from the table's %v", rec.Schema(), w.schema)
	}
	var err error
	switch w.format {
	case CSV:
		err = w.writeCSV(rec)
	case Arrow:
		err = w.ipcw.Write(rec)
	case Parquet:
		err = w.pqw.Write(rec)
	}
	if err != nil {
		return fmt.Errorf("%v: %w", w.format, err)
	}
	return nil
}

// Close finishes the table (Arrow's footer, Parquet's last row group and
// footer). It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	var err error
	switch w.format {
	case Arrow:
		err = w.ipcw.Close()
	case Parquet:
		err = w.pqw.Close()
	}
	if err != nil {
		return fmt.Errorf("%v: %w", w.format, err)
	}
	return nil
}

func csvSupported(t arrow.DataType) error {
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT64, arrow.FLOAT32:
		return nil
	case arrow.LIST:
		switch t.(*arrow.ListType).Elem().ID() {
		case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
			return nil
		}
	}
	return fmt.Errorf("type %v has no CSV form", t)
}

func (w *Writer) writeCSV(rec arrow.Record) error {
	cols := rec.Columns()
	for r := 0; r < int(rec.NumRows()); r++ {
		l := w.line[:0]
		for c, col := range cols {
			if c > 0 {
				l = append(l, ',')
			}
			if col.IsNull(r) {
				continue
			}
			switch a := col.(type) {
			case *array.String:
				l = AppendCSVField(l, a.Value(r))
			case *array.LargeString:
				l = AppendCSVField(l, a.Value(r))
			case *array.Boolean:
				l = strconv.AppendBool(l, a.Value(r))
			case *array.Int8:
				l = strconv.AppendInt(l, int64(a.Value(r)), 10)
			case *array.Int16:
				l = strconv.AppendInt(l, int64(a.Value(r)), 10)
			case *array.Int32:
				l = strconv.AppendInt(l, int64(a.Value(r)), 10)
			case *array.Int64:
				l = strconv.AppendInt(l, a.Value(r), 10)
			case *array.Float64:
				l = vocab.AppendFloat(l, a.Value(r), w.digits[c])
			case *array.Float32:
				l = vocab.AppendFloat(l, float64(a.Value(r)), w.digits[c])
			case *array.List:
				l = appendIntList(l, a, r)
			}
		}
		l = append(l, '\n')
		w.line = l
		if _, err := w.w.Write(l); err != nil {
			return err
		}
	}
	return nil
}

func appendIntList(l []byte, a *array.List, r int) []byte {
	start, end := a.ValueOffsets(r)
	vals := a.ListValues()
	for k := start; k < end; k++ {
		if k > start {
			l = append(l, ' ')
		}
		var v int64
		switch e := vals.(type) {
		case *array.Int8:
			v = int64(e.Value(int(k)))
		case *array.Int16:
			v = int64(e.Value(int(k)))
		case *array.Int32:
			v = int64(e.Value(int(k)))
		case *array.Int64:
			v = e.Value(int(k))
		}
		l = strconv.AppendInt(l, v, 10)
	}
	return l
}

// AppendCSVField appends s to l as one CSV field, quoted when it holds a
// comma, a quote or a line break, or starts with a space or a tab.
func AppendCSVField(l []byte, s string) []byte {
	if !strings.ContainsAny(s, ",\"\n\r") && (s == "" || (s[0] != ' ' && s[0] != '\t')) {
		return append(l, s...)
	}
	l = append(l, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			l = append(l, '"')
		}
		l = append(l, s[i])
	}
	return append(l, '"')
}

// offsetWriter gives the Arrow IPC file writer the only Seek it makes (the
// current offset) on a stream.
type offsetWriter struct {
	w   io.Writer
	off int64
}

func (c *offsetWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.off += int64(n)
	return n, err
}

func (c *offsetWriter) Seek(offset int64, whence int) (int64, error) {
	if offset != 0 || whence != io.SeekCurrent {
		return c.off, errors.New("tabular: arrow writer: seek not supported on a stream")
	}
	return c.off, nil
}

// File is a table being written atomically to a path (see Create).
type File struct {
	*Writer
	af *atomicfile.File
	bw *bufio.Writer
}

// Create starts the table at path, in the format of its extension, under a
// temporary name beside it. Commit puts it in place; Abort (a no-op after
// Commit, so `defer f.Abort()` is the usual pattern) removes it.
func Create(path string, schema *arrow.Schema, opt Options) (*File, error) {
	f, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	return CreateFormat(path, f, schema, opt)
}

// CreateFormat is Create with the format given.
func CreateFormat(path string, f Format, schema *arrow.Schema, opt Options) (*File, error) {
	af, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(af, 1<<20)
	w, err := NewWriter(bw, f, schema, opt)
	if err != nil {
		af.Abort()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &File{Writer: w, af: af, bw: bw}, nil
}

// Path is the table's final path.
func (f *File) Path() string { return f.af.Path() }

// Commit finishes the table and puts it in place (synced, renamed,
// directory synced). On error nothing is put in place.
func (f *File) Commit() error {
	if err := f.Writer.Close(); err != nil {
		f.af.Abort()
		return fmt.Errorf("%s: %w", f.af.Path(), err)
	}
	if err := f.bw.Flush(); err != nil {
		f.af.Abort()
		return fmt.Errorf("write %s: %w", f.af.Path(), err)
	}
	return f.af.Commit()
}

// Abort drops the table; the final path is untouched. It does nothing
// after Commit.
func (f *File) Abort() {
	f.af.Abort()
}

// Encode writes rec as one table of format f to w (w is not closed).
func Encode(w io.Writer, f Format, rec arrow.Record, opt Options) error {
	tw, err := NewWriter(w, f, rec.Schema(), opt)
	if err != nil {
		return err
	}
	if err := tw.Write(rec); err != nil {
		tw.Close()
		return err
	}
	return tw.Close()
}
