package lincs

import (
	"bytes"
	"errors"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/deup-screening/deup/internal/shareddata"
)

var nan32 = float32(math.NaN())

// sameMatrix reports whether a and b are equal, NaN equal to NaN (bitwise
// comparison of values would also distinguish NaN payloads, which GCT text
// cannot carry).
func sameMatrix(t *testing.T, a, b *Matrix) {
	t.Helper()
	if a.Version != b.Version {
		t.Fatalf("version %q != %q", a.Version, b.Version)
	}
	if !equalStrings(a.Rows, b.Rows) || !equalStrings(a.Cols, b.Cols) {
		t.Fatalf("ids differ: rows %q vs %q, cols %q vs %q", a.Rows, b.Rows, a.Cols, b.Cols)
	}
	sameFields(t, "row", a.RowMeta, b.RowMeta)
	sameFields(t, "col", a.ColMeta, b.ColMeta)
	if len(a.Values) != len(b.Values) {
		t.Fatalf("%d values != %d", len(a.Values), len(b.Values))
	}
	for k := range a.Values {
		x, y := a.Values[k], b.Values[k]
		if x != y && !(x != x && y != y) {
			t.Fatalf("value %d (row %d, col %d): %v != %v", k, k/len(a.Cols), k%len(a.Cols), x, y)
		}
		if x == 0 && y == 0 && math.Signbit(float64(x)) != math.Signbit(float64(y)) {
			t.Fatalf("value %d: signed zero %v != %v", k, x, y)
		}
	}
}

