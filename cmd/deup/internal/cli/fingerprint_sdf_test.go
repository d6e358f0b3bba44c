package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/internal/shareddata"
)

// sdfEthanol and sdfPyridine are V2000 records written for these tests:
// ethanol with its hydrogen atoms drawn, pyridine in Kekulé form.
const sdfEthanol = `ethanol
  deup test

  4  3  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    2.0000    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
    3.0000    0.0000    0.0000 H   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  1  0
  3  4  1  0
M  END
>  <NSC>
85

$$$$
`

const sdfPyridine = `pyridine
  deup test

  6  6  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 N   0  0  0  0  0  0  0  0  0  0  0  0
    1.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    2.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    3.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    4.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    5.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  2  0
  2  3  1  0
  3  4  2  0
  4  5  1  0
  5  6  2  0
  6  1  1  0
M  END
>  <NSC>
1234

$$$$
`

// TestFingerprintSDF checks that an SD file gives the same id<TAB>bits
// lines as the same molecules written as SMILES (whose bits are RDKit's,
// TestFingerprintReference), with the id from the title or from --id-field.
func TestFingerprintSDF(t *testing.T) {
	smiles, _, code := runMain(t, "85\tCCO\n1234\tc1ccncc1\n", "fingerprint", "--quiet")
	if code != 0 {
		t.Fatalf("smiles path: exit %d", code)
	}
	got, stderr, code := runMain(t, sdfEthanol+sdfPyridine, "fingerprint", "--quiet", "--format", "sdf", "--id-field", "NSC")
	if code != 0 || got != smiles {
		t.Errorf("--format sdf --id-field NSC: exit %d, stderr %q\n got  %q\n want %q", code, stderr, got, smiles)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "two.sdf")
	if err := os.WriteFile(p, []byte(sdfEthanol+sdfPyridine), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _, code = runMain(t, "", "fingerprint", "--quiet", p)
	want := strings.Replace(strings.Replace(smiles, "85\t", "ethanol\t", 1), "1234\t", "pyridine\t", 1)
	if code != 0 || got != want {
		t.Errorf("by extension, title ids: exit %d\n got  %q\n want %q", code, got, want)
	}
	// a record without the id field is reported, not written
	got, stderr, code = runMain(t, sdfEthanol+strings.Replace(sdfPyridine, "NSC", "CAS", 1), "fingerprint", "--quiet", "--format", "sdf", "--id-field", "NSC")
	if code != 0 || strings.Count(got, "\n") != 1 || !strings.Contains(stderr, `stdin:17: record "pyridine" has no data item <NSC>`) {
		t.Errorf("missing id: exit %d, stdout %q, stderr %q", code, got, stderr)
	}
	if _, stderr, code := runMain(t, "", "fingerprint", "--id-field", "NSC"); code != 2 || !strings.Contains(stderr, "--id-field") {
		t.Errorf("--id-field on SMILES input: exit %d, stderr %q", code, stderr)
	}
}

// TestFingerprintSDFAlmanac fingerprints NCI's ComboCompoundSet.sdf: 104
// records, cisplatin (119875) and oxaliplatin (266046) refused as RDKit
// refuses them (skipped and reported, as every command does with a bad row:
// not written, named on stderr, counted, exit 0), busulfan (NSC 750)
// with RDKit 2022.09.3's bits (rdkit_morgan.tsv, almanac:Busulfan).
func TestFingerprintSDFAlmanac(t *testing.T) {
	sdf := shareddata.Path(t, "almanac_raw", "ComboCompoundSet.sdf")
	out, stderr, code := runMain(t, "", "fingerprint", "--id-field", "NSC", sdf)
	if code != 0 {
		t.Errorf("exit %d, want 0 (two structures refused: skipped and reported)", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 102 {
		t.Errorf("%d lines, want 102 (104 records, 2 refused)", len(lines))
	}
	for _, nsc := range []string{"119875", "266046"} {
		if strings.Contains(out, "\n"+nsc+"\t") || !strings.Contains(stderr, "id "+nsc+" ") {
			t.Errorf("NSC %s written or not reported; stderr %q", nsc, stderr)
		}
	}
	if !strings.Contains(stderr, "deup fingerprint: 102 molecules written, 2 skipped (named above, not written)") {
		t.Errorf("no count of the skipped; stderr %q", stderr)
	}
	const busulfan = "750\t7 13 33 80 91 123 225 350 452 480 526 650 667 692 695 706 873 887"
	ref, err := os.ReadFile(shareddata.Path(t, "fingerprints", "rdkit_morgan.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(ref), "\n") {
		if c := strings.Split(l, "\t"); c[0] == "almanac:Busulfan" && "750\t"+c[2] != busulfan {
			t.Fatalf("reference busulfan %s differs from this test's %s", c[2], busulfan)
		}
	}
	if !strings.Contains(out, busulfan+"\n") {
		t.Errorf("busulfan line differs from RDKit's %q", busulfan)
	}
}
