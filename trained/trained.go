package trained

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/lincs"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/uq"
)

// Magic starts every file of this package.
const Magic = "DEUPTRAINED\n"

// Format is the layout version written by Write.
const Format = 1

// MaxMeta bounds the metadata length a reader accepts (a 4,146-drug
// catalogue with SMILES is well under 1 MiB).
const MaxMeta = 256 << 20

// ErrFormat marks a file that is not a trained model.
var ErrFormat = errors.New("not a deup model file")

// Bundle is a fitted method and what it was trained on.
type Bundle struct {
	Method model.Method
	// Meta is nil for a file written before this package existed (a bare
	// method file): such a model does not know its drugs or screen.
	Meta *Meta
}

// Meta describes what a model was trained on.
type Meta struct {
	Format     int         `json:"format"`
	Method     string      `json:"method"` // deup train --method: deup, ensemble, ensemble-nll, mcdropout, due
	Screen     Screen      `json:"screen"`
	Drugs      []Drug      `json:"drugs"`                // the screen's drugs, feature rows in this order
	Signatures *Signatures `json:"signatures,omitempty"` // fp+sig models: the drugs' L1000 signatures
	Training   Training    `json:"training"`
	// Calibration turns the model's (mu, sigma_total) into intervals with a
	// stated coverage (deup predict --coverage): split-conformal scores of
	// calibration pairs held out of training (deup train --calibration),
	// never seen by mu or sigma. nil when the model was trained without
	// calibration (--calibration 0, or a file from before calibrations).
	Calibration *uq.Calibrator `json:"calibration,omitempty"`
}

// Screen identifies the screen a model was trained on.
type Screen struct {
	Name string `json:"name"`
	// Dir is the screen's directory as an absolute path; "" for the
	// synthetic default, which SynthSeed regenerates.
	Dir       string `json:"dir,omitempty"`
	SynthSeed uint64 `json:"synth_seed,omitempty"`
	CellLine  string `json:"cell_line"`
	// CellLines lists, for a model trained on several cell lines at once
	// (a panel), every line in the order of the network's cell-line
	// embedding (model.PairRef.Line indexes it); CellLine is then the first.
	// Absent for a one-line model.
	CellLines    []string `json:"cell_lines,omitempty"`
	Score        string   `json:"score"`
	Pairs        int      `json:"pairs"`        // pairs of the cell line trained on (in- and out-of-sample)
	Measurements int      `json:"measurements"` // replicate measurements behind them
	// Digest is the SHA-256 of the pairs trained on (PairsDigest): a screen
	// re-imported with other measurements has another digest.
	Digest string `json:"digest"`
}

// Synthetic reports whether the model was trained on the synthetic default.
func (s Screen) Synthetic() bool { return s.Dir == "" }

// String names the screen in a sentence: its directory, or "the synthetic
// default screen (seed N)".
func (s Screen) String() string {
	if s.Synthetic() {
		return fmt.Sprintf("the synthetic default screen (seed %d)", s.SynthSeed)
	}
	return s.Dir
}

// Drug is one drug a model was trained with.
type Drug struct {
	ID         string `json:"id"`
	Name       string `json:"name,omitempty"`
	PubChemCID int64  `json:"pubchem_cid,omitempty"`
	SMILES     string `json:"smiles"`
}

// Signatures are the L1000 signatures of the drugs of an fp+sig model.
type Signatures struct {
	Genes []string `json:"genes"`
	// Vectors holds, per drug of Meta.Drugs, its signature (nil when none).
	Vectors []Vector `json:"vectors"`
}

// Vector is a float32 vector stored as base64 of its little-endian bytes
// (JSON cannot hold the NaN a signature may contain).
type Vector []float32

// MarshalJSON implements json.Marshaler.
func (v Vector) MarshalJSON() ([]byte, error) {
	if v == nil {
		return []byte("null"), nil
	}
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return json.Marshal(base64.StdEncoding.EncodeToString(b))
}

