package chem

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/deup-screening/deup/internal/shareddata"
)

// molAtom and molBond describe a test molfile.
type molAtom struct {
	sym  string
	chg  int // charge code of the atom block (0-7)
	mass int // mass difference
}
type molBond struct{ a, b, typ, stereo int }

// molfile writes a V2000 molfile in the fixed columns of the CTAB spec,
// with the given property lines before "M  END".
func molfile(title string, atoms []molAtom, bonds []molBond, props ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n  deup test\n\n%3d%3d  0  0  0  0  0  0  0  0999 V2000\n", title, len(atoms), len(bonds))
	for i, a := range atoms {
		fmt.Fprintf(&b, "%10.4f%10.4f%10.4f %-3s%2d%3d  0  0  0  0  0  0  0  0  0  0\n", float64(i), 0.0, 0.0, a.sym, a.mass, a.chg)
	}
	for _, bd := range bonds {
		fmt.Fprintf(&b, "%3d%3d%3d%3d\n", bd.a, bd.b, bd.typ, bd.stereo)
	}
	for _, p := range props {
		b.WriteString(p + "\n")
	}
	b.WriteString("M  END\n")
	return b.String()
}

func atoms(syms ...string) []molAtom {
	a := make([]molAtom, len(syms))
	for i, s := range syms {
		a[i].sym = s
	}
	return a
}

