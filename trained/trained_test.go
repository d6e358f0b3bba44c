package trained

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/lincs"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/model/deupnet"
	"github.com/deup-screening/deup/model/due"
	"github.com/deup-screening/deup/uq"
)

// tinyScreen is a generated 12-drug screen (data.Synth), so the tests need
// no real data.
func tinyScreen(t testing.TB) *drugcomb.Screen {
	t.Helper()
	sc, err := data.Synth(data.SynthConfig{Seed: 5, Drugs: 12, CellLines: 1, Pairs: 50, ReplicateFrac: 0.2, MaxReplicates: 2,
		LatentDim: 2, Scale: 5, NoiseMin: 1, NoiseMax: 2, RareWeight: 0.1, RareEffect: 1})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func fitted(t testing.TB, sc *drugcomb.Screen, m model.Method) model.Method {
	t.Helper()
	f, _, err := features.Build(sc.Drugs, features.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := model.NewDataset(sc, f, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Fit(context.Background(), ds, drugcomb.SplitRandom(len(ds.Pairs), [3]float64{0.7, 0.3, 0}, 1), nil); err != nil {
		t.Fatal(err)
	}
	return m
}

func tinyMeta(sc *drugcomb.Screen) *Meta {
	return &Meta{Method: "deup", Drugs: NewDrugs(sc.Drugs),
		Screen:   Screen{Name: sc.Name, SynthSeed: 5, CellLine: sc.CellLines[0], Score: sc.ScoreNames[0], Pairs: len(sc.Pairs), Digest: PairsDigest(sc, 0, 0)},
		Training: Training{Split: "70/30", Seed: 1, InSample: 35, OutOfSample: 15, ValRMSE: Float(1.5), NoiseSD: Float(math.NaN())}}
}

// TestRoundTrip: a written model reads back with its metadata, and predicts
// exactly as before; both a DEUP network and a DUE model (the two file
// families of model.Load and due.Load).
func TestRoundTrip(t *testing.T) {
	sc := tinyScreen(t)
	small := model.Config{TowerHidden: 16, TowerOut: 8, CombHidden: 8, SigmaHidden: 8, LR: 1e-3, MaxEpochs: 2, Patience: 2, Seed: 1}
	for _, m := range []model.Method{
		fitted(t, sc, deupnet.New(deupnet.Config{Config: small})),
		fitted(t, sc, due.New(due.Config{Seed: 1, MaxEpochs: 2, Patience: 2})),
	} {
		t.Run(m.Name(), func(t *testing.T) {
			meta := tinyMeta(sc)
			var buf bytes.Buffer
			if err := Write(&buf, &Bundle{Method: m, Meta: meta}); err != nil {
				t.Fatal(err)
			}
			got, err := Read(bytes.NewReader(buf.Bytes()), testLoad)
			if err != nil {
				t.Fatal(err)
			}
			if got.Meta == nil || got.Meta.Format != Format || len(got.Meta.Drugs) != 12 || got.Meta.Drugs[3] != meta.Drugs[3] ||
				!reflect.DeepEqual(got.Meta.Screen, meta.Screen) || *got.Meta.Training.ValRMSE != 1.5 || got.Meta.Training.NoiseSD != nil {
				t.Errorf("metadata %+v", got.Meta)
			}
			f, _, _ := features.Build(got.Meta.ScreenDrugs(), features.Config{}, nil)
			ps := []model.PairRef{{A: 0, B: 1}, {A: 4, B: 9}}
			want, _ := m.Predict(f, ps)
			have, err := got.Method.Predict(f, ps)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if want[i] != have[i] {
					t.Errorf("pair %d: %+v after reading, %+v before", i, have[i], want[i])
				}
			}
			// A bare method file (before this package) reads with Meta nil.
			var bare bytes.Buffer
			m.Save(&bare)
			old, err := Read(&bare, testLoad)
			if err != nil || old.Meta != nil || old.Method.Name() != m.Name() {
				t.Errorf("bare file: %v, %+v", err, old)
			}
		})
	}
}

// TestVector: signatures survive JSON with their NaN entries (which plain
// JSON numbers cannot hold), and reach lincs' form by drug.
func TestVector(t *testing.T) {
	sc := tinyScreen(t)
	sig := &lincs.Signatures{Genes: []string{"g1", "g2", "g3"}, DrugIDs: []string{sc.Drugs[2].ID, "other"},
		Vectors: [][]float32{{1, float32(math.NaN()), -6}, {0, 0, 0}}}
	meta := tinyMeta(sc)
	meta.Format = Format
	meta.Signatures = NewSignatures(sig, sc.Drugs)
	var buf bytes.Buffer
	m := fitted(t, sc, deupnet.New(deupnet.Config{Config: model.Config{TowerHidden: 8, TowerOut: 4, CombHidden: 4, SigmaHidden: 4, MaxEpochs: 1, Seed: 1}}))
	if err := Write(&buf, &Bundle{Method: m, Meta: meta}); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&buf, testLoad)
	if err != nil {
		t.Fatal(err)
	}
	ls := got.Meta.LincsSignatures()
	if ls.DrugIDs[2] != sc.Drugs[2].ID || len(ls.Vectors[2]) != 3 || ls.Vectors[2][0] != 1 || !math.IsNaN(float64(ls.Vectors[2][1])) || ls.Vectors[2][2] != -6 {
		t.Errorf("drug 2's signature %v", ls.Vectors[2])
	}
	for i, v := range ls.Vectors {
		if i != 2 && v != nil {
			t.Errorf("drug %d has signature %v, want none", i, v)
		}
	}
}

// TestReadErrors: damaged files are errors that say what is wrong, never a
// panic or a huge allocation.
func TestReadErrors(t *testing.T) {
	sc := tinyScreen(t)
	m := fitted(t, sc, deupnet.New(deupnet.Config{Config: model.Config{TowerHidden: 8, TowerOut: 4, CombHidden: 4, SigmaHidden: 4, MaxEpochs: 1, Seed: 1}}))
	var good bytes.Buffer
	if err := Write(&good, &Bundle{Method: m, Meta: tinyMeta(sc)}); err != nil {
		t.Fatal(err)
	}
	g := good.Bytes()
	metaLen := int(binary.LittleEndian.Uint64(g[len(Magic):]))
	withLen := func(n uint64) []byte {
		b := append([]byte(nil), g...)
		binary.LittleEndian.PutUint64(b[len(Magic):], n)
		return b
	}
	dupDrug := bytes.Replace(g, []byte(`"id":"`+sc.Drugs[1].ID+`"`), []byte(`"id":"`+sc.Drugs[0].ID+`"`), 1)
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "missing magic"},
		{"not a model", []byte("drug_a,drug_b\n1,2\n"), "missing magic"},
		{"truncated length", g[:len(Magic)+3], "metadata length"},
		{"zero length", withLen(0), "metadata length 0"},
		{"huge length", withLen(1 << 62), "metadata length"},
		{"truncated metadata", g[:len(Magic)+8+metaLen/2], "metadata of"},
		{"bad JSON", withLen(uint64(metaLen - 1)), "metadata"},
		{"duplicate drug", dupDrug, "listed twice"},
		{"truncated method", g[:len(g)-10], ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tc.in), testLoad)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := Read(bytes.NewReader(withLen(0)), testLoad); !errors.Is(err, ErrFormat) {
		t.Errorf("zero length: %v is not ErrFormat", err)
	}
}