// UnmarshalJSON implements json.Unmarshaler.
func (v *Vector) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*v = nil
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return err
	}
	if len(b)%4 != 0 {
		return fmt.Errorf("vector of %d bytes, not a multiple of 4", len(b))
	}
	out := make(Vector, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	*v = out
	return nil
}

// Training says how the model was fitted. RMSEs are in score units; a
// reference that does not exist (no replicates, no test part) is omitted.
type Training struct {
	// Split is "70/30" (in-sample/out-of-sample: the model for use, trained
	// on every measured pair) or "40/30/30" (train/validation/test: the
	// benchmark split with a test score), as given to deup train --split.
	Split       string `json:"split"`
	Seed        uint64 `json:"seed"`
	InSample    int    `json:"in_sample"`     // pairs the mu head was fitted on
	OutOfSample int    `json:"out_of_sample"` // held-out pairs: the sigma path's out-of-sample batch and early stopping
	// OOSBy is how the out-of-sample pairs were drawn (deup train
	// --oos-by): "pairs", "combinations" or "drugs" (drugcomb.DrawOOS);
	// empty in a file written before it was recorded (drawn by pairs).
	OOSBy     string `json:"oos_by,omitempty"`
	Test      int    `json:"test,omitempty"`
	Epochs    int    `json:"epochs"`
	BestEpoch int    `json:"best_epoch"`
	// ValRMSE is the RMSE of mu on the out-of-sample pairs; MeanRMSE the
	// RMSE there of predicting the in-sample mean; NoiseSD the replicate
	// noise (pooled standard deviation of single measurements) where pairs
	// have replicates.
	ValRMSE  *float64 `json:"val_rmse,omitempty"`
	MeanRMSE *float64 `json:"mean_rmse,omitempty"`
	NoiseSD  *float64 `json:"noise_sd,omitempty"`
	TestRMSE *float64 `json:"test_rmse,omitempty"`
}

