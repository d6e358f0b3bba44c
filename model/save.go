package model

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
)

// File format (version 1), little-endian:
//
//	magic   "DEUPMODEL\n"
//	uint32  format version (1)
//	uint32  header length n
//	n bytes JSON header (method, config, feature config, standardization,
//	        aleatoric regressor, parameter names and shapes)
//	float32 parameter values, in header order, row-major
//	uint32  CRC-32 (IEEE) of everything before it
const (
	fileMagic   = "DEUPMODEL\n"
	fileVersion = 1
)

// ErrFormat marks a model file that is not a valid model (bad magic,
// truncated, checksum mismatch, inconsistent header).
var ErrFormat = errors.New("model: not a valid model file")

// fileParam is one parameter's name and shape in a Header.
type fileParam struct {
	Name string `json:"name"`
	Rows int    `json:"rows"`
	Cols int    `json:"cols"`
}

// Header is a model file's JSON header. Aleatoric, SigmaRef and Novelty
// are DEUP's (package model/deupnet), raw here: a method built on the
// network stores its own numbers in them, Extra, Replicated, SigmaLoss
// and SigmaScale. Nets and Params are set by Encode.
type Header struct {
	Method    string          `json:"method"`
	Config    FileConfig      `json:"config"`
	Features  FeatureConfig   `json:"features"`
	Mean      float64         `json:"mean"`
	SD        float64         `json:"sd"`
	Aleatoric json.RawMessage `json:"aleatoric,omitempty"`
	Sigma     bool            `json:"sigma"`
	Nets      int             `json:"nets"` // networks stored one after the other
	Params    []fileParam     `json:"params"`
	Extra     []float64       `json:"extra,omitempty"` // method-specific numbers
	// Replicated is the number of training pairs with replicates (DEUP).
	Replicated int `json:"replicated,omitempty"`
	// SigmaRef is the reference of DEUP's σ features (model/deupnet);
	// absent in files without them (every file written before them).
	SigmaRef json.RawMessage `json:"sigma_features,omitempty"`
	// SigmaLoss and SigmaScale: DEUP's σ refit loss (Config.SigmaLoss)
	// and the scale it multiplies σ by; absent for "nll" (scale 1).
	SigmaLoss  string  `json:"sigma_loss,omitempty"`
	SigmaScale float64 `json:"sigma_scale,omitempty"`
	// Novelty is DEUP's novelty scale of σ_total (model/deupnet); absent in
	// files written before it, which predict without it.
	Novelty json.RawMessage `json:"novelty,omitempty"`
	// SigmaBound is DEUP's bound on σ_total from the lines' training
	// scores (model/deupnet); absent in files written before it, which
	// predict without it.
	SigmaBound json.RawMessage `json:"sigma_bound,omitempty"`
}

// FileConfig is the network configuration a model file records.
type FileConfig struct {
	TowerHidden, TowerOut, CombHidden, SigmaHidden int
	LR, WeightDecay                                float64
	BatchSize, MaxEpochs, Patience                 int
	MinSigma                                       float64
	Seed                                           uint64
	// Lines is the number of cell-line embeddings (cl.e); absent (0) for
	// a one-line network, so one-line files are unchanged.
	Lines int `json:",omitempty"`
	// LineFeatures are the standardized numeric features of each line
	// (--cell-features; lines×k, the input of cl.f); absent without them.
	LineFeatures [][]float64 `json:",omitempty"`
	// Identity are the drugs of the identity vectors (Config.Identity;
	// the rows of id.e), IdentityDrop the drop probability they were
	// trained with; absent without them, so files without them are
	// unchanged (and files written before them load as before).
	Identity     []string `json:",omitempty"`
	IdentityDrop float64  `json:",omitempty"`
	// LineFiLM: the lines scale the first combined layer (cl.g,
	// Config.LineFiLM); absent without it.
	LineFiLM bool `json:",omitempty"`
}

// NewFileConfig is the record of c.
func NewFileConfig(c Config) FileConfig {
	f := FileConfig{c.TowerHidden, c.TowerOut, c.CombHidden, c.SigmaHidden, c.LR, c.WeightDecay, c.BatchSize, c.MaxEpochs, c.Patience, c.MinSigma, c.Seed, c.lines, c.lineRows(), nil, 0, c.filmOn()}
	if c.identityRows() > 0 {
		f.Identity, f.IdentityDrop = c.IdentityIDs(), c.IdentityDrop
	}
	return f
}

// Config is the configuration f records (the σ-feature columns, Side,
// are not part of it).
func (f FileConfig) Config() Config {
	c := Config{TowerHidden: f.TowerHidden, TowerOut: f.TowerOut, CombHidden: f.CombHidden, SigmaHidden: f.SigmaHidden,
		LR: f.LR, WeightDecay: f.WeightDecay, BatchSize: f.BatchSize, MaxEpochs: f.MaxEpochs, Patience: f.Patience, MinSigma: f.MinSigma, Seed: f.Seed, lines: f.Lines, lineX: lineRowsOf(f.LineFeatures)}
	c.LineFiLM = f.LineFiLM
	if len(f.Identity) > 0 {
		ids := append([]string(nil), f.Identity...)
		c.Identity, c.IdentityDrop, c.ids = true, f.IdentityDrop, &ids
	}
	return c
}