// TestParseMolfile reads small molfiles whose expected molecule is given
// as SMILES: the Morgan identifiers (radius 3, with counts) must be those of
// the SMILES, which the SMILES path computes as RDKit 2022.09.3 does
// (TestRDKitReference); each case states the molfile rule it checks (CTAB
// spec, RDKit's MolFileParser).
func TestParseMolfile(t *testing.T) {
	ethanolH := []molBond{{1, 2, 1, 0}, {2, 3, 1, 0}, {1, 4, 1, 0}, {1, 5, 1, 0}, {1, 6, 1, 0}, {2, 7, 1, 1}, {2, 8, 1, 6}, {3, 9, 1, 0}}
	benzene := []molBond{{1, 2, 4, 0}, {2, 3, 4, 0}, {3, 4, 4, 0}, {4, 5, 4, 0}, {5, 6, 4, 0}, {6, 1, 4, 0}}
	kekule := []molBond{{1, 2, 2, 0}, {2, 3, 1, 0}, {3, 4, 2, 0}, {4, 5, 1, 0}, {5, 6, 2, 0}, {6, 1, 1, 0}}
	for _, c := range []struct {
		name, mol, smiles string
	}{
		{"explicit hydrogens removed, wedges ignored", molfile("ethanol", atoms("C", "C", "O", "H", "H", "H", "H", "H", "H"), ethanolH), "CCO"},
		{"aromatic bond type 4", molfile("benzene", atoms("C", "C", "C", "C", "C", "C"), benzene), "c1ccccc1"},
		{"Kekulé benzene perceived aromatic", molfile("benzene", atoms("C", "C", "C", "C", "C", "C"), kekule), "c1ccccc1"},
		{"pyridine N in Kekulé form", molfile("pyridine", atoms("N", "C", "C", "C", "C", "C"), kekule), "c1ccncc1"},
		{"M  CHG: implicit hydrogens follow the charge", molfile("ammonium", atoms("N"), nil, "M  CHG  1   1   1"), "[NH4+]"},
		{"charge code 3 (+1) in the atom block", molfile("TMA", []molAtom{{sym: "N", chg: 3}, {sym: "C"}, {sym: "C"}, {sym: "C"}, {sym: "C"}}, []molBond{{1, 2, 1, 0}, {1, 3, 1, 0}, {1, 4, 1, 0}, {1, 5, 1, 0}}), "C[N+](C)(C)C"},
		{"charge code 5 (-1) in the atom block", molfile("acetate", []molAtom{{sym: "C"}, {sym: "C"}, {sym: "O"}, {sym: "O", chg: 5}}, []molBond{{1, 2, 1, 0}, {2, 3, 2, 0}, {2, 4, 1, 0}}), "CC(=O)[O-]"},
		{"the first M  CHG line clears the atom block's charges", molfile("methylamine", []molAtom{{sym: "C"}, {sym: "N", chg: 3}}, []molBond{{1, 2, 1, 0}}, "M  CHG  1   1   0"), "CN"},
		{"M  ISO", molfile("13C-methane", atoms("C"), nil, "M  ISO  1   1  13"), "[13CH4]"},
		{"mass difference +1 on carbon", molfile("13C-methane", []molAtom{{sym: "C", mass: 1}}, nil), "[13CH4]"},
		{"D is deuterium and stays", molfile("CDH3", atoms("C", "D"), []molBond{{1, 2, 1, 0}}), "[2H]C"},
		{"nitro drawn with five bonds to N is charge-separated", molfile("nitromethane", atoms("C", "N", "O", "O"), []molBond{{1, 2, 1, 0}, {2, 3, 2, 0}, {2, 4, 2, 0}}), "C[N+](=O)[O-]"},
		{"a radical takes no implicit hydrogens", molfile("methyl", atoms("C", "H", "H", "H"), []molBond{{1, 2, 1, 0}, {1, 3, 1, 0}, {1, 4, 1, 0}}, "M  RAD  1   1   2"), "[CH3]"},
		{"aromatic bonds with the N-H drawn (pyrrole)", molfile("pyrrole", atoms("N", "C", "C", "C", "C", "H"), []molBond{{1, 2, 4, 0}, {2, 3, 4, 0}, {3, 4, 4, 0}, {4, 5, 4, 0}, {5, 1, 4, 0}, {1, 6, 1, 0}}), "c1cc[nH]c1"},
		{"Kekulé pyrrole, N-H implicit", molfile("pyrrole", atoms("N", "C", "C", "C", "C"), []molBond{{1, 2, 1, 0}, {2, 3, 2, 0}, {3, 4, 1, 0}, {4, 5, 2, 0}, {5, 1, 1, 0}}), "c1cc[nH]c1"},
		{"salt: two fragments", molfile("NaCl", atoms("Na", "Cl"), nil, "M  CHG  2   1   1   2  -1"), "[Na+].[Cl-]"},
		{"Pt with neutral ligands and anionic oxygens drawn as bonds (carboplatin-like) is accepted", molfile("Pt", atoms("Pt", "N", "N", "O", "O", "C", "C"), []molBond{{1, 2, 1, 0}, {1, 3, 1, 0}, {1, 4, 1, 0}, {1, 5, 1, 0}, {4, 6, 1, 0}, {5, 7, 1, 0}}), "CO[Pt](N)(N)OC"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := ParseMolfile(c.mol)
			if err != nil {
				t.Fatalf("%v\n%s", err, c.mol)
			}
			want, err := ParseSMILES(c.smiles)
			if err != nil {
				t.Fatal(err)
			}
			g, w := formatEnvs(MorganEnvironments(m, 3)), formatEnvs(MorganEnvironments(want, 3))
			if g != w {
				s, _ := WriteSMILES(m)
				t.Errorf("molfile read as %s\n got  %s\n want %s (%s)", s, g, w, c.smiles)
			}
		})
	}
}

// TestMolfileKeptHydrogens checks the hydrogen atoms RDKit's removeHs
// keeps after MolFromMolBlock (RemoveHsParameters defaults): those in a
// substance group (removeInSGroups=false) and the one that defines a
// double bond's geometry (removeDefiningBondStereo=false; RDKit's own test
// keeps the H of F/C=N/[H]), but not when the double bond has no geometry.
func TestMolfileKeptHydrogens(t *testing.T) {
	for _, c := range []struct {
		name  string
		mol   string
		atoms int
	}{
		{"plain O-H removed", molfile("m", atoms("C", "O", "H"), []molBond{{1, 2, 1, 0}, {2, 3, 1, 0}}), 2},
		{"O-H in a substance group kept", molfile("m", atoms("C", "O", "H"), []molBond{{1, 2, 1, 0}, {2, 3, 1, 0}}, "M  STY  1   1 SUP", "M  SAL   1  1   3"), 3},
		{"imine N-H defining C=N geometry kept", molfile("m", atoms("F", "C", "N", "H"), []molBond{{1, 2, 1, 0}, {2, 3, 2, 0}, {3, 4, 1, 0}}), 4},
		{"imine N-H with the double bond drawn either way removed", molfile("m", atoms("F", "C", "N", "H"), []molBond{{1, 2, 1, 0}, {2, 3, 2, 3}, {3, 4, 1, 0}}), 3},
		{"N-H of CH2=NH removed (no geometry: the carbon has no other neighbour)", molfile("m", atoms("C", "N", "H"), []molBond{{1, 2, 2, 0}, {2, 3, 1, 0}}), 2},
	} {
		m, err := ParseMolfile(c.mol)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if m.NumAtoms() != c.atoms {
			t.Errorf("%s: %d atoms, want %d", c.name, m.NumAtoms(), c.atoms)
		}
	}
}

