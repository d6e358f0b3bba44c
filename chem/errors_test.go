package chem

import (
	"errors"
	"testing"
)

// TestParseErrors checks the error of each kind of bad input: the sentinel,
// the position and the whole message. RDKit 2022.09.3's MolFromSmiles
// refuses every one of these inputs too.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		in   string
		err  error
		pos  int
		want string
	}{
		{"", ErrSyntax, 0, `chem: smiles "": at end of input: syntax error: empty SMILES`},
		{"C1CC", ErrRing, 1, `chem: smiles "C1CC": at position 2: ring closure error: ring 1 never closed`},
		{"C11", ErrRing, 2, `chem: smiles "C11": at position 3: ring closure error: ring 1 closes on its own atom`},
		{"C12CC12", ErrRing, 6, `chem: smiles "C12CC12": at position 7: ring closure error: ring 2 duplicates an existing bond`},
		{"C(C", ErrBranch, 1, `chem: smiles "C(C": at position 2: unbalanced branch: '(' never closed`},
		{"CC)", ErrBranch, 2, `chem: smiles "CC)": at position 3: unbalanced branch: unmatched ')'`},
		{"C()C", ErrBranch, 2, `chem: smiles "C()C": at position 3: unbalanced branch: empty branch`},
		{"C((C))", ErrBranch, 2, `chem: smiles "C((C))": at position 3: unbalanced branch: a branch cannot start with '('`},
		{"C(1)CC1", ErrRing, 2, `chem: smiles "C(1)CC1": at position 3: ring closure error: a branch cannot start with a ring closure`},
		{"C.", ErrSyntax, 1, `chem: smiles "C.": at position 2: syntax error: '.' must be followed by an atom`},
		{"C..C", ErrSyntax, 2, `chem: smiles "C..C": at position 3: syntax error: '.' must follow an atom`},
		{"C==C", ErrSyntax, 2, `chem: smiles "C==C": at position 3: syntax error: two bond symbols in a row`},
		{"CC=", ErrSyntax, 2, `chem: smiles "CC=": at position 3: syntax error: bond "=" at the end`},
		{"Cx", ErrSyntax, 1, `chem: smiles "Cx": at position 2: syntax error: unexpected 'x'`},
		{"C[Xy]", ErrSyntax, 2, `chem: smiles "C[Xy]": at position 3: syntax error: unknown element symbol 'X'`},
		{"[C", ErrSyntax, 0, `chem: smiles "[C": at position 1: syntax error: '[' never closed`},
		{"[CH3+x]", ErrSyntax, 5, `chem: smiles "[CH3+x]": at position 6: syntax error: unexpected 'x' in bracket atom`},
		{"[#200]", ErrSyntax, 1, `chem: smiles "[#200]": at position 2: syntax error: expected an atomic number from 1 to 118 after '#'`},
		{"C%1CC", ErrRing, 1, `chem: smiles "C%1CC": at position 2: ring closure error: expected two digits (10 to 99) after '%'`},
		{"C(C)(C)(C)(C)C", ErrValence, 0, `chem: smiles "C(C)(C)(C)(C)C": at position 1: valence not permitted: explicit valence 5 of atom 0 (C) is greater than permitted`},
		{"CCO(C)C", ErrValence, 2, `chem: smiles "CCO(C)C": at position 3: valence not permitted: explicit valence 3 of atom 2 (O) is greater than permitted`},
		{"F=C", ErrValence, 0, `chem: smiles "F=C": at position 1: valence not permitted: explicit valence 2 of atom 0 (F) is greater than permitted`},
		{"[H+2]", ErrValence, 0, `chem: smiles "[H+2]": at position 1: valence not permitted: explicit valence 2 of atom 0 (H) is greater than permitted`},
		{"c1cccc1", ErrKekulize, 0, `chem: smiles "c1cccc1": at position 1: cannot kekulize: no Kekulé structure for the aromatic ring system of atom 0`},
		{"c1ccccc1n", ErrAromatic, 8, `chem: smiles "c1ccccc1n": at position 9: non-ring atom marked aromatic: atom 6 (N)`},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			_, err := ParseSMILES(c.in)
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v is not a *ParseError", err, err)
			}
			if !errors.Is(err, c.err) {
				t.Errorf("error %v does not wrap %v", err, c.err)
			}
			if pe.Pos != c.pos || pe.SMILES != c.in {
				t.Errorf("position %d in %q, want %d in %q", pe.Pos, pe.SMILES, c.pos, c.in)
			}
			if err.Error() != c.want {
				t.Errorf("message\n got %s\nwant %s", err, c.want)
			}
		})
	}
}

// TestMorganArguments checks the argument errors of MorganBits.
func TestMorganArguments(t *testing.T) {
	if _, err := MorganBits("CC", 2, 0); err == nil {
		t.Error("nBits 0 accepted")
	}
	if _, err := MorganBits("CC", -1, 1024); err == nil {
		t.Error("radius -1 accepted")
	}
	res, errs := MorganBitsAll([]string{"CC", "C1CC", "c1ccccc1"}, 3, 1024, 0)
	if errs[0] != nil || errs[2] != nil || errs[1] == nil || res[1] != nil {
		t.Errorf("MorganBitsAll: res %v errs %v", res, errs)
	}
	// benzene, RDKit 2022.09.3 GetMorganFingerprintAsBitVect(mol, 3, nBits=1024)
	if got := joinInts(res[2]); got != "64 208 389 849" {
		t.Errorf("benzene bits %s, want 64 208 389 849", got)
	}
}

// TestSMILESExtras checks what RDKit 2022.09.3 reads besides the SMILES
// itself: surrounding white space, a name after it, and the radical fields
// of a CXSMILES block. Expected bits: GetMorganFingerprintAsBitVect(mol, 3,
// nBits=1024) of MolFromSmiles on the same strings.
func TestSMILESExtras(t *testing.T) {
	cases := []struct{ in, want string }{
		{"CCO ethanol", "33 80 222 294 386 807"},
		{"c1ccccc1O phenol", "64 65 175 356 389 527 578 726 745 754 807 849 923"},
		{"  c1ccccc1O", "64 65 175 356 389 527 578 726 745 754 807 849 923"},
		{"CCO |^1:0|", "80 222 223 342 807 902"},
		{"C[C]C |^1:1|", "33 603 674 888"},
		{"CC(=O)O |c:1|", "33 389 508 650 807 893 1017"},
		{"c1ccccc1 |^1:0|", "64 335 388 389 535 553 576 662 790 849"},
		{"[CH3]C |^1:0|", "33 251"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			bits, err := MorganBits(c.in, 3, 1024)
			if err != nil {
				t.Fatal(err)
			}
			if got := joinInts(bits); got != c.want {
				t.Errorf("bits %s, want %s", got, c.want)
			}
		})
	}
	if _, err := ParseSMILES("CCO |"); err == nil {
		t.Error(`"CCO |" accepted; RDKit 2022.09.3 refuses it`)
	}
	// RDKit returns a molecule without atoms for blank input; we refuse it
	// (an empty fingerprint would hide a missing structure).
	if _, err := ParseSMILES("   "); !errors.Is(err, ErrSyntax) {
		t.Errorf("blank input: error %v, want ErrSyntax", err)
	}
}
