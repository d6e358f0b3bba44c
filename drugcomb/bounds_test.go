package drugcomb

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"
)

func gz(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// TestTextBounds: a record longer than MaxRecordBytes (here 64 MiB of
// commas, 64 KiB gzip-compressed: 64 million fields if read whole) and
// compressed binaries or gzip inside gzip are errors, not allocations out
// of proportion to the file.
func TestTextBounds(t *testing.T) {
	opt := Options{Columns: Columns{DrugA: "a", DrugB: "b", CellLine: "c", Scores: []string{"s"}}}
	commas := append([]byte("a,b,c,s\nx,y,z,"), bytes.Repeat([]byte(","), 64<<20)...)
	cases := []struct {
		name string
		in   []byte
		want error
	}{
		{"long record", gz(t, commas), ErrRecordSize},
		{"long header", gz(t, bytes.Repeat([]byte("a,"), 1<<20)), ErrRecordSize},
		{"gzip in gzip", gz(t, gz(t, []byte(sameTableCSV))), nil},
		{"arrow in gzip", gz(t, []byte("\xff\xff\xff\xff\x10\x00\x00\x00")), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := ReadTable("t.csv.gz", bytes.NewReader(c.in), opt)
			if err == nil {
				t.Fatal("accepted")
			}
			if c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			if !strings.Contains(err.Error(), "t.csv.gz") {
				t.Fatalf("error %q does not name the file", err)
			}
		})
	}
}
