package chem

import (
	"encoding/csv"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/deup-screening/deup/internal/shareddata"
)

// The expected choices, sizes (atoms + hydrogens) and exact masses are
// RDKit 2022.09.3's (Debian python3-rdkit 202209.3-1):
// rdMolStandardize.LargestFragmentChooser(preferOrganic=...).choose(mol),
// sum(1+a.GetTotalNumHs()) over its atoms and Descriptors.ExactMolWt.
func TestLargestFragmentChooser(t *testing.T) {
	tests := []struct {
		name, smiles  string
		preferOrganic bool
		keep          int // index into Fragments()
		size          int
		mass          float64
		tied          bool
	}{
		{"hydrogens count", "CCCCCC.O=C(O)c1ccccc1", true, 0, 20, 86.109550448, false},
		{"organic preferred", "C.OS(=O)(=O)O", true, 0, 5, 16.031300127999998, false},
		{"largest without preference", "C.OS(=O)(=O)O", false, 1, 7, 97.96737954400001, false},
		{"organic beats heavier", "CO.NN", true, 0, 6, 32.026214748, false},
		{"exact mass breaks size tie", "CO.NN", false, 1, 6, 32.037448128, false},
		// HBr is heavier by average weights (80.91 vs 79.98), [SeH-] by
		// monoisotopic masses: RDKit uses the latter.
		{"monoisotopic not average", "Br.[SeH-]", true, 1, 2, 80.92489491191, false},
		{"no organic fragment", "[Na+].[Cl-]", true, 1, 1, 34.96940125991, false},
		{"isotope mass", "[2H]C.C", true, 0, 5, 17.037576874, false},
		{"identical counter-ions", "Cl.Cl.CN", true, 2, 7, 31.042199159999996, false},
		{"one fragment", "c1ccccc1", true, 0, 12, 78.046950192, false},
		{"charge removes electrons", "CC[NH3+].[Cl-]", true, 0, 11, 46.06512567608999, false},
		{"metal salt drawn as ions", "[Pt+2].[NH3].[NH3].[Cl-].[Cl-]", true, 1, 4, 17.026549096, false},
		// RDKit keeps CCO for both orders (canonical SMILES "CCO" < "COC");
		// without canonical SMILES the first is kept and the tie reported.
		{"isomer tie", "CCO.COC", true, 0, 9, 46.041864812, true},
		{"isomer tie reversed", "COC.CCO", true, 0, 9, 46.041864812, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseSMILES(tc.smiles)
			if err != nil {
				t.Fatal(err)
			}
			frags := m.Fragments()
			ch := LargestFragmentChooser{PreferOrganic: tc.preferOrganic}.Choose(m)
			if !slices.Equal(ch.Atoms, frags[tc.keep]) {
				t.Errorf("kept atoms %v, want fragment %d %v", ch.Atoms, tc.keep, frags[tc.keep])
			}
			if ch.NumFragments != len(frags) || ch.Dropped() != (len(frags) > 1) {
				t.Errorf("NumFragments %d, Dropped %v; %d fragments", ch.NumFragments, ch.Dropped(), len(frags))
			}
			if ch.Size != tc.size {
				t.Errorf("size %d, want %d", ch.Size, tc.size)
			}
			if d := ch.ExactMass - tc.mass; d > 1e-9 || d < -1e-9 {
				t.Errorf("exact mass %.12g, want %.12g", ch.ExactMass, tc.mass)
			}
			if ch.Tied != tc.tied {
				t.Errorf("tied %v, want %v", ch.Tied, tc.tied)
			}
		})
	}
}

func TestFragments(t *testing.T) {
	m, err := ParseSMILES("C1CC1.O.c1ccccc1C")
	if err != nil {
		t.Fatal(err)
	}
	got := m.Fragments()
	want := [][]int{{0, 1, 2}, {3}, {4, 5, 6, 7, 8, 9, 10}}
	if !slices.EqualFunc(got, want, slices.Equal[[]int]) {
		t.Fatalf("fragments %v, want %v", got, want)
	}
	if n := len((&Mol{}).Fragments()); n != 0 {
		t.Errorf("empty molecule: %d fragments", n)
	}
}

// topLevelParts splits a SMILES at the dots outside brackets; ok is false
// when a ring closure is open at a dot (a bond across the dot).
func topLevelParts(s string) (parts []string, ok bool) {
	depth, start := 0, 0
	open := map[string]bool{}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case depth > 0:
		case c >= '0' && c <= '9':
			open[s[i:i+1]] = !open[s[i:i+1]]
		case c == '%' && i+2 < len(s):
			open[s[i:i+3]] = !open[s[i:i+3]]
			i += 2
		case c == '.':
			for _, o := range open {
				if o {
					return nil, false
				}
			}
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:]), true
}