// Float returns a pointer to x, or nil when x is NaN or infinite (for the
// optional figures of Training).
func Float(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// NewMeta is the metadata of a model trained by method on the screen sc
// for its score column score: one cell line (the first), or every line of
// a panel in the embedding's order (Digest covers the first). dir is the
// screen's directory, stored as an absolute path; "" is the synthetic
// default of seed synthSeed. sig holds an fp+sig model's signatures (nil
// for fp). Training and Calibration are left to the caller.
func NewMeta(sc *drugcomb.Screen, dir string, synthSeed uint64, score int, method string, sig *lincs.Signatures) (*Meta, error) {
	id := Screen{Name: sc.Name, CellLine: sc.CellLines[0], Score: sc.ScoreNames[score], Pairs: len(sc.Pairs),
		Measurements: sc.Measurements(), Digest: PairsDigest(sc, 0, score)}
	if dir == "" {
		id.SynthSeed = synthSeed
	} else {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		id.Dir = abs
	}
	if len(sc.CellLines) > 1 {
		id.CellLines = sc.CellLines
	}
	return &Meta{Method: method, Screen: id, Drugs: NewDrugs(sc.Drugs), Signatures: NewSignatures(sig, sc.Drugs)}, nil
}

// PairsChanged reports whether the pairs of sc on the model's cell line
// and score differ from those it was trained on (PairsDigest); false when
// sc lacks the line or the score (drugcomb.IndexName's rule).
func (m *Meta) PairsChanged(sc *drugcomb.Screen) bool {
	ci := drugcomb.IndexName(sc.CellLines, m.Screen.CellLine)
	si := drugcomb.IndexName(sc.ScoreNames, m.Screen.Score)
	return ci >= 0 && si >= 0 && PairsDigest(sc, ci, si) != m.Screen.Digest
}

// NewDrugs returns the Meta form of a screen's drugs.
func NewDrugs(ds []drugcomb.Drug) []Drug {
	out := make([]Drug, len(ds))
	for i, d := range ds {
		out[i] = Drug{ID: d.ID, Name: d.Name, PubChemCID: d.PubChemCID, SMILES: d.SMILES}
	}
	return out
}

// ScreenDrugs returns the model's drugs in the screen's form.
func (m *Meta) ScreenDrugs() []drugcomb.Drug {
	out := make([]drugcomb.Drug, len(m.Drugs))
	for i, d := range m.Drugs {
		out[i] = drugcomb.Drug{ID: d.ID, Name: d.Name, PubChemCID: d.PubChemCID, SMILES: d.SMILES}
	}
	return out
}

// NewSignatures returns the Meta form of the signatures of drugs ds (by
// ID; a drug sig does not list gets none).
func NewSignatures(sig *lincs.Signatures, ds []drugcomb.Drug) *Signatures {
	if sig == nil {
		return nil
	}
	row := make(map[string]int, len(sig.DrugIDs))
	for i, id := range sig.DrugIDs {
		row[id] = i
	}
	out := &Signatures{Genes: append([]string(nil), sig.Genes...), Vectors: make([]Vector, len(ds))}
	for i, d := range ds {
		if r, ok := row[d.ID]; ok && sig.Vectors[r] != nil {
			out.Vectors[i] = append(Vector(nil), sig.Vectors[r]...)
		}
	}
	return out
}

// LincsSignatures returns the stored signatures in package lincs' form
// (nil for a model without them).
func (m *Meta) LincsSignatures() *lincs.Signatures {
	if m.Signatures == nil {
		return nil
	}
	s := &lincs.Signatures{Genes: m.Signatures.Genes, DrugIDs: make([]string, len(m.Drugs)),
		Vectors: make([][]float32, len(m.Drugs)), Columns: make([]string, len(m.Drugs)), By: make([]lincs.Method, len(m.Drugs))}
	for i, d := range m.Drugs {
		s.DrugIDs[i] = d.ID
		if i < len(m.Signatures.Vectors) {
			s.Vectors[i] = m.Signatures.Vectors[i]
		}
	}
	return s
}

// PairsDigest is the SHA-256 (hex) of a screen's pairs on one cell line and
// score column, in order: both drugs' IDs, the replicate count and the mean
// score. It identifies the measurements a model was trained on.
func PairsDigest(sc *drugcomb.Screen, cellLine, score int) string {
	h := sha256.New()
	var b [8]byte
	for _, p := range sc.Pairs {
		if p.CellLine != cellLine || score >= len(p.Mean) {
			continue
		}
		io.WriteString(h, sc.Drugs[p.A].ID)
		h.Write([]byte{0})
		io.WriteString(h, sc.Drugs[p.B].ID)
		h.Write([]byte{0})
		binary.LittleEndian.PutUint64(b[:], uint64(p.N))
		h.Write(b[:])
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(p.Mean[score]))
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Validate checks the metadata's internal consistency.
func (m *Meta) Validate() error {
	if m.Format < 1 {
		return fmt.Errorf("%w: metadata format %d", ErrFormat, m.Format)
	}
	if m.Format > Format {
		return fmt.Errorf("%w: metadata format %d is newer than this deup reads (%d): update deup", ErrFormat, m.Format, Format)
	}
	if len(m.Drugs) == 0 {
		return fmt.Errorf("%w: metadata lists no drugs", ErrFormat)
	}
	seen := make(map[string]bool, len(m.Drugs))
	for i, d := range m.Drugs {
		if d.ID == "" {
			return fmt.Errorf("%w: metadata drug %d has no id", ErrFormat, i)
		}
		if seen[d.ID] {
			return fmt.Errorf("%w: metadata drug %q listed twice", ErrFormat, d.ID)
		}
		seen[d.ID] = true
	}
	if s := m.Signatures; s != nil {
		if len(s.Vectors) != len(m.Drugs) {
			return fmt.Errorf("%w: %d signature vectors for %d drugs", ErrFormat, len(s.Vectors), len(m.Drugs))
		}
		for i, v := range s.Vectors {
			if v != nil && len(v) != len(s.Genes) {
				return fmt.Errorf("%w: signature of drug %q has %d values for %d genes", ErrFormat, m.Drugs[i].ID, len(v), len(s.Genes))
			}
		}
	}
	return nil
}

// Write writes m (Meta required) to w.
func Write(w io.Writer, m *Bundle) error {
	if m == nil || m.Method == nil || m.Meta == nil {
		return errors.New("trained: Write needs a method and its metadata")
	}
	meta := *m.Meta
	meta.Format = Format
	if err := meta.Validate(); err != nil {
		return err
	}
	js, err := json.Marshal(&meta)
	if err != nil {
		return fmt.Errorf("trained: metadata: %w", err)
	}
	var head bytes.Buffer
	head.WriteString(Magic)
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(js)))
	head.Write(n[:])
	head.Write(js)
	if _, err := w.Write(head.Bytes()); err != nil {
		return err
	}
	return m.Method.Save(w)
}

