package features

import (
	"bufio"
	"errors"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/shareddata"
	"github.com/deup-screening/deup/lincs"
	"github.com/deup-screening/deup/model"
)

// TestFingerprintRowsMatchRDKit: with WholeMolecule the fp rows of the
// ALMANAC drugs are the RDKit 2022.09.3 GetMorganFingerprintAsBitVect(mol,
// 3, 1024) on-bits of the whole SMILES
// (../shared/data/fingerprints/rdkit_morgan.tsv); by default those of the
// single-fragment drugs are the same and those of the 22 salts and mixtures
// (the SMILES with a dot) are not.
func TestFingerprintRowsMatchRDKit(t *testing.T) {
	fh, err := os.Open(shareddata.Path(t, "fingerprints", "rdkit_morgan.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var drugs []drugcomb.Drug
	var want [][]int
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if !strings.HasPrefix(f[0], "almanac:") {
			continue
		}
		drugs = append(drugs, drugcomb.Drug{ID: f[0], SMILES: f[1]})
		var bits []int
		for _, s := range strings.Fields(f[2]) {
			b, _ := strconv.Atoi(s)
			bits = append(bits, b)
		}
		want = append(want, bits)
	}
	if len(drugs) != 87 {
		t.Fatalf("%d ALMANAC rows in the reference, want 87", len(drugs))
	}
	def, defRep, err := Build(drugs, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if def.Config.Fragment != LargestOrganicFragment || defRep.Stripped != 22 || len(defRep.Tied) != 0 {
		t.Errorf("default: fragment %q, %d stripped (want 22), tied %v", def.Config.Fragment, defRep.Stripped, defRep.Tied)
	}
	for i, d := range drugs {
		same := slices.Equal(def.Col[def.RowPtr[i]:def.RowPtr[i+1]], toInt32(want[i]))
		if multi := strings.Contains(d.SMILES, "."); same == multi {
			t.Errorf("%s: default row equal to RDKit's whole-molecule bits: %v; SMILES has a dot: %v", d.ID, same, multi)
		}
	}
	f, rep, err := Build(drugs, Config{WholeMolecule: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Config.Fragment != "" || rep.Stripped != 0 {
		t.Errorf("whole molecule: fragment %q, %d stripped", f.Config.Fragment, rep.Stripped)
	}
	if f.Config.NBits != 1024 || f.Config.Radius != 3 || f.NumDrugs() != 87 {
		t.Fatalf("config %+v rows %d", f.Config, f.NumDrugs())
	}
	for i := range drugs {
		got := f.Col[f.RowPtr[i]:f.RowPtr[i+1]]
		if len(got) != len(want[i]) {
			t.Errorf("%s: %d bits, RDKit %d", drugs[i].ID, len(got), len(want[i]))
			continue
		}
		for k := range got {
			if int(got[k]) != want[i][k] {
				t.Errorf("%s: bit %d is %d, RDKit %d", drugs[i].ID, k, got[k], want[i][k])
				break
			}
		}
	}
	t.Logf("mean set bits %.1f", rep.MeanBits)
}

func toInt32(v []int) []int32 {
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x)
	}
	return out
}

// TestSaltStripped: a salt and its parent get the same row by default
// (the counter-ion is not fingerprinted), different rows with
// WholeMolecule; the choice is recorded and ConfigOf rebuilds it.
func TestSaltStripped(t *testing.T) {
	drugs := []drugcomb.Drug{
		{ID: "imatinib", SMILES: "Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1"},
		{ID: "imatinib mesylate", SMILES: "Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1.CS(=O)(=O)O"},
	}
	row := func(f *model.Features, i int) []int32 { return f.Col[f.RowPtr[i]:f.RowPtr[i+1]] }
	for _, tc := range []struct {
		name     string
		cfg      Config
		same     bool
		fragment string
	}{
		{"default", Config{}, true, LargestOrganicFragment},
		{"whole molecule", Config{WholeMolecule: true}, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, rep, err := Build(drugs, tc.cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Equal(row(f, 0), row(f, 1)); got != tc.same {
				t.Errorf("salt and parent rows equal: %v, want %v", got, tc.same)
			}
			if f.Config.Fragment != tc.fragment {
				t.Errorf("recorded fragment %q, want %q", f.Config.Fragment, tc.fragment)
			}
			if wantStripped := map[bool]int{true: 1, false: 0}[tc.same]; rep.Stripped != wantStripped {
				t.Errorf("stripped %d, want %d", rep.Stripped, wantStripped)
			}
			back, err := ConfigOf(f.Config)
			if err != nil {
				t.Fatal(err)
			}
			g, _, err := Build(drugs, back, nil)
			if err != nil {
				t.Fatal(err)
			}
			if g.Config != f.Config || !slices.Equal(g.Col, f.Col) {
				t.Errorf("rebuilt from ConfigOf(%+v): config %+v", f.Config, g.Config)
			}
		})
	}
	if _, err := ConfigOf(model.FeatureConfig{Kind: Fingerprint, Fragment: "smallest"}); err == nil {
		t.Error("ConfigOf accepted an unknown fragment choice")
	}
}

func TestSignaturesAppendedAndErrors(t *testing.T) {
	drugs := []drugcomb.Drug{{ID: "a", SMILES: "CCO"}, {ID: "b", SMILES: "c1ccccc1"}, {ID: "c", Name: "Ring", SMILES: "C1CC"}, {ID: "d"}}
	sig := &lincs.Signatures{Genes: []string{"g1", "g2", "g3"}, DrugIDs: []string{"a", "b", "c", "d"},
		Vectors: [][]float32{{1, 0, -2}, nil, {3, 3, 3}, nil}}
	t.Run("strict build names bad drugs", func(t *testing.T) {
		_, _, err := Build(drugs, Config{Kind: FingerprintSignature}, sig)
		if err == nil || !strings.Contains(err.Error(), "drug Ring (c): ") || !strings.Contains(err.Error(), "drug d: ") {
			t.Fatalf("err = %v, want drugs c (by name and id) and d named", err)
		}
	})
	t.Run("lenient", func(t *testing.T) {
		f, kept, rep, err := BuildLenient(drugs, Config{Kind: FingerprintSignature}, sig)
		if err != nil {
			t.Fatal(err)
		}
		if len(kept) != 2 || kept[0] != 0 || kept[1] != 1 || len(rep.Skipped) != 2 || rep.WithSignature != 1 {
			t.Fatalf("kept %v report %+v", kept, rep)
		}
		if f.Config.SigDim != 3 || f.Config.Dim() != 1027 {
			t.Fatalf("config %+v", f.Config)
		}
		row := f.Dense(0)
		if row[1024] != 1 || row[1025] != 0 || row[1026] != -2 {
			t.Errorf("signature part %v, want [1 0 -2]", row[1024:])
		}
		if row := f.Dense(1); row[1024] != 0 || row[1026] != 0 {
			t.Errorf("drug without signature: %v, want zeros", row[1024:])
		}
	})
	t.Run("unknown kind", func(t *testing.T) {
		if _, _, err := Build(drugs[:1], Config{Kind: "maccs"}, nil); err == nil {
			t.Fatal("no error")
		}
	})
}

// TestRequireSignature: under RequireSignature a drug without a signature,
// or with an all-NaN one, is left out by BuildLenient (ErrNoSignature) and
// refused by Build.
func TestRequireSignature(t *testing.T) {
	nan := float32(math.NaN())
	drugs := []drugcomb.Drug{{ID: "a", SMILES: "CCO"}, {ID: "b", SMILES: "c1ccccc1"}, {ID: "c", SMILES: "CCN"}, {ID: "d", SMILES: "CCC"}}
	sig := &lincs.Signatures{Genes: []string{"g1", "g2"}, DrugIDs: []string{"a", "b", "c"},
		Vectors: [][]float32{{1, 2}, nil, {nan, nan}}}
	cfg := Config{Kind: FingerprintSignature, RequireSignature: true}
	f, kept, rep, err := BuildLenient(drugs, cfg, sig)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(kept, []int{0}) || f.NumDrugs() != 1 || len(rep.Errors) != 3 {
		t.Fatalf("kept %v, %d rows, errors %v; want [0], 1, 3", kept, f.NumDrugs(), rep.Errors)
	}
	for _, e := range rep.Errors {
		if !errors.Is(e, ErrNoSignature) {
			t.Errorf("error %v is not ErrNoSignature", e)
		}
	}
	if _, _, err := Build(drugs, cfg, sig); !errors.Is(err, ErrNoSignature) {
		t.Errorf("Build: %v, want ErrNoSignature", err)
	}
	cfg.RequireSignature = false
	if _, kept, _, err := BuildLenient(drugs, cfg, sig); err != nil || len(kept) != 4 {
		t.Errorf("without RequireSignature: kept %v, %v", kept, err)
	}
}

// TestCheckSMILES: the import's structure check refuses what Build would
// refuse, with the parser's position (positions from chem's ParseError,
// counted from 1).
func TestCheckSMILES(t *testing.T) {
	tests := []struct {
		smiles string
		want   string // "" means accepted; else a substring of the error
	}{
		{"CCO", ""},
		{"c1ccccc1.[Na+].[Cl-]", ""},
		{"CC(C", "at position 3: unbalanced branch"},
		{"CC)C", "at position 3: unbalanced branch"},
		{"C1CC", "ring 1 never closed"},
		{"", "no SMILES"},
	}
	for _, tt := range tests {
		err := CheckSMILES(tt.smiles)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("CheckSMILES(%q) = %v, want nil", tt.smiles, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("CheckSMILES(%q) = %v, want an error with %q", tt.smiles, err, tt.want)
		}
		if tt.want != "" && tt.smiles != "" {
			if _, _, berr := Build([]drugcomb.Drug{{ID: "x", SMILES: tt.smiles}}, Config{}, nil); berr == nil {
				t.Errorf("Build accepted %q, which CheckSMILES refuses", tt.smiles)
			}
		}
	}
}
