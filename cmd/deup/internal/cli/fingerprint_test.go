package cli

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/deup-screening/deup/chem/fptable"

	"github.com/deup-screening/deup/internal/arrowguard"
	"github.com/deup-screening/deup/internal/shareddata"
	"github.com/deup-screening/deup/internal/tabular"
)

// TestFingerprintReference runs the command on the 4,233 reference
// molecules and compares every line with RDKit 2022.09.3's morgan_r3_1024.
func TestFingerprintReference(t *testing.T) {
	path := shareddata.Path(t, "fingerprints", "rdkit_morgan.tsv")
	out, errs, code := runMain(t, "", "fingerprint", "--header", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	t.Log(strings.TrimSpace(errs))
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	sc.Scan()
	got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	n := 0
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		want := c[0] + "\t" + c[2]
		if n >= len(got) {
			t.Fatalf("only %d output lines", len(got))
		}
		if got[n] != want {
			t.Errorf("line %d: got %q, want %q", n+1, got[n], want)
		}
		n++
	}
	if n != len(got) || n != 4233 {
		t.Errorf("%d output lines for %d molecules, want 4233", len(got), n)
	}
}

// TestFingerprintLargestFragment: --largest-fragment leaves the counter-ion
// out. Expected bits: RDKit 2022.09.3 GetMorganFingerprintAsBitVect(mol, 3,
// 1024) of rdMolStandardize.LargestFragmentChooser(preferOrganic=True)
// .choose(mol) (Debian python3-rdkit 202209.3-1); the whole salts have one
// more bit each (189, the sodium; 514, the HCl).
func TestFingerprintLargestFragment(t *testing.T) {
	input := "sodium-benzoate\t[Na+].O=C([O-])c1ccccc1\n" +
		"mechlorethamine-hcl\tCN(CCCl)CCCl.Cl\n"
	want := "sodium-benzoate\t64 104 155 175 202 356 361 389 544 650 686 715 726 807 849 893 923 961 983\n" +
		"mechlorethamine-hcl\t4 33 80 85 139 212 432 622 659 677 881 890 927 943\n"
	out, errs, code := runMain(t, input, "fingerprint", "--largest-fragment", "--quiet")
	if code != 0 || out != want {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errs, out, want)
	}
	whole, _, _ := runMain(t, input, "fingerprint", "--quiet")
	if !strings.Contains(whole, " 189 ") || !strings.Contains(whole, " 514 ") {
		t.Errorf("whole-molecule bits lack the counter-ions' bits 189 and 514:\n%s", whole)
	}
}

// TestFingerprintCatalogue: the Parquet output of a hand-made catalogue
// holds the lines printed as id<TAB>bits
// (testdata/script/fingerprint_catalogue.txtar checks those, the errors and
// the CSV output).
func TestFingerprintCatalogue(t *testing.T) {
	in := filepath.Join("testdata", "fingerprint_catalogue.csv")
	out, _, code := runMain(t, "", "fingerprint", "--quiet", in)
	if code != 0 {
		t.Errorf("exit %d, want 0 (two molecules fail: skipped and reported)", code)
	}

	dir := t.TempDir()
	pqOut := filepath.Join(dir, "fp.parquet")
	_, _, code = runMain(t, "", "fingerprint", "--quiet", "--out", pqOut, in)
	if code != 0 {
		t.Errorf("parquet: exit %d, want 0", code)
	}
	got := readFingerprintParquet(t, pqOut)
	want := []string{}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		want = append(want, l)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("parquet read back:\n%s\nwant (the stdout lines):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if st, err := os.Stat(pqOut); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("parquet file mode: %v %v, want 0644", st.Mode(), err)
	}
}

