package arrowguard

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// testRecord is a small table of the shape the project reads: strings and
// float64s with a null, and schema metadata.
func testRecord(mem memory.Allocator, rows int) arrow.Record {
	md := arrow.NewMetadata([]string{"k"}, []string{"v"})
	sc := arrow.NewSchema([]arrow.Field{{Name: "drug", Type: arrow.BinaryTypes.String}, {Name: "y", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, &md)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	for i := 0; i < rows; i++ {
		b.Field(0).(*array.StringBuilder).Append(strings.Repeat("d", i%7+1))
		if i%5 == 3 {
			b.Field(1).(*array.Float64Builder).AppendNull()
		} else {
			b.Field(1).(*array.Float64Builder).Append(float64(i) / 3)
		}
	}
	return b.NewRecord()
}

type seekBuf struct {
	b   []byte
	off int64
}

func (s *seekBuf) Write(p []byte) (int, error) {
	s.b = append(s.b[:s.off], p...)
	s.off += int64(len(p))
	return len(p), nil
}

func (s *seekBuf) Seek(off int64, whence int) (int64, error) { return s.off, nil }

func encodings(t testing.TB, rows int, codec ipc.Option, pqc compress.Compression) (stream, file, pq []byte) {
	mem := memory.NewGoAllocator()
	rec := testRecord(mem, rows)
	defer rec.Release()
	var sb bytes.Buffer
	opts := []ipc.Option{ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem)}
	if codec != nil {
		opts = append(opts, codec)
	}
	w := ipc.NewWriter(&sb, opts...)
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	w.Close()
	var fb seekBuf
	fw, err := ipc.NewFileWriter(&fb, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	fw.Close()
	var pb bytes.Buffer
	pw, err := pqarrow.NewFileWriter(rec.Schema(), &pb, parquet.NewWriterProperties(parquet.WithAllocator(mem), parquet.WithCompression(pqc)), pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem), pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	if err := pw.Write(rec); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	return sb.Bytes(), fb.b, pb.Bytes()
}

// TestReadValid: the encodings arrow-go writes (plain and compressed) read
// back whole, with the schema metadata, and release all their memory.
func TestReadValid(t *testing.T) {
	for _, c := range []struct {
		name  string
		codec ipc.Option
		pqc   compress.Compression
	}{{"plain", nil, compress.Codecs.Uncompressed}, {"zstd", ipc.WithZstd(), compress.Codecs.Zstd}, {"lz4", ipc.WithLZ4(), compress.Codecs.Snappy}} {
		stream, file, pq := encodings(t, 1000, c.codec, c.pqc)
		for _, in := range []struct {
			form string
			b    []byte
		}{{"stream", stream}, {"file", file}, {"parquet", pq}} {
			t.Run(c.name+"/"+in.form, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				var tbl arrow.Table
				var err error
				if in.form == "parquet" {
					tbl, err = ReadParquet(bytes.NewReader(in.b), int64(len(in.b)), mem)
				} else {
					tbl, err = ReadIPC(bytes.NewReader(in.b), int64(len(in.b)), mem)
				}
				if err != nil {
					t.Fatal(err)
				}
				defer tbl.Release()
				if tbl.NumRows() != 1000 || tbl.NumCols() != 2 {
					t.Fatalf("%d rows %d columns, want 1000, 2", tbl.NumRows(), tbl.NumCols())
				}
				if i := tbl.Schema().Metadata().FindKey("k"); i < 0 {
					t.Fatalf("schema metadata lost: %v", tbl.Schema().Metadata())
				}
			})
		}
	}
}

// le32/le64 overwrite little-endian integers in a copy of b.
func put32(b []byte, at int, v uint32) []byte {
	c := append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(c[at:], v)
	return c
}

func put64(b []byte, at int, v uint64) []byte {
	c := append([]byte(nil), b...)
	binary.LittleEndian.PutUint64(c[at:], v)
	return c
}

// TestCheckIPCCorrupt: lengths set huge are refused before arrow-go sees
// them; every other corruption is an error or a table, never a panic, and
// reading holds no more than the budget (a checked allocator under the
// limit would panic otherwise).
func TestCheckIPCCorrupt(t *testing.T) {
	stream, file, _ := encodings(t, 50, nil, compress.Codecs.Uncompressed)
	// The stream starts with the schema message: 0xffffffff, its length.
	ml := int(binary.LittleEndian.Uint32(stream[4:]))
	rb := 8 + ml // the record batch message
	cases := []struct {
		name string
		b    []byte
	}{
		{"truncated", stream[:len(stream)/2]},
		{"schema length huge", put32(stream, 4, 0x7ffffff0)},
		{"schema length negative", put32(stream, 4, 0x80000000)},
		{"batch length huge", put32(stream, rb+4, 0x7ffffff0)},
		{"file footer length huge", put32(file, len(file)-10, 0x7ffffff0)},
		{"file footer length zero", put32(file, len(file)-10, 0)},
		{"file truncated", file[:len(file)-3]},
		{"crasher 2026-11-23: 2^32 schema metadata entries", crasherStream(t)},
	}
	// Every 8-byte word of the metadata set huge, one at a time.
	for at := 0; at+8 <= rb+8+int(binary.LittleEndian.Uint32(stream[rb+4:])) && at+8 <= len(stream); at += 4 {
		cases = append(cases, struct {
			name string
			b    []byte
		}{"word huge", put64(stream, at, 1<<40)})
	}
	for _, c := range cases {
		for _, in := range [][]byte{c.b} {
			func() {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				tbl, err := ReadIPC(bytes.NewReader(in), int64(len(in)), mem)
				if err == nil {
					tbl.Release()
					return
				}
				if err.Error() == "" {
					t.Errorf("%s: empty error", c.name)
				}
			}()
		}
	}
}

// crasherStream is the 553-byte Arrow stream FuzzReadTable found in
// drugcomb (its corpus entry f9592b4c1245834c): its schema's custom
// metadata vector claims 2^32 entries in a vtable of odd size, which the
// old check read as "field absent"; arrow-go v15 then asked for 64 GiB
// (make([]string, 2^32)), a fatal out-of-memory.
func crasherStream(t *testing.T) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "crash-2026-11-23-schema-metadata.arrows"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCrasherRefused(t *testing.T) {
	b := crasherStream(t)
	err := CheckIPC(bytes.NewReader(b), int64(len(b)))
	if err == nil {
		t.Fatal("the 2026-11-23 crasher passes the check")
	}
	t.Log(err)
}

// TestCheckIPCFlatbufferRule: a field is present when its vtable slot lies
// below the vtable's size, as flatbuffers' Table.Offset reads it, even in
// an odd-sized vtable.
func TestCheckIPCFlatbufferRule(t *testing.T) {
	// vtable at 0: size 7, table size 8, slot 0 = 0, slot 1 = 4; the table
	// at 8 points back to it (soffset 8); field 1 is at 8+4 = 12.
	f := fbuf{7, 0, 8, 0, 0, 0, 4, 0, 8, 0, 0, 0, 0, 0, 0, 0}
	p, err := f.field(8, 1)
	if err != nil || p != 12 {
		t.Fatalf("field 1 at %d (%v), want 12: flatbuffers reads slot 6 of a 7-byte vtable", p, err)
	}
	if p, err := f.field(8, 2); err != nil || p != 0 {
		t.Fatalf("field 2 at %d (%v), want absent", p, err)
	}
}

// TestBudget: 64 MiB + 64 × size, and the limited allocator refuses
// beyond it with a *BudgetError that Recover turns into an error.
func TestBudget(t *testing.T) {
	if got, want := Budget(1<<20), int64(64<<20+64<<20); got != want {
		t.Fatalf("Budget(1 MiB) = %d, want %d", got, want)
	}
	lim := Allocator(memory.NewGoAllocator(), 0)
	b := lim.Allocate(1 << 20)
	lim.Free(b)
	err := func() (err error) {
		defer Recover(&err, "x")
		lim.Allocate(65 << 20)
		return nil
	}()
	var be *BudgetError
	if !errors.As(err, &be) || be.Max != 64<<20 {
		t.Fatalf("got %v, want a *BudgetError with Max 64 MiB", err)
	}
}

// TestCheckParquetCorrupt: footer lengths and Thrift lengths set huge.
func TestCheckParquetCorrupt(t *testing.T) {
	_, _, pq := encodings(t, 50, nil, compress.Codecs.Snappy)
	flen := int(binary.LittleEndian.Uint32(pq[len(pq)-8:]))
	start := len(pq) - 8 - flen
	cases := map[string][]byte{
		"footer length huge": put32(pq, len(pq)-8, 0x7ffffff0),
		"footer length zero": put32(pq, len(pq)-8, 0),
		"no magic":           pq[:len(pq)-1],
		"encrypted":          append(append([]byte(nil), pq[:len(pq)-4]...), "PARE"...),
	}
	for name, b := range cases {
		if err := CheckParquet(bytes.NewReader(b), int64(len(b))); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// A list header of 15 (long form) with a varint length of 2^31-1 in
	// place of each byte of the footer, one at a time: refused or harmless.
	for at := start; at < len(pq)-8-6; at++ {
		b := append([]byte(nil), pq...)
		copy(b[at:], []byte{0xf9, 0xff, 0xff, 0xff, 0xff, 0x07})
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		if tbl, err := ReadParquet(bytes.NewReader(b), int64(len(b)), mem); err == nil {
			tbl.Release()
		}
	}
}

// TestParquetPages: files of many pages, row groups, page versions and
// encodings, as arrow-go writes them, pass the page walk and read back
// whole; a page of a type arrow-go does not know (on which its page reader
// loops without end) is refused before it reads.
func TestParquetPages(t *testing.T) {
	mem := memory.NewGoAllocator()
	rec := testRecord(mem, 20000)
	defer rec.Release()
	write := func(opts ...parquet.WriterProperty) []byte {
		var pb bytes.Buffer
		pw, err := pqarrow.NewFileWriter(rec.Schema(), &pb, parquet.NewWriterProperties(append(opts, parquet.WithAllocator(mem))...), pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem)))
		if err != nil {
			t.Fatal(err)
		}
		if err := pw.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := pw.Close(); err != nil {
			t.Fatal(err)
		}
		return pb.Bytes()
	}
	for _, c := range []struct {
		name string
		opts []parquet.WriterProperty
	}{
		{"defaults", nil},
		{"small pages", []parquet.WriterProperty{parquet.WithDataPageSize(512)}},
		{"v2 pages", []parquet.WriterProperty{parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithDataPageSize(1024), parquet.WithCompression(compress.Codecs.Zstd)}},
		{"no dictionary", []parquet.WriterProperty{parquet.WithDictionaryDefault(false), parquet.WithDataPageSize(2048)}},
		{"row groups", []parquet.WriterProperty{parquet.WithMaxRowGroupLength(700), parquet.WithStats(true), parquet.WithCompression(compress.Codecs.Snappy)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := write(c.opts...)
			tbl, err := ReadParquet(bytes.NewReader(b), int64(len(b)), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tbl.Release()
			if tbl.NumRows() != rec.NumRows() {
				t.Errorf("%d rows, want %d", tbl.NumRows(), rec.NumRows())
			}
		})
	}
	// The first page header of the file (the first column's dictionary
	// page) begins with field 1, the page type, as an i32 (0x15) whose
	// zigzag varint 0x04 is 2 = DICTIONARY_PAGE; 0x0f makes it -8.
	b := write()
	if b[4] != 0x15 || b[5] != 0x04 {
		t.Fatalf("first page header starts % x, want 15 04", b[4:6])
	}
	b[5] = 0x0f
	if err := CheckParquet(bytes.NewReader(b), int64(len(b))); err == nil || !strings.Contains(err.Error(), "page type -8") {
		t.Errorf("a page of type -8: error %v", err)
	}
}
