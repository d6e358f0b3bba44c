package drugcomb

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// TestOpenVersion1: a screen written before version 2 (row numbers named
// drug_a, drug_b in pairs.arrow and pairs.parquet, meta.json version 1)
// opens, from either form, as the same screen; a version newer than this
// program's is refused with both numbers named.
func TestOpenVersion1(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want := testScreen(true)
	dir := filepath.Join(t.TempDir(), "v1")
	if err := saveWith(dir, want, nil, mem); err != nil {
		t.Fatal(err)
	}
	// Rewrite the pairs table as version 1 wrote it.
	rec := pairsRecord(want, mem)
	fields := rec.Schema().Fields()
	if fields[0].Name != "drug_a_row" || fields[1].Name != "drug_b_row" {
		t.Fatalf("version 2 row-number columns are %q, %q", fields[0].Name, fields[1].Name)
	}
	fields[0].Name, fields[1].Name = "drug_a", "drug_b"
	old := array.NewRecord(arrow.NewSchema(fields, nil), rec.Columns(), rec.NumRows())
	rec.Release()
	defer old.Release()
	a, err := encodeIPC(old, mem)
	if err != nil {
		t.Fatal(err)
	}
	p, err := encodeParquet(old, mem)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := os.ReadFile(filepath.Join(dir, MetaFile))
	if err != nil {
		t.Fatal(err)
	}
	meta = bytes.Replace(meta, []byte(`"version": 2`), []byte(`"version": 1`), 1)
	for name, b := range map[string][]byte{PairsArrowFile: a, PairsParquetFile: p, MetaFile: meta} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, form := range []Form{FormArrow, FormParquet} {
		got, err := openWith(dir, form, mem)
		if err != nil {
			t.Fatalf("form %d: %v", form, err)
		}
		if !got.Equal(want) {
			t.Errorf("form %d: version 1 screen read as\n %+v\nwant %+v", form, got, want)
		}
	}
	newer := bytes.Replace(meta, []byte(`"version": 1`), []byte(`"version": 3`), 1)
	if err := os.WriteFile(filepath.Join(dir, MetaFile), newer, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := openWith(dir, FormArrow, mem); err == nil || !bytes.Contains([]byte(err.Error()), []byte("version 3, this program reads versions 1 to 2")) {
		t.Errorf("version 3: err = %v", err)
	}
}