// FuzzRead: no input panics.
// testLoad reads the method files of the tests: DUE's (by its magic)
// with due.Load, DEUP's with deupnet.Load, the others with model.Load (the built-in registry's
// rule, without importing package methods, which imports this one).
func testLoad(r io.Reader) (model.Method, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(data, []byte(due.Magic)) || bytes.HasPrefix(data, []byte(due.MagicV1)) {
		return due.Load(bytes.NewReader(data))
	}
	if name, _ := model.FileMethod(data); name == "deup" {
		return deupnet.Load(bytes.NewReader(data))
	}
	return model.Load(bytes.NewReader(data))
}

func FuzzRead(f *testing.F) {
	sc := tinyScreen(f)
	m := fitted(f, sc, deupnet.New(deupnet.Config{Config: model.Config{TowerHidden: 8, TowerOut: 4, CombHidden: 4, SigmaHidden: 4, MaxEpochs: 1, Seed: 1}}))
	var good bytes.Buffer
	Write(&good, &Bundle{Method: m, Meta: tinyMeta(sc)})
	f.Add(good.Bytes())
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, in []byte) {
		Read(bytes.NewReader(in), testLoad)
	})
}

// TestCalibrationRoundTrip: a model file keeps its calibration (the
// conformal scores, so intervals at any coverage read back identical), a
// file without one reads with Calibration nil, and a damaged calibration
// (unsorted scores) is an error when reading, not a silent interval.
func TestCalibrationRoundTrip(t *testing.T) {
	sc := tinyScreen(t)
	m := fitted(t, sc, deupnet.New(deupnet.Config{Config: model.Config{TowerHidden: 8, TowerOut: 4, CombHidden: 4, SigmaHidden: 4, MaxEpochs: 1, Seed: 1}}))
	y := []float64{1, 4, -2, 0.5, 3, 7, -1, 2, 2.5, 6, -3, 1.5}
	mu := []float64{0, 3, -1, 1, 2, 5, 0, 2, 1, 4, -1, 1}
	sigma := []float64{1, 2, 1, 0.5, 1, 2, 1, 1, 0.5, 2, 1, 1}
	cal, err := uq.FitConformal(y, mu, sigma, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		cal  *uq.Calibrator
		want string // Read's error, "" for none
	}{
		{"with calibration", &cal, ""},
		{"without", nil, ""},
		{"unsorted scores", &uq.Calibrator{Method: uq.MethodConformalNormalized, N: 2, Scores: []float64{2, 1}}, "not sorted"},
		{"miscounted", &uq.Calibrator{Method: uq.MethodConformal, N: 3, Scores: []float64{1, 2}}, "n 3 with 2 scores"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			meta := tinyMeta(sc)
			meta.Calibration = tc.cal
			var buf bytes.Buffer
			if err := Write(&buf, &Bundle{Method: m, Meta: meta}); err != nil {
				t.Fatal(err)
			}
			if tc.cal == nil && strings.Contains(buf.String(), `"calibration"`) {
				t.Errorf("a model without calibration writes a calibration key")
			}
			got, err := Read(&buf, testLoad)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want one containing %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.cal == nil {
				if got.Meta.Calibration != nil {
					t.Errorf("calibration %+v, want nil", got.Meta.Calibration)
				}
				return
			}
			c := got.Meta.Calibration
			if c == nil || c.Method != cal.Method || c.N != cal.N || len(c.Scores) != len(cal.Scores) {
				t.Fatalf("calibration %+v, want %+v", c, cal)
			}
			for i := range cal.Scores {
				if c.Scores[i] != cal.Scores[i] {
					t.Errorf("score %d: %v, want %v", i, c.Scores[i], cal.Scores[i])
				}
			}
			lo, hi, err := c.Interval(10, 2, 0.9)
			wlo, whi, _ := cal.Interval(10, 2, 0.9)
			if err != nil || lo != wlo || hi != whi {
				t.Errorf("interval [%v, %v] (%v), want [%v, %v]", lo, hi, err, wlo, whi)
			}
		})
	}
}