func sameFields(t *testing.T, what string, a, b []Field) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s meta: %d fields != %d", what, len(a), len(b))
	}
	for i := range a {
		if a[i].Name != b[i].Name || !equalStrings(a[i].Values, b[i].Values) {
			t.Fatalf("%s meta field %d: %q %q != %q %q", what, i, a[i].Name, a[i].Values, b[i].Name, b[i].Values)
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

const gct12 = "#1.2\n2\t3\nName\tDescription\tdrugA\tdrugB\tdrugC\n" +
	"g1\tgene one\t1.5\tNaN\t-3\n" +
	"g2\tgene two\t\tna\t2e-3\n"

const gct13 = "#1.3\r\n2\t2\t1\t2\r\n" +
	"id\tsymbol\tsigA\tsigB\r\n" +
	"pert_iname\tna\tvorinostat\tgefitinib\r\n" +
	"cell_id\tna\tPC3\tMCF7\r\n" +
	"5720\tAARS\t0.25\t#N/A\r\n" +
	"23\tABCF1\t-1\t1e2"

func TestReadGCT(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want *Matrix
	}{
		{"gct 1.2 with NaN spellings", gct12, &Matrix{
			Version: "1.2",
			Rows:    []string{"g1", "g2"},
			Cols:    []string{"drugA", "drugB", "drugC"},
			RowMeta: []Field{{"Description", []string{"gene one", "gene two"}}},
			ColMeta: []Field{},
			Values:  []float32{1.5, nan32, -3, nan32, nan32, 2e-3},
		}},
		{"gct 1.3 with CRLF, metadata, no final newline", gct13, &Matrix{
			Version: "1.3",
			Rows:    []string{"5720", "23"},
			Cols:    []string{"sigA", "sigB"},
			RowMeta: []Field{{"symbol", []string{"AARS", "ABCF1"}}},
			ColMeta: []Field{{"pert_iname", []string{"vorinostat", "gefitinib"}}, {"cell_id", []string{"PC3", "MCF7"}}},
			Values:  []float32{0.25, nan32, -1, 100},
		}},
		{"empty matrix", "#1.3\n0\t0\t0\t0\nid\n", &Matrix{Version: "1.3", Rows: []string{}, Cols: []string{}, RowMeta: []Field{}, ColMeta: []Field{}, Values: []float32{}}},
		{"trailing blank lines", "#1.2\n1\t1\nName\tDescription\tc\nr\td\t7\n\n\n", &Matrix{
			Version: "1.2", Rows: []string{"r"}, Cols: []string{"c"},
			RowMeta: []Field{{"Description", []string{"d"}}}, ColMeta: []Field{}, Values: []float32{7},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ReadGCT(strings.NewReader(tc.in), "x.gct")
			if err != nil {
				t.Fatal(err)
			}
			sameMatrix(t, m, tc.want)
			if len(m.Rows) > 1 && m.At(1, 1) != tc.want.Values[len(m.Cols)+1] && m.At(1, 1) == m.At(1, 1) {
				t.Errorf("At(1, 1) = %v, want %v", m.At(1, 1), tc.want.Values[len(m.Cols)+1])
			}
		})
	}
}

func TestReadGCTErrors(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		line, col  int
		sentinel   error
		wantInText string
	}{
		{"empty", "", 1, 0, ErrVersion, "empty input"},
		{"not gct", "name,a,b\n", 1, 0, ErrVersion, ""},
		{"csv dims", "#1.2\n2,3\n", 2, 0, ErrFieldCount, "dimensions"},
		{"bad row count", "#1.2\nx\t3\n", 2, 1, ErrNumber, "row count"},
		{"negative cols", "#1.2\n1\t-3\n", 2, 2, ErrNumber, "column count"},
		{"1.3 needs four dims", "#1.3\n1\t1\n", 2, 0, ErrFieldCount, ""},
		{"header too short", "#1.2\n1\t2\nName\tDescription\ta\n", 3, 0, ErrFieldCount, "header"},
		{"duplicate column", "#1.2\n1\t2\nName\tDescription\ta\ta\nr\td\t1\t2\n", 3, 4, ErrDuplicate, `"a"`},
		{"non-numeric value", "#1.2\n1\t2\nName\tDescription\ta\tb\nr\td\t1\tx1\n", 4, 4, ErrNumber, `"x1" (column "b")`},
		{"short data line", "#1.2\n2\t2\nName\tDescription\ta\tb\nr\td\t1\t2\ns\td\t1\n", 5, 0, ErrFieldCount, "data line"},
		{"long data line", "#1.2\n1\t2\nName\tDescription\ta\tb\nr\td\t1\t2\t3\n", 4, 5, ErrFieldCount, ""},
		{"truncated", "#1.2\n3\t1\nName\tDescription\ta\nr\td\t1\n", 5, 0, ErrTruncated, "data line 2 of 3"},
		{"truncated 1.3 metadata", "#1.3\n1\t1\t0\t2\nid\ta\nm1\t1\n", 5, 0, ErrTruncated, "column metadata line 2 of 2"},
		{"extra lines", "#1.2\n1\t1\nName\tDescription\ta\nr\td\t1\ns\td\t2\n", 5, 0, ErrExtra, ""},
		{"duplicate row", "#1.2\n2\t1\nName\tDescription\ta\nr\td\t1\nr\td\t2\n", 5, 1, ErrDuplicate, "line 4"},
		{"huge declared size", "#1.3\n1\t2\t0\t9223372036854775807\nid\n", 2, 4, ErrNumber, "column metadata count"},
		{"declared size fits but data does not", "#1.3\n2147483647\t2147483647\t2147483647\t2147483647\nid\n", 3, 0, ErrFieldCount, "header"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadGCT(strings.NewReader(tc.in), "bad.gct")
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if pe.File != "bad.gct" || pe.Line != tc.line || pe.Column != tc.col {
				t.Errorf("at %s:%d col %d, want bad.gct:%d col %d (%v)", pe.File, pe.Line, pe.Column, tc.line, tc.col, err)
			}
			if !errors.Is(err, tc.sentinel) {
				t.Errorf("err = %v, want it to wrap %v", err, tc.sentinel)
			}
			if !strings.Contains(err.Error(), tc.wantInText) || !strings.HasPrefix(err.Error(), "lincs: bad.gct:") {
				t.Errorf("err = %q, want it to start with the file and contain %q", err, tc.wantInText)
			}
		})
	}
}