// TestLargestFragmentBitsReal checks, on every multi-fragment SMILES of the
// shared catalogues, that the fingerprint of the kept fragment is the
// fingerprint of that fragment's own SMILES text parsed alone (whose RDKit
// parity TestReference checks). A one-off comparison against RDKit
// 2022.09.3 itself (LargestFragmentChooser(preferOrganic=True) then
// GetMorganFingerprintAsBitVect(frag, 3, 1024)) agreed on all 664 such
// SMILES of almanac/drugs.csv and drugcomb/drugs.csv.
func TestLargestFragmentBitsReal(t *testing.T) {
	var smiles []string
	for _, rel := range [][]string{{"almanac", "drugs.csv"}, {"drugcomb", "drugs.csv"}} {
		f, err := os.Open(shareddata.Path(t, rel...))
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		col := slices.Index(recs[0], "smiles")
		for _, r := range recs[1:] {
			if strings.Contains(r[col], ".") {
				smiles = append(smiles, r[col])
			}
		}
	}
	c := LargestFragmentChooser{PreferOrganic: true}
	bits, choices, errs := LargestFragmentBitsAll(smiles, 3, 1024, 0, c)
	checked := 0
	var fp Fingerprinter
	for i, s := range smiles {
		if errs[i] != nil {
			continue // refused as a whole molecule too (see rdkit_rejected.tsv)
		}
		parts, ok := topLevelParts(s)
		if !ok || len(parts) != choices[i].NumFragments {
			continue
		}
		m, err := ParseSMILES(s)
		if err != nil {
			t.Fatal(err)
		}
		k := slices.IndexFunc(m.Fragments(), func(f []int) bool { return f[0] == choices[i].Atoms[0] })
		want, err := fp.Bits(parts[k], 3, 1024)
		if err != nil {
			t.Fatalf("%s: fragment %q: %v", s, parts[k], err)
		}
		if !slices.Equal(bits[i], want) {
			t.Errorf("%s: kept fragment %q: bits %v, want %v", s, parts[k], bits[i], want)
		}
		checked++
	}
	if checked < 600 {
		t.Errorf("only %d of %d multi-fragment SMILES checked", checked, len(smiles))
	}
}

// Vincristine sulfate (NCI-ALMANAC, PubChem CID 249332) is vincristine and
// sulfuric acid: the kept fragment has no sulfur and its fingerprint
// differs from that of the whole salt.
func TestLargestFragmentVincristineSulfate(t *testing.T) {
	f, err := os.Open(shareddata.Path(t, "almanac", "drugs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var smiles string
	for _, r := range recs {
		if r[1] == "249332" {
			smiles = r[2]
		}
	}
	if smiles == "" {
		t.Fatal("CID 249332 not in almanac/drugs.csv")
	}
	m, err := ParseSMILES(smiles)
	if err != nil {
		t.Fatal(err)
	}
	ch := LargestFragmentChooser{PreferOrganic: true}.Choose(m)
	if ch.NumFragments != 2 {
		t.Fatalf("%d fragments, want 2", ch.NumFragments)
	}
	for _, a := range ch.Atoms {
		if m.Atoms[a].Element == 16 {
			t.Fatalf("kept fragment has a sulfur atom (%d)", a)
		}
	}
	var fp Fingerprinter
	whole, err := fp.Bits(smiles, 3, 1024)
	if err != nil {
		t.Fatal(err)
	}
	kept, _, err := fp.LargestFragmentBits(smiles, 3, 1024, LargestFragmentChooser{PreferOrganic: true})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(whole, kept) || len(kept) >= len(whole) {
		t.Errorf("kept fragment bits (%d) should be a strict subset of the salt's (%d)", len(kept), len(whole))
	}
	for _, b := range kept {
		if _, ok := slices.BinarySearch(whole, b); !ok {
			t.Errorf("bit %d of vincristine not in vincristine sulfate", b)
		}
	}
}

// FuzzLargestFragment checks that choosing a fragment never panics, that
// the fragments partition the atoms, and that the Morgan environments of
// a molecule are those of its fragments taken alone (environments never
// cross a dot), which is what makes the fingerprint of a kept fragment
// the fingerprint of that fragment as a molecule.
func FuzzLargestFragment(f *testing.F) {
	for _, s := range []string{
		"[Na+].[Cl-]", "CC(=O)O.c1ccccc1", "C1CC1.O.c1ccccc1C", "CCO.COC", "[2H]C.C",
		"c1ccc2ccccc2c1.[NH4+]", "C1.C1", "[Pt+2].[NH3].[NH3].[Cl-].[Cl-]", "C", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseSMILES(s)
		if err != nil {
			return
		}
		ch := LargestFragmentChooser{PreferOrganic: true}.Choose(m)
		frags := m.Fragments()
		if ch.NumFragments != len(frags) {
			t.Fatalf("%q: NumFragments %d, %d fragments", s, ch.NumFragments, len(frags))
		}
		seen := make([]bool, m.NumAtoms())
		var ids []uint32
		for _, fr := range frags {
			for _, a := range fr {
				if seen[a] {
					t.Fatalf("%q: atom %d in two fragments", s, a)
				}
				seen[a] = true
			}
			ids = morganIDs(m.Fragment(fr), 2, ids)
		}
		if slices.Contains(seen, false) {
			t.Fatalf("%q: fragments %v miss atoms", s, frags)
		}
		whole := morganIDs(m, 2, nil)
		slices.Sort(whole)
		slices.Sort(ids)
		if !slices.Equal(whole, ids) {
			t.Fatalf("%q: environments of the fragments %v differ from the molecule's %v", s, ids, whole)
		}
	})
}

// BenchmarkLargestFragmentBits is BenchmarkFingerprinter with the largest
// organic fragment chosen first (what the model features do by default).
func BenchmarkLargestFragmentBits(b *testing.B) {
	smiles := referenceSMILES(b)
	var f Fingerprinter
	c := LargestFragmentChooser{PreferOrganic: true}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		for _, s := range smiles {
			if _, _, err := f.LargestFragmentBits(s, 3, 1024, c); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportThroughput(b, len(smiles), cpu0)
}
