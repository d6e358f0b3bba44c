package trained

import (
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/lincs"
	"github.com/deup-screening/deup/model"
)

// featured is a method that only states its feature configuration: what
// Signatures and Features ask of a model (other methods panic, unused).
type featured struct {
	model.Method
	fc model.FeatureConfig
}

func (m featured) FeatureConfig() model.FeatureConfig { return m.fc }

var (
	fpConfig    = model.FeatureConfig{Kind: "fp", Radius: 2, NBits: 64}
	fpSigConfig = model.FeatureConfig{Kind: "fp+sig", Radius: 2, NBits: 64, SigDim: 2}
)

// TestReadFileErrors: a path that is not a model file says what is wrong
// (the command layer adds what to give).
func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.model")
	for _, tc := range []struct {
		name, path, want string
	}{
		{"missing", missing, "model file " + missing + " does not exist"},
		{"a directory", dir, dir + " is a directory, not a model file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ReadFile(tc.path, testLoad); err == nil || err.Error() != tc.want {
				t.Errorf("err %v\nwant %s", err, tc.want)
			}
		})
	}
}

// TestOpenScreen: the screen a model scores is the directory given, else
// its own (directory or synthetic default from its seed), with changed set
// when that screen's pairs are not those trained on; a model that does not
// record its screen, or whose directory is gone, is a typed error.
func TestOpenScreen(t *testing.T) {
	root := t.TempDir()
	sc := tinyScreen(t)
	saved := filepath.Join(root, "screen")
	if err := drugcomb.Save(saved, sc); err != nil {
		t.Fatal(err)
	}
	own, err := NewMeta(sc, saved, 0, 0, "deup", nil)
	if err != nil {
		t.Fatal(err)
	}
	synth, err := data.Synth(data.DefaultSynth(3))
	if err != nil {
		t.Fatal(err)
	}
	synthMeta, err := NewMeta(synth, "", 3, 0, "deup", nil)
	if err != nil {
		t.Fatal(err)
	}
	with := func(m *Meta, edit func(*Meta)) *Bundle {
		c := *m
		edit(&c)
		return &Bundle{Meta: &c}
	}
	same := func(*Meta) {}
	otherDigest := func(m *Meta) { m.Screen.Digest = "other" }
	gone := filepath.Join(root, "gone")
	for _, tc := range []struct {
		name    string
		m       *Bundle
		dir     string
		drugs   int    // drugs of the screen returned
		used    string // directory returned
		changed bool
		err     error  // errors.Is target; nil: none
		errText string // in the error; "": none
	}{
		{"dir given, no metadata", &Bundle{}, saved, 12, saved, false, nil, ""}, // tinyScreen's 12 drugs
		{"dir given over the model's own", with(own, otherDigest), saved, 12, saved, false, nil, ""},
		{"dir given, missing", &Bundle{}, gone, 0, "", false, nil, "does not exist"}, // drugcomb.OpenDir's error (the command layer adds what to run)
		{"no metadata", &Bundle{}, "", 0, "", false, ErrNoMeta, ""},
		{"own directory", with(own, same), "", 12, own.Screen.Dir, false, nil, ""},
		{"own directory, pairs changed", with(own, otherDigest), "", 12, own.Screen.Dir, true, nil, ""},
		{"own directory gone", with(own, func(m *Meta) { m.Screen.Dir = gone }), "", 0, "", false, fs.ErrNotExist, ""},
		{"synthetic default", with(synthMeta, same), "", 60, "", false, nil, ""}, // DefaultSynth: 60 drugs
		{"synthetic default, pairs changed", with(synthMeta, otherDigest), "", 60, "", true, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, used, changed, err := tc.m.OpenScreen(tc.dir)
			switch {
			case tc.err != nil:
				if !errors.Is(err, tc.err) {
					t.Errorf("err %v, want %v", err, tc.err)
				}
				return
			case tc.errText != "":
				if err == nil || !strings.Contains(err.Error(), tc.errText) {
					t.Errorf("err %v, want one saying %q", err, tc.errText)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if len(got.Drugs) != tc.drugs || used != tc.used || changed != tc.changed {
				t.Errorf("%d drugs, dir %q, changed %v; want %d, %q, %v", len(got.Drugs), used, changed, tc.drugs, tc.used, tc.changed)
			}
		})
	}
	var ge *ScreenGoneError
	_, _, _, err = with(own, func(m *Meta) { m.Screen.Dir = gone }).OpenScreen("")
	if !errors.As(err, &ge) || ge.Dir != gone {
		t.Errorf("gone: %v (%+v), want a ScreenGoneError for %s", err, ge, gone)
	}
}

// TestSignatures: an fp model needs none; an fp+sig model takes those of
// the directory given, else the ones its file carries, else
// ErrNoSignatures.
func TestSignatures(t *testing.T) {
	drugs := []Drug{{ID: "a", SMILES: "CCO"}, {ID: "b", SMILES: "c1ccccc1"}}
	carried := &Meta{Drugs: drugs, Signatures: &Signatures{Genes: []string{"g1", "g2"}, Vectors: []Vector{{1, 2}, nil}}}
	stored := &lincs.Signatures{Genes: []string{"g1", "g2"}, DrugIDs: []string{"a", "b"}, Vectors: [][]float32{{3, 4}, {5, 6}},
		Columns: []string{"c1", "c2"}, By: []lincs.Method{lincs.ByName, lincs.ByName}}
	withSig := t.TempDir()
	if err := lincs.WriteSignatures(withSig, stored); err != nil {
		t.Fatal(err)
	}
	withoutSig := t.TempDir()
	for _, tc := range []struct {
		name    string
		m       *Bundle
		dir     string
		vectors [][]float32 // nil with want nil: no signatures
		err     error
	}{
		{"fp", &Bundle{Method: featured{fc: fpConfig}}, "", nil, nil},
		{"fp+sig, carried", &Bundle{Method: featured{fc: fpSigConfig}, Meta: carried}, "", [][]float32{{1, 2}, nil}, nil},
		{"fp+sig, dir given", &Bundle{Method: featured{fc: fpSigConfig}, Meta: carried}, withSig, [][]float32{{3, 4}, {5, 6}}, nil},
		{"fp+sig, dir without signatures", &Bundle{Method: featured{fc: fpSigConfig}, Meta: carried}, withoutSig, nil, lincs.ErrNoSignatures},
		{"fp+sig, none carried", &Bundle{Method: featured{fc: fpSigConfig}, Meta: &Meta{Drugs: drugs}}, "", nil, ErrNoSignatures},
		{"fp+sig, no metadata", &Bundle{Method: featured{fc: fpSigConfig}}, "", nil, ErrNoSignatures},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sig, err := tc.m.Signatures(tc.dir)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Errorf("err %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.vectors == nil {
				if sig != nil {
					t.Errorf("signatures %+v, want none", sig)
				}
				return
			}
			if !reflect.DeepEqual(sig.DrugIDs, []string{"a", "b"}) || !reflect.DeepEqual(sig.Vectors, tc.vectors) {
				t.Errorf("signatures of %v: %v, want %v", sig.DrugIDs, sig.Vectors, tc.vectors)
			}
		})
	}
	_, err := (&Bundle{Method: featured{fc: fpSigConfig}}).Signatures(withoutSig)
	var se *SignaturesError
	if err == nil || !strings.HasPrefix(err.Error(), "the model uses fp+sig features: ") || !errors.As(err, &se) || se.Dir != withoutSig {
		t.Errorf("dir without signatures: %v, want a SignaturesError for %s", err, withoutSig)
	}
}

