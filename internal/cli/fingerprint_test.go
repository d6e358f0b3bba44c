package cli

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/deup-screening/deup/internal/shareddata"
)

// updateFingerprint rewrites the golden files of the fingerprint command
// (go test ./internal/cli -run Fingerprint -update-fingerprint).
var updateFingerprint = flag.Bool("update-fingerprint", false, "rewrite testdata/fingerprint_* golden files")

func runMain(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *updateFingerprint {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update-fingerprint to create)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", p, got, want)
	}
}

// throughput matches the timing line, whose numbers vary from run to run.
var throughput = regexp.MustCompile(`(?m)^deup fingerprint: (\d+) molecules \((\d+) failed\) in .*\n`)

func TestFingerprintCommand(t *testing.T) {
	// Expected bits: RDKit 2022.09.3 GetMorganFingerprintAsBitVect
	// (the same molecules as in rdkit_morgan.tsv: almanac Busulfan;
	// benzene computed with python3-rdkit).
	input := "busulfan\tCS(=O)(=O)OCCCCOS(=O)(=O)C\n" +
		"benzene\tc1ccccc1\textra column ignored\n" +
		"bad-ring\tC1CC\n" +
		"pentavalent-carbon\tC(C)(C)(C)(C)C\n" +
		"no tab on this line\n" +
		"kekulize\tc1cccc1\n"
	cases := []struct {
		name string
		args []string
	}{
		{"default", []string{"fingerprint", "--workers", "2"}},
		{"r2_2048", []string{"fingerprint", "--radius", "2", "--bits", "2048"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := runMain(t, input, c.args...)
			if code != 1 {
				t.Errorf("exit status %d, want 1 (some molecules failed)", code)
			}
			m := throughput.FindStringSubmatch(errs)
			if m == nil || m[1] != "5" || m[2] != "4" {
				t.Errorf("throughput line missing or wrong in stderr:\n%s", errs)
			}
			golden(t, "fingerprint_"+c.name+".stdout", out)
			golden(t, "fingerprint_"+c.name+".stderr", throughput.ReplaceAllString(errs, "deup fingerprint: $1 molecules ($2 failed) in TIME\n"))
		})
	}
}

func TestFingerprintHelpAndUsage(t *testing.T) {
	errs, _, code := runMain(t, "", "fingerprint", "-h") // help goes to stdout
	if code != 0 {
		t.Errorf("-h: exit %d", code)
	}
	golden(t, "fingerprint_help.stderr", errs)
	for _, args := range [][]string{
		{"fingerprint", "--bits", "0"},
		{"fingerprint", "--radius", "-1"},
		{"fingerprint", "a", "b"},
	} {
		if _, _, code := runMain(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if _, errs, code := runMain(t, "", "fingerprint", "/nonexistent/file.tsv"); code != 1 || !strings.Contains(errs, "no such file") {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
}

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
