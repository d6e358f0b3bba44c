package chem

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/deup-screening/deup/internal/shareddata"
)

// refRow is one molecule of RDKit 2022.09.3's reference fingerprints.
type refRow struct {
	line       int
	id, smiles string
	r3b1024    string
	r2b2048    string
	r3unfolded string
}

func readReference(t testing.TB, path string) []refRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var rows []refRow
	line := 0
	for sc.Scan() {
		line++
		if line == 1 {
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 5 {
			t.Fatalf("%s:%d: %d columns, want 5", path, line, len(c))
		}
		rows = append(rows, refRow{line, c[0], c[1], c[2], c[3], c[4]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func joinInts(v []int) string {
	var b strings.Builder
	for i, x := range v {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(x))
	}
	return b.String()
}

func formatEnvs(envs []Environment) string {
	var b strings.Builder
	for i, e := range envs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatUint(uint64(e.ID), 10))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Count))
	}
	return b.String()
}

// TestRDKitReference compares every molecule of the reference file with
// RDKit 2022.09.3's GetMorganFingerprintAsBitVect (r=3, 1024 bits; r=2,
// 2048 bits) and GetMorganFingerprint (r=3, unfolded).
func TestRDKitReference(t *testing.T) {
	compareReference(t, referencePath(t))
}

// TestRDKitTricky compares hand-picked hard cases (porphyrins, C60, cages,
// metal salts, isotopes, ylides, charged aromatics, radicals; testdata/
// tricky.txt) as written and as RDKit rewrites them, aromatic and Kekulé,
// with RDKit 2022.09.3's output (testdata/mk_tricky.py).
func TestRDKitTricky(t *testing.T) {
	compareReference(t, filepath.Join("testdata", "rdkit_tricky.tsv"))
}

func referencePath(t testing.TB) string {
	return shareddata.Path(t, "fingerprints", "rdkit_morgan.tsv")
}

// TestRDKitExtraReference compares a further file in the same format,
// named by $DEUP_CHEM_EXTRA_REF (for example RDKit output for a catalogue
// the tests have never seen); skipped when unset.
func TestRDKitExtraReference(t *testing.T) {
	p := os.Getenv("DEUP_CHEM_EXTRA_REF")
	if p == "" {
		t.Skip("DEUP_CHEM_EXTRA_REF not set")
	}
	compareReference(t, p)
}

func compareReference(t *testing.T, path string) {
	name := filepath.Base(path)
	rows := readReference(t, path)
	bad := 0
	var fp Fingerprinter // reused across all molecules, as MorganBitsAll does
	for _, r := range rows {
		if got, err := fp.Bits(r.smiles, 3, 1024); err == nil && joinInts(got) != r.r3b1024 {
			t.Errorf("%s:%d %s: reused Fingerprinter gives %s, want %s", name, r.line, r.id, joinInts(got), r.r3b1024)
		}
		m, err := ParseSMILES(r.smiles)
		if err != nil {
			bad++
			if bad <= 100 {
				t.Errorf("%s:%d %s: %v", name, r.line, r.id, err)
			}
			continue
		}
		got1 := joinInts(MorganBitsOf(m, 3, 1024))
		got2 := joinInts(MorganBitsOf(m, 2, 2048))
		got3 := formatEnvs(MorganEnvironments(m, 3))
		if got1 != r.r3b1024 || got2 != r.r2b2048 || got3 != r.r3unfolded {
			bad++
			if bad <= 100 {
				t.Errorf("%s:%d %s %s:\n r3/1024 got  %s\n         want %s\n unfolded got  %s\n          want %s",
					name, r.line, r.id, r.smiles, got1, r.r3b1024, got3, r.r3unfolded)
			}
		}
	}
	t.Logf("%d/%d molecules identical to RDKit 2022.09.3 (%.2f%%)", len(rows)-bad, len(rows), 100*float64(len(rows)-bad)/float64(len(rows)))
}

// TestRDKitRejected checks that every molecule RDKit 2022.09.3 refuses
// (rdkit_rejected.tsv, and the file named by $DEUP_CHEM_EXTRA_REJECTED if
// set; columns id, smiles, ...) is refused here too.
func TestRDKitRejected(t *testing.T) {
	paths := []string{shareddata.Path(t, "fingerprints", "rdkit_rejected.tsv"), filepath.Join("testdata", "rdkit_tricky_rejected.tsv")}
	if p := os.Getenv("DEUP_CHEM_EXTRA_REJECTED"); p != "" {
		paths = append(paths, p)
	}
	var fp Fingerprinter
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		line, n, accepted := 0, 0, 0
		for sc.Scan() {
			line++
			if line == 1 {
				continue
			}
			c := strings.Split(sc.Text(), "\t")
			if len(c) < 2 {
				t.Fatalf("%s:%d: want id<TAB>smiles", path, line)
			}
			n++
			// a refused molecule must leave a reused Fingerprinter clean
			if _, err := fp.Bits(c[1], 3, 1024); err == nil {
				t.Errorf("%s:%d: reused Fingerprinter accepts %q", filepath.Base(path), line, c[1])
			}
			if got, _ := fp.Bits("c1ccccc1", 3, 1024); joinInts(got) != "64 208 389 849" {
				t.Fatalf("%s:%d: benzene after %q gives %v", filepath.Base(path), line, c[1], got)
			}
			if _, err := ParseSMILES(c[1]); err == nil {
				accepted++
				if accepted <= 10 {
					t.Errorf("%s:%d %s: %q accepted, RDKit refuses it", filepath.Base(path), line, c[0], c[1])
				}
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d/%d refused like RDKit", filepath.Base(path), n-accepted, n)
	}
}

// TestMorganBitsAllMatchesReference runs the batch API on several workers
// over the reference file (RDKit 2022.09.3's morgan_r2_2048 column).
func TestMorganBitsAllMatchesReference(t *testing.T) {
	rows := readReference(t, referencePath(t))
	smiles := make([]string, len(rows))
	for i, r := range rows {
		smiles[i] = r.smiles
	}
	res, errs := MorganBitsAll(smiles, 2, 2048, 3)
	for i, r := range rows {
		if errs[i] != nil {
			t.Errorf("%s: %v", r.id, errs[i])
			continue
		}
		if got := joinInts(res[i]); got != r.r2b2048 {
			t.Errorf("%s: got %s, want %s", r.id, got, r.r2b2048)
		}
	}
}