// Loader reads a method's model file (the part after the metadata), of
// any method: methods.Registry's Load.
type Loader func(r io.Reader) (model.Method, error)

// Read reads a model written by Write, or a bare method file written by a
// method's Save (Meta nil); load reads the method.
func Read(r io.Reader, load Loader) (*Bundle, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(len(Magic))
	if err != nil || string(head) != Magic {
		// A bare method file (model or DUE magic), from before this package.
		m, err := load(br)
		if err != nil {
			return nil, err
		}
		return &Bundle{Method: m}, nil
	}
	br.Discard(len(Magic))
	var nb [8]byte
	if _, err := io.ReadFull(br, nb[:]); err != nil {
		return nil, fmt.Errorf("%w: metadata length: %v", ErrFormat, err)
	}
	n := binary.LittleEndian.Uint64(nb[:])
	if n == 0 || n > MaxMeta {
		return nil, fmt.Errorf("%w: metadata length %d (want 1..%d)", ErrFormat, n, MaxMeta)
	}
	js := make([]byte, 0, min(n, 1<<20))
	buf := bytes.NewBuffer(js)
	if _, err := io.CopyN(buf, br, int64(n)); err != nil {
		return nil, fmt.Errorf("%w: metadata of %d bytes: %v", ErrFormat, n, err)
	}
	meta := new(Meta)
	if err := json.Unmarshal(buf.Bytes(), meta); err != nil {
		return nil, fmt.Errorf("%w: metadata: %v", ErrFormat, err)
	}
	if err := meta.Validate(); err != nil {
		return nil, err
	}
	m, err := load(br)
	if err != nil {
		return nil, err
	}
	return &Bundle{Method: m, Meta: meta}, nil
}

// ErrIsDir is the Err of a FileError for a path that is a directory.
var ErrIsDir = errors.New("is a directory, not a model file")

// FileError is ReadFile's error: the file at Path could not be opened
// (Open; errors.Is(err, fs.ErrNotExist) when it does not exist), or it is
// not a model file this build reads (Err says why: ErrIsDir, ErrFormat, a
// method's format error).
type FileError struct {
	Path string
	Open bool
	Err  error
}

func (e *FileError) Error() string {
	switch {
	case e.Open && errors.Is(e.Err, fs.ErrNotExist):
		return fmt.Sprintf("model file %s does not exist", e.Path)
	case e.Open:
		return "model " + e.Err.Error()
	case errors.Is(e.Err, ErrIsDir):
		return fmt.Sprintf("%s %v", e.Path, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// ReadFile reads the model file at path with load; its errors are
// *FileError, naming the file.
func ReadFile(path string, load Loader) (*Bundle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &FileError{Path: path, Open: true, Err: err}
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, &FileError{Path: path, Err: ErrIsDir}
	}
	m, err := Read(f, load)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	return m, nil
}

// WriteFile writes m to path, atomically: a run killed while writing
// leaves the previous file or none.
func WriteFile(path string, m *Bundle) error {
	if err := atomicfile.Write(path, func(w io.Writer) error { return Write(w, m) }); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