// TestFingerprintCatalogueParquet: the same catalogue as Parquet gives the
// same lines as the CSV (fingerprint_catalogue.stdout), and its errors name
// the row.
func TestFingerprintCatalogueParquet(t *testing.T) {
	mem := memory.DefaultAllocator
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "Drug_Name", Type: arrow.BinaryTypes.String},
		{Name: "CID", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "SMILES", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for _, r := range []struct {
		name string
		cid  int64
		smi  string
	}{
		{"busulfan", 2478, "CS(=O)(=O)OCCCCOS(=O)(=O)C"}, {"benzene", 0, "c1ccccc1"}, {"no-smiles", 0, ""},
		{"mechlorethamine hcl", 4033, "CN(CCCl)CCCl.Cl"}, {"bad-ring", 0, "C1CC"},
	} {
		b.Field(0).(*array.StringBuilder).Append(r.name)
		if r.cid == 0 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.Int64Builder).Append(r.cid)
		}
		if r.smi == "" {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.StringBuilder).Append(r.smi)
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	var buf bytes.Buffer
	if err := tabular.Encode(&buf, tabular.Parquet, rec, tabular.Options{Mem: mem}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cat.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runMain(t, "", "fingerprint", "--quiet", path)
	want, _, _ := runMain(t, "", "fingerprint", "--quiet", filepath.Join("testdata", "fingerprint_catalogue.csv"))
	if code != 0 || out != want {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s", code, out, want)
	}
	if !strings.Contains(errs, "cat.parquet:row 3: id no-smiles: no SMILES") || !strings.Contains(errs, "cat.parquet:row 5: id bad-ring:") {
		t.Errorf("stderr does not name the rows:\n%s", errs)
	}
}

// TestFingerprintCatalogueStdin: a catalogue on standard input (its header
// names a SMILES column) is read as one; --header keeps reading lines.
// Benzene's bits as in testdata/script/fingerprint_stdin.txtar (RDKit 2022.09.3).
func TestFingerprintCatalogueStdin(t *testing.T) {
	in := "Name\tCanonical_SMILES\tmw\nbenzene\tc1ccccc1\t78.1\n"
	out, errs, code := runMain(t, in, "fingerprint", "--quiet")
	if code != 0 || out != "benzene\t64 208 389 849\n" {
		t.Errorf("catalogue on stdin: exit %d, stderr %q, stdout %q", code, errs, out)
	}
	// A catalogue id with a tab cannot be an id<TAB>bits line: reported.
	out, errs, code = runMain(t, "name,smiles\n\"a\tb\",C\nbenzene,c1ccccc1\n", "fingerprint", "--quiet")
	if code != 0 || out != "benzene\t64 208 389 849\n" || !strings.Contains(errs, "stdin:2: id \"a\\tb\" holds a tab") {
		t.Errorf("id with a tab: exit %d, stderr %q, stdout %q", code, errs, out)
	}
	out, _, code = runMain(t, "id\tsmiles\nbenzene\tc1ccccc1\n", "fingerprint", "--quiet", "--header")
	if code != 0 || out != "benzene\t64 208 389 849\n" {
		t.Errorf("--header lines: exit %d, stdout %q", code, out)
	}
}