// TestNewMetaPairsChanged: NewMeta names the screen by its absolute
// directory (or the synthetic seed), its first line and score, with the
// pairs' digest; PairsChanged is false on the same pairs, true once a mean
// changes, and false on a screen without the model's line.
func TestNewMetaPairsChanged(t *testing.T) {
	sc := tinyScreen(t)
	for _, tc := range []struct {
		dir      string
		wantDir  bool
		wantSeed uint64
	}{{"", false, 7}, {"rel/screen", true, 0}} {
		m, err := NewMeta(sc, tc.dir, 7, 0, "deup", nil)
		if err != nil {
			t.Fatal(err)
		}
		id := m.Screen
		if (id.Dir != "") != tc.wantDir || tc.wantDir && !strings.HasSuffix(id.Dir, "/rel/screen") || id.SynthSeed != tc.wantSeed {
			t.Errorf("dir %q: Screen.Dir %q, SynthSeed %d", tc.dir, id.Dir, id.SynthSeed)
		}
		if id.CellLine != sc.CellLines[0] || id.Score != sc.ScoreNames[0] || id.Pairs != 50 || id.CellLines != nil || len(m.Drugs) != 12 || m.Signatures != nil {
			t.Errorf("meta %+v", id)
		}
		if m.PairsChanged(sc) {
			t.Error("same pairs: changed")
		}
	}
	m, _ := NewMeta(sc, "", 7, 0, "deup", nil)
	changed := sc.KeepPairs(func(i int, p *drugcomb.Pair) bool {
		if i == 0 {
			p.Mean = []float64{p.Mean[0] + 1}
		}
		return true
	})
	if !m.PairsChanged(changed) {
		t.Error("a changed mean: not changed")
	}
	other := *sc
	other.CellLines = []string{"OTHER"}
	if m.PairsChanged(&other) {
		t.Error("a screen without the line: changed")
	}
}
