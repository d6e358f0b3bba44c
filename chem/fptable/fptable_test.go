package fptable

import (
	"bufio"
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/chem"
)

func collect(t *testing.T, run func(put func(Result) error) error) []Result {
	t.Helper()
	var out []Result
	if err := run(func(r Result) error { out = append(out, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLines: input order kept, the header skipped, a line without a tab a
// problem not written, an unparsable SMILES written with its error as a
// problem, an id with a tab refused only for line output. Expected bits are chem.MorganBitsOf's, the reference of which is
// chem's RDKit test.
func TestLines(t *testing.T) {
	in := "id\tsmiles\na\tCCO\tignored\nno tab here\nb\tC1CC\n"
	opt := Options{Radius: 2, Bits: 64, Workers: 2}
	got := collect(t, func(put func(Result) error) error {
		return Lines(context.Background(), strings.NewReader(in), "f", true, opt, put)
	})
	m, err := chem.ParseSMILES("CCO")
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{
		{ID: "a", Bits: chem.MorganBitsOf(m, 2, 64), Write: true},
		{Problems: []string{`f:3: want id<TAB>smiles, got "no tab here"`}},
	}
	if len(got) != 3 || !reflect.DeepEqual(got[:2], want) {
		t.Fatalf("got %+v, want %+v then b", got, want)
	}
	if b := got[2]; b.ID != "b" || !b.Write || len(b.Problems) != 1 || !strings.HasPrefix(b.Problems[0], "f:4: id b: ") {
		t.Fatalf("unclosed ring: %+v", b)
	}
	for _, lineIDs := range []bool{false, true} {
		opt.LineIDs = lineIDs
		r := collect(t, func(put func(Result) error) error {
			return Entries(context.Background(), []Entry{{ID: "x\ty", SMILES: "C", Loc: "g:1"}}, opt, put)
		})
		if r[0].Write == lineIDs || (len(r[0].Problems) == 1) != lineIDs {
			t.Errorf("LineIDs %v: %+v", lineIDs, r[0])
		}
	}
}

func TestIsSDF(t *testing.T) {
	for _, c := range []struct {
		format, path string
		want, err    bool
	}{
		{"", "x.SDF", true, false}, {"", "x.mol", true, false}, {"", "x.csv", false, false},
		{"sdf", "stdin", true, false}, {"smiles", "x.sdf", false, false}, {"mol2", "x", false, true},
	} {
		got, err := IsSDF(c.format, c.path)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("IsSDF(%q, %q) = %v, %v", c.format, c.path, got, err)
		}
	}
}

func TestLooksLikeCatalogue(t *testing.T) {
	for _, c := range []struct {
		in, col string
		want    bool
	}{
		{"name,smiles\nx,C\n", "", true},
		{"\ufeff\"CID\"\t\"IsoSMILES\"\n", "", true},
		{"id\tstructure\n", "structure", true},
		{"a\tCCO\n", "", false},
		{"PAR1....", "", true},
		{"\x1f\x8b\x08", "", true},
	} {
		if got := LooksLikeCatalogue(bufio.NewReader(strings.NewReader(c.in)), c.col); got != c.want {
			t.Errorf("LooksLikeCatalogue(%q, %q) = %v", c.in, c.col, got)
		}
	}
}

func TestWriterLines(t *testing.T) {
	var b bytes.Buffer
	w, err := NewWriter(&b, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		id   string
		bits []int
	}{{"a", []int{1, 5, 63}}, {"b", nil}} {
		if err := w.Write(r.id, "ignored", r.bits); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "a\t1 5 63\nb\t\n" {
		t.Fatalf("got %q", got)
	}
}

// TestOpenFingerprint: what Open takes the input for (catalogue or lines),
// the molecules written and the problems counted, and a catalogue without
// a SMILES column refused before any output. Bits are
// chem.MorganBitsOf's (checked against RDKit in chem's tests); the
// problems are those of Lines and CatalogueEntries.
func TestOpenFingerprint(t *testing.T) {
	for _, c := range []struct {
		name, in           string
		input              Input
		wantCat            bool
		written, failed    int
		wantLines, wantErr string
	}{
		// A molecule that cannot be fingerprinted is skipped and reported
		// (the project's rule for bad rows), not written with empty bits.
		{name: "lines", in: "a\tCCO\nb\tC1CC\n", written: 1, failed: 1, wantLines: "a\t%s\n"},
		{name: "catalogue", in: "pubchem_cid,smiles\n1,CCO\n2,\n", wantCat: true, written: 1, failed: 1, wantLines: "1\t%s\n"},
		{name: "header lines", in: "id\tsmiles\na\tCCO\n", input: Input{Header: true}, written: 1, wantLines: "a\t%s\n"},
		{name: "no smiles column", in: "id,foo\n1,CCO\n", input: Input{IDCol: "id"}, wantErr: "f: the catalogue has no SMILES column"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Open(strings.NewReader(c.in), "f", c.input, func(string) {})
			if c.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q...", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.isCat != c.wantCat {
				t.Errorf("catalogue %v, want %v", s.isCat, c.wantCat)
			}
			var buf bytes.Buffer
			w, err := NewWriter(&buf, "")
			if err != nil {
				t.Fatal(err)
			}
			var problems []string
			n, failed, err := s.Fingerprint(context.Background(), Options{Radius: 2, Bits: 64, Workers: 1}, w, func(p string) { problems = append(problems, p) })
			if err != nil {
				t.Fatal(err)
			}
			if n != c.written || failed != c.failed || len(problems) != c.failed {
				t.Errorf("written %d, failed %d (%q); want %d, %d", n, failed, problems, c.written, c.failed)
			}
			m, err := chem.ParseSMILES("CCO")
			if err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(c.wantLines, "%s", string(AppendBits(nil, chem.MorganBitsOf(m, 2, 64))))
			if buf.String() != want {
				t.Errorf("output %q, want %q", buf.String(), want)
			}
		})
	}
}