// readFingerprintParquet reads a `fingerprint --out x.parquet` file back,
// checks its column names and types, and returns "id<TAB>bits" lines.
func readFingerprintParquet(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	size, err := arrowguard.Size(f)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := arrowguard.ReadParquet(f, size, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	// Names and types; a list's element field is named "list" once read
	// back from Parquet, "item" in Arrow, so element types are compared.
	got, want := tbl.Schema().Fields(), fptable.Schema().Fields()
	if len(got) != len(want) {
		t.Fatalf("schema %v, want %v", tbl.Schema(), fptable.Schema())
	}
	for i := range want {
		g, w := got[i].Type, want[i].Type
		if gl, ok := g.(*arrow.ListType); ok {
			if wl, ok := w.(*arrow.ListType); ok {
				g, w = gl.Elem(), wl.Elem()
			}
		}
		if got[i].Name != want[i].Name || !arrow.TypeEqual(g, w) {
			t.Fatalf("column %d: %s %v, want %s %v", i, got[i].Name, got[i].Type, want[i].Name, want[i].Type)
		}
	}
	var lines []string
	ids := tbl.Column(0).Data().Chunks()
	bits := tbl.Column(2).Data().Chunks()
	for c := range ids {
		id, lst := ids[c].(*array.String), bits[c].(*array.List)
		vals := lst.ListValues().(*array.Int32)
		for i := 0; i < id.Len(); i++ {
			s, e := lst.ValueOffsets(i)
			var parts []string
			for k := s; k < e; k++ {
				parts = append(parts, strconv.Itoa(int(vals.Value(int(k)))))
			}
			lines = append(lines, id.Value(i)+"\t"+strings.Join(parts, " "))
		}
	}
	return lines
}

// TestFingerprintCatalogueErrors: a catalogue that cannot be read is an
// error naming file, line and column, and no --out file is left.
func TestFingerprintCatalogueErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name, body string
		args       []string
		code       int
		want       string
	}{
		{"badcid.csv", "name,cid,smiles\nx,abc,C\n", nil, 1, "badcid.csv:2:3: column \"cid\""},
		{"nosmiles.csv", "name,cid\nx,1\n", []string{"--drug-id-col", "cid"}, 1, "nosmiles.csv: the catalogue has no SMILES column"},
		{"named.csv", "name,cid\nx,1\n", []string{"--smiles-col", "smi"}, 1, `no SMILES column "smi"; the header has: name, cid`},
		{"flags.csv", "name,smiles\nx,C\n", []string{"--header", "--smiles-col", "smiles"}, 2, "--header reads id<TAB>smiles lines"},
		{"ext.csv", "name,smiles\nx,C\n", []string{"--out", filepath.Join(dir, "x.txt")}, 2, "want a .csv, .parquet or .arrow file"},
	}
	for _, c := range cases {
		p := write(c.name, c.body)
		outFile := filepath.Join(dir, c.name+".out.csv")
		args := append([]string{"fingerprint", "--quiet"}, c.args...)
		if c.code != 2 {
			args = append(args, "--out", outFile)
		}
		_, errs, code := runMain(t, "", append(args, p)...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", c.name, code, errs, c.code, c.want)
		}
		if _, err := os.Stat(outFile); err == nil {
			t.Errorf("%s: --out file left behind", c.name)
		}
	}
}

// TestFingerprintAlmanacCatalogue: the command, on the shared
// NCI-ALMANAC catalogue, writes one row per drug.
func TestFingerprintAlmanacCatalogue(t *testing.T) {
	path := shareddata.Path(t, "almanac", "drugs.csv")
	out := filepath.Join(t.TempDir(), "fp.parquet")
	if _, errs, code := runMain(t, "", "fingerprint", "--quiet", path, "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := readFingerprintParquet(t, out)
	f, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.TrimSpace(string(f)), "\n"); len(lines) != n {
		t.Errorf("%d rows, want %d (one per catalogue row)", len(lines), n)
	}
	// Busulfan, CID 2478: RDKit 2022.09.3 bits as in testdata/script/fingerprint_stdin.txtar.
	if !slices.Contains(lines, "2478\t7 13 33 80 91 123 225 350 452 480 526 650 667 692 695 706 873 887") {
		t.Errorf("no busulfan row with RDKit's bits")
	}
}

// FuzzFingerprintInput: any input on stdin (lines or a catalogue) gives an
// exit status of 0 or 1, never a panic, and a run that exits 0 ends with
// the count line.
func FuzzFingerprintInput(f *testing.F) {
	f.Add("busulfan\tCS(=O)(=O)OCCCCOS(=O)(=O)C\nx\n")
	f.Add("name,cid,smiles\nx,abc,C\n")
	f.Add("Name\tSMILES\nbenzene\tc1ccccc1\n\"unclosed\tC\n")
	f.Add("smiles\n\n")
	f.Add("PAR1garbage")
	f.Add("name,smiles\n\"a\tb\",C\n\"c\nd\",CC\n")
	f.Fuzz(func(t *testing.T, in string) {
		out, errs, code := runMain(t, in, "fingerprint", "--workers", "1")
		if code != 0 && code != 1 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if code == 0 && !strings.Contains(errs, " skipped (named above, not written) in ") {
			t.Fatalf("exit 0 without the count line: %q", errs)
		}
		if code == 0 && strings.Count(out, "\n") != strings.Count(out, "\t") {
			t.Fatalf("output lines are not id<TAB>bits: %q", out)
		}
	})
}
