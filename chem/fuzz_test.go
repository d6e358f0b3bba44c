package chem

import (
	"errors"
	"testing"
)

// FuzzParseSMILES checks that no input panics, that every error is a
// *ParseError with a position inside the input, and that a parsed molecule
// written back as SMILES parses to the same graph with the same Morgan
// fingerprint.
func FuzzParseSMILES(f *testing.F) {
	for _, s := range []string{
		"C", "c1ccccc1", "C1=CC=CC=C1", "CC(=O)Oc1ccccc1C(=O)O", "[Na+].[Cl-]",
		"[2H]C([2H])([2H])Cl", "CN(=O)=O", "C[C@H](N)C(=O)O", "F/C=C/F", "C%12CC%12",
		"C%(123)CC%(123)", "c1cc[nH]c1", "O=c1cc[nH]cc1", "[O-][n+]1ccccc1", "C#N", "C$C",
		"[Cu+2]", "[Fe]", "C->[Fe]", "[NH4+]", "[13CH4]", "[C:1]", "*C", "c1ccc2c(c1)[se]cc2",
		"Cl(=O)(=O)(=O)O", "C=P(=O)(C)C", "N=[N+]=[N-]", "C1CC2CCC1C2", "[H][H]", "[H]C([H])([H])[H]",
		"C1CC->1", "C1CC<-1", "C->1CC1", "[Fe]1<-NCCN->1", "C1CC", "C(", "C)", "[C", "c1cccc1", "C(C)(C)(C)(C)C", "", "C..C", "C==C", "[Xx]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseSMILES(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("%q: error %v is not a *ParseError", s, err)
			}
			if pe.Pos < 0 || pe.Pos > len(s) {
				t.Fatalf("%q: error position %d outside the input: %v", s, pe.Pos, err)
			}
			if err.Error() == "" {
				t.Fatalf("%q: empty error message", s)
			}
			return
		}
		for _, a := range m.Atoms {
			if a.Element == 0 {
				// Dummy atoms may or may not take a double bond when
				// kekulized, so RDKit's own output does not round-trip
				// ("*1[b]*o1" gives "*1B=*O1", which reads back aromatic).
				return
			}
		}
		if !kekuleValenceOK(m) {
			// Aromatic input can pass RDKit's valence check only thanks to
			// the aromatic rule and then not be aromatic after perception
			// ("b1bbc2c(b1)[se]$c2"); RDKit cannot re-read its own output
			// for these either, so there is no round trip to check.
			return
		}
		w, order := WriteSMILES(m)
		m2, err := ParseSMILES(w)
		if err != nil && errors.Is(err, ErrKekulize) && aromaticBoron(m) {
			// An aromatic boron ring can be perceived aromatic although
			// only the input's explicit bond orders kekulize it; RDKit
			// 2022.09.3 writes the same lower-case SMILES and refuses it
			// too ("Bb1=Bb[b]bb1" -> "Bb1bbbbb1", TestWriteSMILESUnreadable).
			return
		}
		if err != nil {
			t.Fatalf("%q written as %q does not parse: %v", s, w, err)
		}
		if d := sameGraph(m, m2, order); d != "" {
			t.Fatalf("%q written as %q: %s", s, w, d)
		}
		e1, e2 := MorganEnvironments(m, 2), MorganEnvironments(m2, 2)
		if formatEnvs(e1) != formatEnvs(e2) {
			t.Fatalf("%q written as %q: Morgan environments differ:\n%s\n%s", s, w, formatEnvs(e1), formatEnvs(e2))
		}
	})
}

// kekuleValenceOK reports whether every atom of the perceived molecule
// passes the strict valence check with its perceived bonds.
func kekuleValenceOK(m *Mol) bool {
	c := &Mol{Atoms: append([]Atom(nil), m.Atoms...), Bonds: append([]Bond(nil), m.Bonds...)}
	c.buildAdjacency()
	for i := range c.Atoms {
		c.Atoms[i].HCount = c.Atoms[i].TotalHs()
		c.Atoms[i].Bracket = true
		if _, err := c.calcExplicitValence(i, true, false); err != nil {
			return false
		}
		if _, err := c.calcImplicitValence(i, true); err != nil {
			return false
		}
	}
	return true
}

// aromaticBoron reports whether m has a boron atom perceived aromatic.
func aromaticBoron(m *Mol) bool {
	for _, a := range m.Atoms {
		if a.Element == 5 && a.Aromatic {
			return true
		}
	}
	return false
}
