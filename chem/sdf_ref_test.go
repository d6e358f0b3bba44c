package chem

import (
	"bufio"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/deup-screening/deup/internal/shareddata"
)

// normName folds a drug name for matching across NCI's and the reference
// catalogue's spellings: lower case, letters and digits only.
func normName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// envIDs drops the ":count" of each "id:count" of a formatted unfolded
// fingerprint.
func envIDs(s string) string {
	f := strings.Fields(s)
	for i, x := range f {
		f[i], _, _ = strings.Cut(x, ":")
	}
	return strings.Join(f, " ")
}

func readNames(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.SplitN(strings.TrimRight(sc.Text(), "\r"), "\t", 2)
		if len(c) == 2 {
			names[strings.TrimSpace(c[0])] = strings.TrimSpace(c[1])
		}
	}
	return names
}

// differentDrawings are the ComboCompoundSet.sdf records whose structure is
// not the molecule of the reference catalogue's SMILES (so the reference
// fingerprints cannot apply): another tautomer, ring form, or salt drawn
// with different charges or bonds.
var differentDrawings = map[string]string{
	"45388":  "Dacarbazine: the other imidazole tautomer",
	"85998":  "Streptozocin: the open-chain aldehyde, not the pyranose",
	"125066": "Bleomycin: the other imidazole tautomer",
	"218321": "Pentostatin: another tautomer of the diazepine ring",
	"241240": "Carboplatin: drawn with bonds to Pt, the reference as ions",
	"698037": "Pemetrexed: drawn as the free acid, the reference as the disodium salt",
}

// TestSDFAgainstRDKit reads NCI's ComboCompoundSet.sdf and compares every
// structure with RDKit 2022.09.3's fingerprints of the same drug in the
// shared reference (rdkit_morgan.tsv, ids "almanac:NAME", matched through
// ComboCompoundNames_small.txt): the whole molecule where the SDF draws
// the same salt form, the largest fragment where only the counter-ions
// differ. Cisplatin and oxaliplatin must be refused, as RDKit refuses them.
// Every accepted structure must also fingerprint the same written as
// SMILES and read back through ParseSMILES.
func TestSDFAgainstRDKit(t *testing.T) {
	sdf := shareddata.Path(t, "almanac_raw", "ComboCompoundSet.sdf")
	names := readNames(t, shareddata.Path(t, "almanac_raw", "ComboCompoundNames_small.txt"))
	ref := map[string]refRow{}
	for _, r := range readReference(t, referencePath(t)) {
		if n, ok := strings.CutPrefix(r.id, "almanac:"); ok {
			ref[normName(n)] = r
		}
	}
	f, err := os.Open(sdf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := NewSDReader(f, sdf)
	var n, whole, largest, different, noref, roundTrip int
	refused := map[string]bool{}
	c := LargestFragmentChooser{PreferOrganic: true}
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
		nsc, _ := rec.Field("NSC")
		name := names[nsc]
		if rec.Err != nil {
			refused[nsc] = true
			if !errors.Is(rec.Err, ErrValence) {
				t.Errorf("NSC %s %s: refused for another reason than valence: %v", nsc, name, rec.Err)
			}
			continue
		}
		got := joinInts(MorganBitsOf(rec.Mol, 3, 1024))
		w, _ := WriteSMILES(rec.Mol)
		if m2, err := ParseSMILES(w); err != nil {
			t.Errorf("NSC %s %s: written as %s, not read back: %v", nsc, name, w, err)
		} else if g2 := joinInts(MorganBitsOf(m2, 3, 1024)); g2 != got {
			t.Errorf("NSC %s %s: SDF bits %s, its SMILES %s gives %s", nsc, name, got, w, g2)
		} else {
			roundTrip++
		}
		r, ok := ref[normName(name)]
		switch {
		case !ok:
			noref++
			continue
		case differentDrawings[nsc] != "":
			different++
			continue
		}
		if got == r.r3b1024 {
			if g := joinInts(MorganBitsOf(rec.Mol, 2, 2048)); g != r.r2b2048 {
				t.Errorf("NSC %s %s: radius 2 / 2048 bits %s, RDKit %s", nsc, name, g, r.r2b2048)
			}
			// identifiers only: the counts differ where the SDF draws fewer
			// copies of a counter-ion (quinacrine's HCl, vinorelbine's tartrate)
			if g := envIDs(formatEnvs(MorganEnvironments(rec.Mol, 3))); g != envIDs(r.r3unfolded) {
				t.Errorf("NSC %s %s: unfolded %s, RDKit %s", nsc, name, g, r.r3unfolded)
			}
			whole++
			continue
		}
		rm, err := ParseSMILES(r.smiles)
		if err != nil {
			t.Fatal(err)
		}
		fa, fb := c.Choose(rec.Mol), c.Choose(rm)
		ga := joinInts(MorganBitsOf(rec.Mol.Fragment(fa.Atoms), 3, 1024))
		if gb := r.r3b1024; fb.Dropped() || fa.Dropped() {
			gb = joinInts(MorganBitsOf(rm.Fragment(fb.Atoms), 3, 1024))
			if ga == gb {
				largest++
				continue
			}
		}
		t.Errorf("NSC %s %s: bits %s (as SMILES %s), RDKit's %s gives %s", nsc, name, got, w, r.smiles, r.r3b1024)
	}
	if n != 104 {
		t.Errorf("%d records, want 104", n)
	}
	if len(refused) != 2 || !refused["119875"] || !refused["266046"] {
		t.Errorf("refused %v, want cisplatin (119875) and oxaliplatin (266046)", refused)
	}
	if whole+largest != 80 {
		t.Errorf("%d identical to RDKit (%d whole, %d largest fragment), want 80", whole+largest, whole, largest)
	}
	t.Logf("%d records: %d refused as RDKit refuses them; of %d accepted, %d equal RDKit's reference bits (whole molecule: %d, largest fragment where the reference draws other counter-ions: %d), %d drawn as another tautomer or form than the reference, %d without a reference; %d round-trip through SMILES",
		n, len(refused), n-len(refused), whole+largest, whole, largest, different, noref, roundTrip)
}