// TestParseMolfileErrors checks the refusals: RDKit's valence errors (NCI's
// cisplatin drawing, RDKit 2022.09.3 refuses it: "Explicit valence for
// atom # 0 Cl, 2, is greater than permitted"), V3000, and malformed lines
// with the line they name.
func TestParseMolfileErrors(t *testing.T) {
	cisplatin := molfile("119875", []molAtom{{sym: "Cl", chg: 5}, {sym: "Pt", chg: 2}, {sym: "Cl", chg: 5}, {sym: "N"}, {sym: "N"}},
		[]molBond{{1, 2, 1, 0}, {2, 3, 1, 0}, {2, 4, 1, 0}, {2, 5, 1, 0}}, "M  CHG  3   1  -1   2   2   3  -1")
	good := molfile("x", atoms("C", "O"), []molBond{{1, 2, 1, 0}})
	lines := strings.Split(good, "\n")
	with := func(i int, l string) string {
		c := append([]string(nil), lines...)
		c[i] = l
		return strings.Join(c, "\n")
	}
	for _, c := range []struct {
		name, mol string
		want      error
		line      int
	}{
		{"cisplatin as NCI draws it", cisplatin, ErrValence, 5},
		{"V3000", "x\n\n\n  0  0  0     0  0            999 V3000\nM  V30 BEGIN CTAB\nM  END\n", ErrV3000, 4},
		{"counts line not numbers", with(3, "abc"), ErrMolfile, 4},
		{"too few lines for the counts", with(3, " 5  1  0  0  0  0  0  0  0  0999 V2000"), ErrMolfile, 9},
		{"short atom line", with(4, "    0.0000    0.0000"), ErrMolfile, 5},
		{"unknown element", with(4, "    0.0000    0.0000    0.0000 Xq  0  0  0  0  0  0  0  0  0  0  0  0"), ErrMolfile, 5},
		{"bad coordinate", with(4, "    0.0x00    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0"), ErrMolfile, 5},
		{"charge code 9", with(4, "    0.0000    0.0000    0.0000 C   0  9  0  0  0  0  0  0  0  0  0  0"), ErrMolfile, 5},
		{"bond to a missing atom", with(6, "  1  3  1  0"), ErrMolfile, 7},
		{"query bond type", with(6, "  1  2  8  0"), ErrMolfile, 7},
		{"self bond", with(6, "  1  1  1  0"), ErrMolfile, 7},
		{"no M  END", strings.Replace(good, "M  END\n", "", 1), ErrMolfile, 8},
		{"M  CHG naming a missing atom", strings.Replace(good, "M  END", "M  CHG  1   7   1\nM  END", 1), ErrMolfile, 8},
		{"empty", "", ErrMolfile, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseMolfile(c.mol)
			var me *MolfileError
			if !errors.Is(err, c.want) || !errors.As(err, &me) {
				t.Fatalf("error %v, want %v as a *MolfileError", err, c.want)
			}
			if me.Line != c.line {
				t.Errorf("line %d, want %d: %v", me.Line, c.line, err)
			}
		})
	}
}

