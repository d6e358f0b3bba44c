package drugcomb

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParseDelimiter(t *testing.T) {
	for _, c := range []struct {
		in   string
		want rune
		err  bool
	}{
		{"", 0, false}, {"TAB", '\t', false}, {`\t`, '\t', false}, {"comma", ',', false}, {"semicolon", ';', false},
		{"pipe", '|', false}, {"space", ' ', false}, {"#", '#', false}, {"µ", 'µ', false},
		{";;", 0, true}, {`"`, 0, true}, {"\n", 0, true},
	} {
		got, err := ParseDelimiter(c.in)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("ParseDelimiter(%q) = %q, %v", c.in, got, err)
		}
	}
}

func TestOtherFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{MetaFile, PairsParquetFile, "signatures.parquet", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !IsScreenDir(dir) || IsScreenDir(t.TempDir()) {
		t.Error("IsScreenDir")
	}
	if got := OtherFiles(dir); !reflect.DeepEqual(got, []string{"notes.txt", "signatures.parquet"}) {
		t.Errorf("OtherFiles = %v", got)
	}
}

func TestNumSMILES(t *testing.T) {
	c := &Catalogue{Drugs: []Drug{{ID: "a", SMILES: "C"}, {ID: "b"}, {ID: "c", SMILES: "CC"}}}
	if n := c.NumSMILES(); n != 2 {
		t.Fatalf("NumSMILES = %d, want 2", n)
	}
}