// Encode writes a model file: the header h (its Nets, Sigma and Params
// set from nets) and the networks' parameters.
func Encode(w io.Writer, h Header, nets []*Network) error {
	if len(nets) == 0 {
		return fmt.Errorf("model: save: nothing to save")
	}
	h.Nets = len(nets)
	h.Sigma = nets[0].sigma
	h.Params = nil
	for _, p := range nets[0].params {
		h.Params = append(h.Params, fileParam{p.name, p.rows, p.cols})
	}
	js, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("model: save: %w", err)
	}
	crc := crc32.NewIEEE()
	mw := io.MultiWriter(w, crc)
	var buf bytes.Buffer
	buf.WriteString(fileMagic)
	binary.Write(&buf, binary.LittleEndian, uint32(fileVersion))
	binary.Write(&buf, binary.LittleEndian, uint32(len(js)))
	buf.Write(js)
	if _, err := mw.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("model: save: %w", err)
	}
	for _, n := range nets {
		for _, p := range n.params {
			vals := toFloat64(p.t.Data())
			b := make([]byte, 4*len(vals))
			for i, v := range vals {
				binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(v)))
			}
			if _, err := mw.Write(b); err != nil {
				return fmt.Errorf("model: save: %w", err)
			}
		}
	}
	if err := binary.Write(w, binary.LittleEndian, crc.Sum32()); err != nil {
		return fmt.Errorf("model: save: %w", err)
	}
	return nil
}

