package plate

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
)

func grid96(name, sep string, header bool, v func(r, c int) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Plate: %s\n", name)
	if header {
		for c := 1; c <= 12; c++ {
			fmt.Fprintf(&b, "%s%d", sep, c)
		}
		b.WriteString("\n")
	}
	for r := 0; r < 8; r++ {
		b.WriteString(RowName(r))
		for c := 0; c < 12; c++ {
			b.WriteString(sep + v(r, c))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestParseReadsLayouts(t *testing.T) {
	val := func(r, c int) string { return fmt.Sprint(100*r + c) }
	for _, c := range []struct {
		name, in string
		plates   int
	}{
		{"comma grid with header", grid96("P1", ",", true, val), 1},
		{"tab grid without header", grid96("P1", "\t", false, val), 1},
		{"semicolon grid", grid96("P1", ";", true, val), 1},
		{"two grids and metadata", "Instrument,X\n\n" + grid96("P1", ",", true, val) + "\n" + strings.Replace(grid96("P2", ",", true, val), "Plate: P2", "Barcode,P2", 1), 2},
		{"long", "Plate,Well,Signal\n" + func() string {
			var b strings.Builder
			for r := 0; r < 8; r++ {
				for c := 0; c < 12; c++ {
					fmt.Fprintf(&b, "P1,%s,%s\n", WellName(r, c), val(r, c))
				}
			}
			return b.String()
		}(), 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var rep ReadReport
			rs, err := ParseReads("f", strings.NewReader(c.in), ReadOptions{}, &rep)
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) != 96*c.plates {
				t.Fatalf("%d reads, want %d", len(rs), 96*c.plates)
			}
			for _, r := range rs {
				if want := float64(100*r.Row + r.Col); r.Value != want {
					t.Fatalf("%s %s: %v, want %v", r.Plate, WellName(r.Row, r.Col), r.Value, want)
				}
			}
		})
	}
}

func TestParseReadsErrors(t *testing.T) {
	val := func(r, c int) string { return "1" }
	full := grid96("P1", ",", true, val)
	lines := strings.Split(full, "\n")
	for _, c := range []struct{ name, in, want string }{
		{"short grid", strings.Join(lines[:6], "\n") + "\n", `plate "P1": 4 of the 8 rows`},
		{"wrong width", strings.Replace(full, "C,1,1,1,1,1,1,1,1,1,1,1,1", "C,1,1", 1), "row C has 2 values, want 12"},
		{"row twice", strings.Replace(full, "D,", "C,", 1), "row C twice"},
		{"not a row", strings.Replace(full, "D,", "Z9,", 1), `"Z9" is not a row letter`},
		{"bad header", strings.Replace(full, ",1,2,3", ",1,3,2", 1), `header "3"`},
		{"no plate name", strings.Replace(full, "Plate: P1", "Plate:", 1), "without a plate name"},
		{"no plate at all", "hello\nworld\n", "no plate line"},
		{"not a number", strings.Replace(full, "E,1,1", "E,1,x", 1), `7:5: value "x" is not a number`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var rep ReadReport
			_, err := ParseReads("f", strings.NewReader(c.in), ReadOptions{}, &rep)
			var pe *drugcomb.ParseError
			if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &pe) {
				t.Errorf("error %v, want a ParseError with %q", err, c.want)
			}
		})
	}
}

// TestExampleReads: the two example files of docs/plates.md hold the same
// readings.
func TestExampleReads(t *testing.T) {
	read := func(path string) map[string]float64 {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var rep ReadReport
		rs, err := ParseReads(path, f, ReadOptions{}, &rep)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]float64{}
		for _, r := range rs {
			m[r.Plate+" "+WellName(r.Row, r.Col)] = r.Value
		}
		return m
	}
	g, l := read("testdata/reads-grid-96.txt"), read("testdata/reads-long.csv")
	if len(g) != 96 || len(l) != 96 {
		t.Fatalf("%d and %d reads, want 96", len(g), len(l))
	}
	for k, v := range g {
		if l[k] != v {
			t.Errorf("%s: grid %v, long %v", k, v, l[k])
		}
	}
}

// FuzzParseReads: no input panics, and a reading parsed from a grid reads
// back the same from the long table written from it.
func FuzzParseReads(f *testing.F) {
	f.Add(grid96("P1", ",", true, func(r, c int) string { return fmt.Sprint(r * c) }))
	f.Add("plate,well,value\nP1,A1,3\nP1,B2,x\n")
	f.Add("Plate: X\n,1,2\nA,1,2\n")
	b, _ := os.ReadFile("testdata/reads-grid-96.txt")
	f.Add(string(b))
	f.Fuzz(func(t *testing.T, in string) {
		var rep ReadReport
		rs, err := ParseReads("f", strings.NewReader(in), ReadOptions{Lenient: true}, &rep)
		if err != nil || len(rs) == 0 {
			return
		}
		var buf bytes.Buffer
		buf.WriteString("plate,well,value\n")
		for _, r := range rs {
			if strings.ContainsAny(r.Plate, ",\"\n\r") || strings.TrimSpace(r.Plate) != r.Plate || r.Plate == "" {
				return
			}
			fmt.Fprintf(&buf, "%s,%s,%v\n", r.Plate, WellName(r.Row, r.Col), r.Value)
		}
		var rep2 ReadReport
		back, err := ParseReads("g", &buf, ReadOptions{}, &rep2)
		if err != nil {
			t.Fatalf("long form of the reads: %v", err)
		}
		if len(back) != len(rs) {
			t.Fatalf("%d reads back, want %d", len(back), len(rs))
		}
		for i := range rs {
			if back[i].Plate != rs[i].Plate || back[i].Row != rs[i].Row || back[i].Col != rs[i].Col || back[i].Value != rs[i].Value {
				t.Fatalf("read %d: %+v back as %+v", i, rs[i], back[i])
			}
		}
	})
}

// TestFormats: well names of the three formats.
func TestFormats(t *testing.T) {
	for _, c := range []struct {
		f    Format
		well string
		r, c int
		ok   bool
	}{
		{Plate96, "A1", 0, 0, true},
		{Plate96, "h12", 7, 11, true},
		{Plate96, "I1", 0, 0, false},
		{Plate384, "P24", 15, 23, true},
		{Plate384, "A01", 0, 0, true},
		{Plate1536, "AF48", 31, 47, true},
		{Plate1536, "AG1", 0, 0, false},
		{Plate384, "A0", 0, 0, false},
		{Plate384, "12", 0, 0, false},
	} {
		r, col, err := c.f.ParseWell(c.well)
		if (err == nil) != c.ok || (c.ok && (r != c.r || col != c.c)) {
			t.Errorf("%v %s: %d,%d %v", c.f, c.well, r, col, err)
		}
		if c.ok && WellName(r, col) != strings.ToUpper(strings.Replace(c.well, "01", "1", 1)) {
			t.Errorf("WellName(%d,%d) = %s", r, col, WellName(r, col))
		}
	}
}