// TestFeatures: the rows of the drugs with usable features (and, under
// fp+sig, a signature), the others in the report; fewer than two kept is
// ErrNoPair, with the rows and report all the same.
func TestFeatures(t *testing.T) {
	ethanol, benzene, bad := drugcomb.Drug{ID: "a", SMILES: "CCO"}, drugcomb.Drug{ID: "b", SMILES: "c1ccccc1"}, drugcomb.Drug{ID: "x", SMILES: "not a smiles"}
	carried := &Meta{Drugs: NewDrugs([]drugcomb.Drug{ethanol, benzene}), Signatures: &Signatures{Genes: []string{"g1", "g2"}, Vectors: []Vector{{1, 2}, nil}}}
	fp := &Bundle{Method: featured{fc: fpConfig}}
	fpSig := &Bundle{Method: featured{fc: fpSigConfig}, Meta: carried}
	for _, tc := range []struct {
		name        string
		m           *Bundle
		drugs       []drugcomb.Drug
		kept        []int
		noStructure int // drugs left out for their structure
		noSignature int // and for want of a signature
		err         error
	}{
		{"fp, all usable", fp, []drugcomb.Drug{ethanol, benzene}, []int{0, 1}, 0, 0, nil},
		{"fp, one unparsable", fp, []drugcomb.Drug{ethanol, bad, benzene}, []int{0, 2}, 1, 0, nil},
		{"fp, one usable", fp, []drugcomb.Drug{bad, benzene}, []int{1}, 1, 0, ErrNoPair},
		{"fp+sig, benzene without signature", fpSig, []drugcomb.Drug{ethanol, benzene}, []int{0}, 0, 1, ErrNoPair},
		{"fp+sig, no signatures", &Bundle{Method: featured{fc: fpSigConfig}}, []drugcomb.Drug{ethanol, benzene}, nil, 0, 0, ErrNoSignatures},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, kept, rep, err := tc.m.Features(tc.drugs, "")
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			noStruct, noSig := rep.Left()
			if !reflect.DeepEqual(kept, tc.kept) || len(noStruct) != tc.noStructure || len(noSig) != tc.noSignature {
				t.Errorf("kept %v, left out %d + %d; want %v, %d + %d", kept, len(noStruct), len(noSig), tc.kept, tc.noStructure, tc.noSignature)
			}
			if tc.kept != nil && (f == nil || f.NumDrugs() != len(tc.kept) || f.Config.Dim() != tc.m.Method.FeatureConfig().Dim()) {
				t.Errorf("features %+v for %d kept drugs", f, len(tc.kept))
			}
		})
	}
	_, _, _, err := fp.Features([]drugcomb.Drug{bad, benzene}, "")
	if want := "1 of 2 drugs have usable features: no pair to score (check the SMILES column of the drugs, and the signatures for an fp+sig model)"; err == nil || err.Error() != want {
		t.Errorf("err %v\nwant %s", err, want)
	}
}