// consensus reads the real LINCS consensus signatures (GCT 1.2, 960 x 1748).
func consensus(tb testing.TB) *Matrix {
	tb.Helper()
	m, err := ReadGCTFile(shareddata.Path(tb, "lincs", "consensus_signatures.gct"))
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// Expected values from reading the file with Python 3.11 + numpy 1.24
// (float() of each field): 960 x 1748, 57,600 NaN in 60 all-NaN columns,
// values from -27 to 26.
func TestReadGCTConsensus(t *testing.T) {
	m := consensus(t)
	if len(m.Rows) != 960 || len(m.Cols) != 1748 || m.Version != "1.2" {
		t.Fatalf("got %s %d x %d, want 1.2 960 x 1748", m.Version, len(m.Rows), len(m.Cols))
	}
	if m.Rows[0] != "AARS" || m.Rows[959] != "ZW10" || m.Cols[0] != "10-DEBC" || m.Cols[1747] != "ZSTK-474" {
		t.Errorf("ids: %s..%s x %s..%s", m.Rows[0], m.Rows[959], m.Cols[0], m.Cols[1747])
	}
	nans, allNaN := 0, 0
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	col := make([]float32, len(m.Rows))
	for j := range m.Cols {
		n := 0
		for _, v := range m.Col(col, j) {
			if v != v {
				n++
				continue
			}
			lo, hi = min(lo, v), max(hi, v)
		}
		nans += n
		if n == len(m.Rows) {
			allNaN++
		}
	}
	if nans != 57600 || allNaN != 60 || lo != -27 || hi != 26 {
		t.Errorf("NaN %d, all-NaN columns %d, range [%v, %v]; want 57600, 60, [-27, 26]", nans, allNaN, lo, hi)
	}
	// gefitinib (column 678): sum -13 over 8 non-zero genes.
	j := indexOf(m.Cols, "gefitinib")
	var sum float32
	nz := 0
	for _, v := range m.Col(col, j) {
		sum += v
		if v != 0 {
			nz++
		}
	}
	if j != 677 || sum != -13 || nz != 8 {
		t.Errorf("gefitinib: column %d, sum %v, %d non-zero; want 677, -13, 8", j, sum, nz)
	}
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

func TestWriteGCTRoundTrip(t *testing.T) {
	for _, tc := range []struct{ name, in string }{{"1.2", gct12}, {"1.3", gct13}} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ReadGCT(strings.NewReader(tc.in), "in.gct")
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := WriteGCT(&buf, m); err != nil {
				t.Fatal(err)
			}
			m2, err := ReadGCT(&buf, "out.gct")
			if err != nil {
				t.Fatal(err)
			}
			sameMatrix(t, m, m2)
		})
	}
	t.Run("refuses a tab in an id", func(t *testing.T) {
		m, _ := ReadGCT(strings.NewReader(gct12), "in.gct")
		m.Cols[0] = "a\tb"
		if err := WriteGCT(&bytes.Buffer{}, m); err == nil {
			t.Fatal("no error")
		}
	})
}

// FuzzReadGCT checks that no input panics the reader and that whatever it
// accepts survives write → read unchanged (the encoding/csv FuzzRoundtrip
// idea).
func FuzzReadGCT(f *testing.F) {
	f.Add(gct12)
	f.Add(gct13)
	f.Add("#1.3\n0\t0\t0\t0\nid\n")
	f.Add("#1.2\n1\t1\nName\tDescription\tc\nr\td\tinf\n")
	f.Add("#1.2\n1\t2\nName\tDescription\ta\tb\nr\td\t1\t1e40\n")
	f.Add("#1.3\n1\t1\t0\t9223372036854775807\nid\tc\n")
	f.Fuzz(func(t *testing.T, in string) {
		m, err := ReadGCT(strings.NewReader(in), "fuzz.gct")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("error %v is not a *ParseError with a line", err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted input breaks invariants: %v", err)
		}
		var buf bytes.Buffer
		if err := WriteGCT(&buf, m); err != nil {
			return // ids GCT cannot write (a lone \r inside a field)
		}
		m2, err := ReadGCT(&buf, "rewritten.gct")
		if err != nil {
			t.Fatalf("rewritten file does not read: %v\n%q", err, buf.String())
		}
		sameMatrix(t, m, m2)
	})
}

func BenchmarkReadGCTConsensus(b *testing.B) {
	data, err := os.ReadFile(shareddata.Path(b, "lincs", "consensus_signatures.gct"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ReadGCT(bytes.NewReader(data), "consensus_signatures.gct"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGCTHeaderAllocation: a header that declares far more rows than the
// file holds costs an allocation in proportion to the caps (maxPrealloc,
// maxPreallocRows), not to the declared size. The input is the crasher
// that fuzzing found on 2026-11-24 (testdata/fuzz/FuzzReadGCT/36c2a34a4dc29046):
// 144,444,444 declared rows made the reader allocate about 1 GB.
func TestGCTHeaderAllocation(t *testing.T) {
	for _, in := range []string{
		"#1.2\n144444444\t2\n\t\t\t0\n\t\t0\t0",
		"#1.3\n999999999\t1\t0\t0\nid\tc\nr\t1\n",
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := ReadGCT(strings.NewReader(in), "big.gct")
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Fatalf("%q: accepted a file shorter than its header", in)
		}
		// Caps: 4 MiB of float32 values, 64 Ki rows of ids (16 B each) and
		// an id index of 64 Ki entries (a few MB); 32 MB leaves room.
		if got := after.TotalAlloc - before.TotalAlloc; got > 32<<20 {
			t.Errorf("%q: allocated %d MB for a %d-byte file", in, got>>20, len(in))
		}
	}
}