// TestSDReader reads records with data items, an empty record and a
// refused structure in the middle; lines are counted in the whole file.
func TestSDReader(t *testing.T) {
	bad := molfile("bad", atoms("C", "O"), []molBond{{1, 2, 5, 0}})
	sd := molfile("first", atoms("C", "O"), []molBond{{1, 2, 1, 0}}) + ">  <NSC>\n740\n\n> 12 <Name>\nline one\nline two\n\n$$$$\n$$$$\n" +
		bad + "> <NSC>\n9\n\n$$$$\n" + molfile("", atoms("N"), nil) + "$$$$\n\n"
	rd := NewSDReader(strings.NewReader(sd), "t.sdf")
	type got struct {
		title, nsc, name string
		line             int
		errLine          int
	}
	var res []got
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		g := got{title: rec.Title, line: rec.Line}
		g.nsc, _ = rec.Field("NSC")
		g.name, _ = rec.Field("Name")
		var me *MolfileError
		if errors.As(rec.Err, &me) {
			g.errLine = me.Line
		} else if rec.Err != nil || rec.Mol == nil {
			t.Fatalf("record %d: mol %v, error %v", len(res)+1, rec.Mol, rec.Err)
		}
		res = append(res, g)
	}
	want := []got{
		{"first", "740", "line one\nline two", 1, 0},
		{"bad", "9", "", 18, 24},
		{"", "", "", 30, 0},
	}
	if fmt.Sprint(res) != fmt.Sprint(want) {
		t.Errorf("records\n got  %v\n want %v", res, want)
	}
}

// FuzzParseMolfile checks that no input panics, that every error is a
// *MolfileError naming a line of the input (or the one after its end), and
// that a molecule read back fingerprints the same through its SMILES.
func FuzzParseMolfile(f *testing.F) {
	f.Add(molfile("ethanol", atoms("C", "C", "O", "H"), []molBond{{1, 2, 1, 0}, {2, 3, 1, 0}, {3, 4, 1, 0}}))
	f.Add(molfile("benzene", atoms("C", "C", "C", "C", "C", "N"), []molBond{{1, 2, 4, 0}, {2, 3, 4, 0}, {3, 4, 4, 0}, {4, 5, 4, 0}, {5, 6, 4, 0}, {6, 1, 4, 0}}))
	f.Add(molfile("salt", atoms("Na", "Cl", "Pt"), []molBond{{2, 3, 1, 0}}, "M  CHG  2   1   1   2  -1", "M  ISO  1   3 195", "M  RAD  1   1   2"))
	f.Add("x\n\n\n  0  0  0     0  0            999 V3000\nM  END\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMolfile(s)
		if err != nil {
			var me *MolfileError
			if !errors.As(err, &me) {
				t.Fatalf("error %v is not a *MolfileError", err)
			}
			if n := strings.Count(s, "\n") + 2; me.Line < 1 || me.Line > n {
				t.Fatalf("error line %d outside 1..%d: %v", me.Line, n, err)
			}
			return
		}
		_ = MorganBitsOf(m, 3, 1024)
		_, _ = WriteSMILES(m)
	})
}

// FuzzSDReader checks that no SD file panics the reader, that records
// come in increasing line order and that a record has either a molecule
// or an error.
func FuzzSDReader(f *testing.F) {
	f.Add(molfile("a", atoms("C", "O"), []molBond{{1, 2, 1, 0}}) + ">  <NSC>\n740\n\n$$$$\n$$$$\n" + molfile("b", atoms("N"), nil))
	f.Add("x\n\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n$$$$\n> <A>\n\n")
	f.Add("\n\n$$$$\n\r\n")
	f.Fuzz(func(t *testing.T, s string) {
		rd := NewSDReader(strings.NewReader(s), "f.sdf")
		last := 0
		for n := 0; ; n++ {
			rec, err := rd.Read()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("I/O error from a string: %v", err)
			}
			if rec.Line <= last || (rec.Mol == nil) == (rec.Err == nil) {
				t.Fatalf("record %d: line %d after %d, mol %v, err %v", n, rec.Line, last, rec.Mol != nil, rec.Err)
			}
			last = rec.Line
		}
	})
}

// BenchmarkSDF reads and perceives NCI's ComboCompoundSet.sdf (104
// structures) and fingerprints them.
func BenchmarkSDF(b *testing.B) {
	data, err := os.ReadFile(shareddata.Path(b, "almanac_raw", "ComboCompoundSet.sdf"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		rd := NewSDReader(bytes.NewReader(data), "sdf")
		for {
			rec, err := rd.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if rec.Mol != nil {
				MorganBitsOf(rec.Mol, 3, 1024)
			}
		}
	}
}