// Decode reads and checks a model file, returning the header and the
// networks (float32). side, when not nil, checks the method's part of the
// header and returns the number of σ-feature columns of its networks
// (Config.Side; DEUP's σ features); nil means none, and a header with
// σ features is an error.
func Decode(r io.Reader, side func(h *Header) (int, error)) (Header, []*Network, error) {
	var h Header
	data, err := io.ReadAll(r)
	if err != nil {
		return h, nil, fmt.Errorf("model: load: %w", err)
	}
	if len(data) < len(fileMagic)+12 || string(data[:len(fileMagic)]) != fileMagic {
		return h, nil, fmt.Errorf("%w: missing magic %q", ErrFormat, fileMagic)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return h, nil, fmt.Errorf("%w: checksum mismatch (file corrupted or truncated)", ErrFormat)
	}
	p := len(fileMagic)
	if v := binary.LittleEndian.Uint32(data[p:]); v != fileVersion {
		return h, nil, fmt.Errorf("%w: format version %d, this build reads %d", ErrFormat, v, fileVersion)
	}
	hl := int(binary.LittleEndian.Uint32(data[p+4:]))
	p += 8
	if hl > len(body)-p {
		return h, nil, fmt.Errorf("%w: header length %d beyond end", ErrFormat, hl)
	}
	if err := json.Unmarshal(body[p:p+hl], &h); err != nil {
		return h, nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	p += hl
	cfg := h.Config.Config()
	if err := cfg.Validate(); err != nil || h.Config.Lines < 0 || h.Config.Lines > 1<<20 || len(h.Config.Identity) > 1<<20 || h.Nets < 1 || h.Nets > 1000 || h.Features.Dim() <= 0 || !(h.SD > 0) {
		return h, nil, fmt.Errorf("%w: header: invalid configuration (%v)", ErrFormat, err)
	}
	if err := checkHeader(h); err != nil {
		return h, nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	if side != nil {
		k, err := side(&h)
		if err != nil {
			return h, nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
		}
		cfg.side = k
	}
	// Check the size the configuration implies before allocating anything.
	if want := impliedParams(cfg, h.Features.Dim(), h.Sigma) * float64(h.Nets) * 4; want != float64(len(body)-p) {
		return h, nil, fmt.Errorf("%w: %d parameter bytes, configuration implies %.0f", ErrFormat, len(body)-p, want)
	}
	var nets []*Network
	for k := 0; k < h.Nets; k++ {
		n := NewNetwork(cfg, h.Features.Dim(), h.Sigma, 0)
		if len(n.params) != len(h.Params) {
			return h, nil, fmt.Errorf("%w: %d parameters, configuration implies %d", ErrFormat, len(h.Params), len(n.params))
		}
		for i, q := range n.params {
			fp := h.Params[i]
			if fp.Name != q.name || fp.Rows != q.rows || fp.Cols != q.cols {
				return h, nil, fmt.Errorf("%w: parameter %d is %s %d×%d, configuration implies %s %d×%d", ErrFormat, i, fp.Name, fp.Rows, fp.Cols, q.name, q.rows, q.cols)
			}
			nb := 4 * q.rows * q.cols
			if p+nb > len(body) {
				return h, nil, fmt.Errorf("%w: truncated in parameter %s", ErrFormat, q.name)
			}
			d := q.t.Data().([]float32)
			for j := range d {
				d[j] = math.Float32frombits(binary.LittleEndian.Uint32(body[p+4*j:]))
			}
			p += nb
		}
		nets = append(nets, n)
	}
	if p != len(body) {
		return h, nil, fmt.Errorf("%w: %d trailing bytes", ErrFormat, len(body)-p)
	}
	return h, nets, nil
}

// Load reads a model written by the Save of this package's methods
// (ensemble, ensemble-nll, mcdropout); a file of another method is an
// error (methods.Registry.Load reads every method's).
func Load(r io.Reader) (Method, error) {
	h, nets, err := Decode(r, nil)
	if err != nil {
		return nil, err
	}
	switch h.Method {
	case "ensemble", "ensemble-nll":
		nll := h.Method == "ensemble-nll"
		if h.Sigma != nll {
			return nil, fmt.Errorf("%w: %s model with σ path %v", ErrFormat, h.Method, h.Sigma)
		}
		e := &DeepEnsemble{cfg: h.Config.Config().WithDefaults(), members: len(nets), nll: nll, nets: nets, feat: h.Features, mean: h.Mean, sd: h.SD, trained: true}
		for _, n := range nets {
			e.fwds = append(e.fwds, NewForwarder(n))
		}
		return e, nil
	case "mcdropout":
		if len(nets) != 1 || h.Sigma || len(h.Extra) != 2 || !(h.Extra[0] > 0 && h.Extra[0] < 1) || h.Extra[1] < 2 {
			return nil, fmt.Errorf("%w: mcdropout model: %d networks, settings %v", ErrFormat, len(nets), h.Extra)
		}
		return &MCDropout{cfg: h.Config.Config().WithDefaults(), p: h.Extra[0], passes: int(h.Extra[1]), net: nets[0], fwd: NewForwarder(nets[0]), feat: h.Features, mean: h.Mean, sd: h.SD, trained: true}, nil
	}
	return nil, fmt.Errorf("%w: unknown method %q", ErrFormat, h.Method)
}

// maxPasses bounds the Monte Carlo passes a model file may ask Predict for
// (real models use 10-100).
const maxPasses = 100000

// checkHeader checks the feature configuration, the standardization and
// the method settings read from a model file.
func checkHeader(h Header) error {
	if err := h.Features.Validate(); err != nil {
		return err
	}
	if math.IsNaN(h.Mean) || math.IsInf(h.Mean, 0) || math.IsInf(h.SD, 0) {
		return fmt.Errorf("standardization mean %v, sd %v", h.Mean, h.SD)
	}
	if h.Method == "mcdropout" && len(h.Extra) == 2 && !(h.Extra[1] <= maxPasses) {
		return fmt.Errorf("%v Monte Carlo passes (at most %d)", h.Extra[1], maxPasses)
	}
	if Present(h.SigmaRef) && (h.Method != "deup" || !h.Sigma) {
		return fmt.Errorf("sigma features in a %s model", h.Method)
	}
	return nil
}

// impliedParams is the number of parameters newNetwork allocates, in
// float64 so that absurd configurations cannot overflow.
func impliedParams(c Config, dim int, sigma bool) float64 {
	d, th, to, ch, sh := float64(dim), float64(c.TowerHidden), float64(c.TowerOut), float64(c.CombHidden), float64(c.SigmaHidden)
	n := d*th + th + th*to + to + to*ch + ch + ch*ch + ch + ch + 1
	if sigma {
		n += to*sh + (2+float64(c.side))*sh + sh*sh + sh + sh + 1
	}
	for _, p := range c.lineInput().Params() {
		n += float64(p.Rows) * float64(p.Cols)
	}
	n += float64(c.identityRows()) * th
	if c.filmOn() {
		n += float64(c.lines) * ch
	}
	return n
}

// lineRowsOf is Config.lineX for the features of a file (nil: none).
func lineRowsOf(x [][]float64) *[][]float64 {
	if len(x) == 0 {
		return nil
	}
	return &x
}

// FileMethod returns the method a model file that starts with head names
// in its header (ok false when head is not the start of a file of this
// format, or its header cannot be read). It checks nothing else: Load
// does.
func FileMethod(head []byte) (name string, ok bool) {
	p := len(fileMagic)
	if len(head) < p+8 || string(head[:p]) != fileMagic {
		return "", false
	}
	hl := int(binary.LittleEndian.Uint32(head[p+4:]))
	if hl < 0 || hl > len(head)-p-8 {
		return "", false
	}
	var h struct {
		Method string `json:"method"`
	}
	if err := json.Unmarshal(head[p+8:p+8+hl], &h); err != nil || h.Method == "" {
		return "", false
	}
	return h.Method, true
}

// Present reports whether a raw header field holds a value (not absent,
// not null).
func Present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }
