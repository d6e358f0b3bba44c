package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/shareddata"
	"github.com/deup-screening/deup/lincs"
)

// updateSignatures rewrites the golden files of deup data signatures
// (go test ./internal/cli -run DataSignatures -update-signatures).
var updateSignatures = flag.Bool("update-signatures", false, "rewrite testdata/data_signatures_* golden files")

func runSignaturesCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

func signaturesGolden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *updateSignatures {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update-signatures to create)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", p, got, want)
	}
}

// pc3ScreenDir saves the ALMANAC PC-3 screen (80 drugs, 1,474 measurements
// of 1,440 pairs) built from the shared CSVs into a temporary directory.
func pc3ScreenDir(t *testing.T) string {
	t.Helper()
	read := func(rel ...string) [][]string {
		f, err := os.Open(shareddata.Path(t, rel...))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		recs, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return recs[1:]
	}
	known := map[string]drugcomb.Drug{}
	for _, r := range read("almanac", "drugs.csv") { // name,pubchem_cid,smiles
		cid, err := strconv.ParseInt(r[1], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		known[r[1]] = drugcomb.Drug{ID: r[1], Name: r[0], PubChemCID: cid, SMILES: r[2]}
	}
	b := drugcomb.NewBuilder("combo_score")
	for _, r := range read("almanac", "synergy_PC-3.csv") { // drug_a_cid,drug_b_cid,cell_line,combo_score
		a, ok1 := known[r[0]]
		bb, ok2 := known[r[1]]
		score, err := strconv.ParseFloat(r[3], 64)
		if !ok1 || !ok2 || err != nil {
			t.Fatalf("row %q", r)
		}
		if err := b.Measure(b.Drug(a), b.Drug(bb), b.CellLine(r[2]), []float64{score}); err != nil {
			t.Fatal(err)
		}
	}
	s := b.Screen("almanac PC-3")
	if len(s.Drugs) != 80 || len(s.Pairs) != 1440 || s.Measurements() != 1474 {
		t.Fatalf("screen: %d drugs, %d pairs, %d measurements", len(s.Drugs), len(s.Pairs), s.Measurements())
	}
	dir := filepath.Join(t.TempDir(), "pc3")
	if err := drugcomb.Save(dir, s); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The PC-3 figures: 47 of 80 drugs, 27 by CID, 14 by name (the 41 of the
// shared data README) and 6 by the parent name of a salt form, 5 all-NaN,
// 573 of 1,474 measurements = 555 of 1,440 unordered pairs with both drugs
// covered (independent Python 3.11 count, see lincs.TestMatchPC3). Without
// the perturbagen table, names alone find the same 47: 37 as written and 10
// salt forms (the 6, plus imatinib mesylate, gemcitabine hydrochloride,
// sorafenib tosylate and doxorubicin hydrochloride, which the CIDs find).
func TestDataSignaturesPC3(t *testing.T) {
	dir := pc3ScreenDir(t)
	gct := shareddata.Path(t, "lincs", "consensus_signatures.gct")
	pert := shareddata.Path(t, "lincs", "pertinfo.tsv.gz")

	t.Run("text", func(t *testing.T) {
		out, errs, code := runSignaturesCmd(t, "data", "signatures", "--gct", gct, "--pertinfo", pert, "--screen", dir)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		signaturesGolden(t, "data_signatures_pc3.stdout", strings.ReplaceAll(out, dir, "DIR"))
		signaturesGolden(t, "data_signatures_pc3.stderr", strings.ReplaceAll(errs, pert, "PERTINFO"))
		sigs, err := lincs.LoadSignatures(dir)
		if err != nil {
			t.Fatal(err)
		}
		if sigs.Len() != 80 || sigs.Covered() != 47 || len(sigs.Genes) != 960 {
			t.Errorf("stored %d drugs, %d covered, %d genes", sigs.Len(), sigs.Covered(), len(sigs.Genes))
		}
		// The screen still opens (the signature files sit beside it) and
		// the stored signatures align with its drugs by ID.
		s, err := drugcomb.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, v := range sigs.For(s.Drugs) {
			if v != nil {
				n++
			}
		}
		if n != 47 {
			t.Errorf("%d screen drugs have a stored signature, want 47", n)
		}
	})
	t.Run("json", func(t *testing.T) {
		out, errs, code := runSignaturesCmd(t, "data", "signatures", "--json", "--screen", dir, "--gct", gct, "--pertinfo", pert)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var got struct {
			Drugs, Matched, AllNaN int
			ByCID                  int `json:"by_pubchem_cid"`
			ByName                 int `json:"by_name"`
			ByParentName           int `json:"by_parent_name"`
			Pairs                  int
			PairsCovered           int `json:"pairs_covered"`
			MeasurementsCovered    int `json:"measurements_covered"`
			Missing                []struct{ ID string }
			Files                  []string
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if got.Drugs != 80 || got.Matched != 47 || got.ByCID != 27 || got.ByName != 14 || got.ByParentName != 6 || got.Pairs != 1440 ||
			got.PairsCovered != 555 || got.MeasurementsCovered != 573 || len(got.Missing) != 33 || len(got.Files) != 2 {
			t.Errorf("json report %+v", got)
		}
	})
	t.Run("by name only", func(t *testing.T) {
		out, _, code := runSignaturesCmd(t, "data", "signatures", "--json", "--screen", dir, "--gct", gct)
		if code != 0 || !strings.Contains(out, `"matched":47,"by_pubchem_cid":0,"by_name":37,"by_parent_name":10`) {
			t.Errorf("exit %d: %s", code, out)
		}
	})
}

// A GCTX file (lincs/testdata/small.gctx, written with h5py) names its
// columns sigA, sigB and carries pert_iname vorinostat, gefitinib.
func TestDataSignaturesGCTX(t *testing.T) {
	b := drugcomb.NewBuilder("score")
	g := b.Drug(drugcomb.Drug{ID: "d1", Name: "Gefitinib"})
	a := b.Drug(drugcomb.Drug{ID: "d2", Name: "aspirin"})
	v := b.Drug(drugcomb.Drug{ID: "d3", Name: "VORINOSTAT"})
	c := b.CellLine("PC-3")
	for _, p := range [][2]int{{g, a}, {g, v}, {a, v}} {
		if err := b.Measure(p[0], p[1], c, []float64{1}); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "s")
	if err := drugcomb.Save(dir, b.Screen("tiny")); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runSignaturesCmd(t, "data", "signatures", "--gct", filepath.Join("..", "..", "..", "..", "lincs", "testdata", "small.gctx"), "--screen", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := "2 of 3 drugs have a signature (0 by PubChem CID, 2 by name, 0 by the parent name of a salt) in small.gctx (3 genes x 2 signatures)\n" +
		"pairs with both drugs covered: 1 of 3 (1 of 3 measurements)\n"
	if !strings.HasPrefix(out, want) || !strings.Contains(out, `d2         "aspirin"`) {
		t.Errorf("stdout:\n%s\nwant prefix:\n%s", out, want)
	}
	sigs, err := lincs.LoadSignatures(dir)
	if err != nil {
		t.Fatal(err)
	}
	if sigs.Columns[0] != "sigB" || sigs.Columns[2] != "sigA" || sigs.Vectors[1] != nil {
		t.Errorf("stored columns %q", sigs.Columns)
	}
}

// --matrix-out converts the whole GCT; without --screen it only converts.
func TestDataSignaturesMatrixOut(t *testing.T) {
	gct := shareddata.Path(t, "lincs", "consensus_signatures.gct")
	want, err := lincs.ReadGCTFile(gct)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"m.parquet", "m.arrow"} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), name)
			stdout, errs, code := runSignaturesCmd(t, "data", "signatures", "--gct", gct, "--matrix-out", out)
			if code != 0 || stdout != "" || !strings.Contains(errs, "(1748 signatures x 960 genes)") {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errs)
			}
			f, err := os.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var got *lincs.Matrix
			if strings.HasSuffix(name, ".parquet") {
				got, err = lincs.ReadParquet(f, memory.DefaultAllocator)
			} else {
				got, err = lincs.ReadIPC(f, memory.DefaultAllocator)
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Rows) != 960 || len(got.Cols) != 1748 || len(got.Values) != len(want.Values) {
				t.Fatalf("read back %d x %d", len(got.Rows), len(got.Cols))
			}
			for k, v := range want.Values {
				if g := got.Values[k]; g != v && !(g != g && v != v) {
					t.Fatalf("value %d: %v != %v", k, g, v)
				}
			}
		})
	}
	t.Run("bad extension", func(t *testing.T) {
		_, errs, code := runSignaturesCmd(t, "data", "signatures", "--gct", gct, "--matrix-out", filepath.Join(t.TempDir(), "m.csv"))
		if code != 2 || !strings.Contains(errs, ".arrow, .feather or .parquet") {
			t.Errorf("exit %d: %s", code, errs)
		}
	})
}

func TestDataSignaturesErrors(t *testing.T) {
	dir := pc3ScreenDir(t)
	gct := shareddata.Path(t, "lincs", "consensus_signatures.gct")
	bad := filepath.Join(t.TempDir(), "bad.gct")
	os.WriteFile(bad, []byte("#1.2\n1\t2\nName\tDescription\tGefitinib\tb\ng\tg\t1\toops\n"), 0o644)
	nomatch := filepath.Join(t.TempDir(), "nomatch.gct")
	os.WriteFile(nomatch, []byte("#1.2\n1\t1\nName\tDescription\tnot-a-drug\ng\tg\t1\n"), 0o644)
	tests := []struct {
		name     string
		args     []string
		code     int
		inStderr string
	}{
		{"missing --gct", []string{"--screen", dir}, 2, "--gct and --screen (or --matrix-out) are required"},
		{"positional argument", []string{"--screen", dir, "--gct", gct, "extra"}, 2, `unexpected argument "extra"`},
		{"unknown flag", []string{"--gtc", gct}, 2, "flag provided but not defined"},
		{"not a screen", []string{"--screen", t.TempDir(), "--gct", gct}, 1, "is not a screen directory (no meta.json): screen directories are written by deup data import"},
		{"bad value", []string{"--screen", dir, "--gct", bad}, 1, "bad.gct:4: column 4: not a number"},
		{"no match", []string{"--screen", dir, "--gct", nomatch}, 1, "no drug matched"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := runSignaturesCmd(t, append([]string{"data", "signatures"}, tc.args...)...)
			if code != tc.code || !strings.Contains(errs, tc.inStderr) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, errs, tc.code, tc.inStderr)
			}
		})
	}
	if _, err := lincs.LoadSignatures(dir); err == nil {
		t.Error("a failed run wrote signatures")
	}
}

func TestDataSignaturesHelp(t *testing.T) {
	errs, _, code := runSignaturesCmd(t, "data", "signatures", "-h") // help goes to stdout
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	signaturesGolden(t, "data_signatures_help.stderr", errs)
}
