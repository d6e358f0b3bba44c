package drugcomb

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
	"github.com/deup-screening/deup/internal/shareddata"
	"github.com/deup-screening/deup/internal/tabular"
)

// fuzzSeeds are inputs in every format the importer reads.
func fuzzSeeds(f *testing.F) [][]byte {
	mem := memory.NewGoAllocator()
	seeds := [][]byte{
		[]byte(sameTableCSV),
		bytes.ReplaceAll([]byte(sameTableCSV), []byte(","), []byte("\t")),
		[]byte("drug 1;drug 2;line;syn;other;smi 1;smi 2\nA;B;c;1;2;C;N\n"),
		[]byte("drug 1,drug 2,line,syn,other,smi 1,smi 2\nA,B,c,\"1\n"),
		[]byte("drug 1,drug 2,line,syn,other,smi 1,smi 2\r\nA,A,c,x,NA,,\r\n,B,c,1,1,,\r\nA,B,,1,1,,\r\n"),
		[]byte(""),
		[]byte("\xef\xbb\xbf"),
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(sameTableCSV))
	zw.Close()
	seeds = append(seeds, gz.Bytes())
	rec := sameTableRecord(mem)
	defer rec.Release()
	var pq bytes.Buffer
	w, err := pqarrow.NewFileWriter(rec.Schema(), &pq, parquet.NewWriterProperties(parquet.WithAllocator(mem)), pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem)))
	if err != nil {
		f.Fatal(err)
	}
	w.Write(rec)
	w.Close()
	seeds = append(seeds, pq.Bytes())
	var af bytes.Buffer
	if err := tabular.Encode(&af, tabular.Arrow, rec, tabular.Options{Mem: mem}); err != nil {
		f.Fatal(err)
	}
	seeds = append(seeds, af.Bytes())
	var as bytes.Buffer
	sw := ipc.NewWriter(&as, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem))
	sw.Write(rec)
	sw.Close()
	seeds = append(seeds, as.Bytes())
	if p, ok := shareddata.Optional(f, "almanac", "synergy_PC-3.csv"); ok {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		// The first 40 lines of the real table, with its header mapped.
		lines := bytes.SplitN(b, []byte("\n"), 41)
		head := bytes.Join(lines[:40], []byte("\n"))
		head = bytes.Replace(head, []byte("drug_a_cid,drug_b_cid,cell_line,combo_score"), []byte("drug 1,drug 2,line,syn"), 1)
		seeds = append(seeds, head)
	}
	return seeds
}

// FuzzReadTable: no input panics; an accepted input gives a valid screen
// whose report accounts for every row, and which survives Save and Open
// (Parquet) unchanged.
func FuzzReadTable(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, in []byte, lenient bool) {
		// Accepted inputs must not leak. Rejected corrupt Arrow files may:
		// arrow-go v15's IPC FileReader does not free a message it fails to
		// decode (the Go allocator's memory is reclaimed by the collector
		// all the same), so the allocator is checked on success only.
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		opt := Options{Columns: Columns{DrugA: "drug 1", DrugB: "drug 2", CellLine: "line", Scores: []string{"syn"}, OptionalScores: []string{"other"}, SMILESA: "smi 1", SMILESB: "smi 2"}, Lenient: lenient, Allocator: mem}
		s, rep, err := ReadTable("fuzz.csv", bytes.NewReader(in), opt)
		if err != nil {
			if errors.Is(err, ErrNoPairs) && rep == nil {
				t.Fatal("ErrNoPairs without a report")
			}
			return
		}
		defer mem.AssertSize(t, 0)
		if err := s.Validate(); err != nil {
			t.Fatalf("invalid screen: %v", err)
		}
		if rep.RowsRead != rep.Measurements+rep.DroppedRows() || rep.Measurements != s.Measurements() {
			t.Fatalf("report does not add up: read %d, used %d, dropped %d, screen %d", rep.RowsRead, rep.Measurements, rep.DroppedRows(), s.Measurements())
		}
		dir := filepath.Join(t.TempDir(), "s")
		if err := saveWith(dir, s, nil, mem); err != nil {
			t.Fatal(err)
		}
		back, err := openWith(dir, FormParquet, mem)
		if err != nil {
			t.Fatal(err)
		}
		if !back.Equal(s) {
			t.Fatalf("round trip changed the screen:\n got %+v\nwant %+v", back, s)
		}
	})
}

// FuzzCatalogue: no input panics.
func FuzzCatalogue(f *testing.F) {
	f.Add([]byte("name,pubchem_cid,smiles\nA,1,CCO\nB,,N\n,2,\nA,3,C\n"))
	f.Add([]byte("pubchem_cid,smiles\n2206,CC1=CC(=O)N(N1C)C2=CC=CC=C2\n"))
	f.Add([]byte("dname\tcid\nx\t1.0\n"))
	f.Add([]byte("smiles\nCCO\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := ReadCatalogue("fuzz.csv", bytes.NewReader(in))
		if err != nil {
			return
		}
		for i, d := range c.Drugs {
			if d.ID == "" {
				t.Fatalf("drug %d has no id", i)
			}
		}
	})
}
