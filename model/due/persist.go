package due

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/deup-screening/deup/gp"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/nn"
	"gonum.org/v1/gonum/mat"
)

// Magic starts every DUE model saved by this version; MagicV1 those of
// the float64 network before the kit (read, converted to float32).
const (
	Magic   = "DEUP-DUE v2\n"
	MagicV1 = "DEUP-DUE v1\n"
)

// header is the JSON part of a saved model. In version 2 the GP's flat
// parameter vector (gp.SVGPLayout) follows as a uint64 length and
// little-endian float64 values, then the network's parameters in the
// kit's format (nn.Params.Save): per layer (t1, t2, c1, c2, head) w
// (in×out), b (1×out) and, when spectrally normalized, the
// power-iteration vectors u (in) and v (out), all float32, then on a panel
// the cell-line input's E (cl.e) and, with features, W_f (cl.f). Version 1
// (float64 network) wrote, after the header, for each layer w, b, u, v
// as float64 arrays each preceded by its uint64 length, then the GP's
// vector.
type header struct {
	Config    Config              `json:"config"`
	Features  model.FeatureConfig `json:"features"`
	Dim       int                 `json:"dim"`
	YMean     float64             `json:"y_mean"`
	YScale    float64             `json:"y_scale"`
	Inducing  int                 `json:"inducing"`
	Epochs    int                 `json:"epochs"`
	BestEpoch int                 `json:"best_epoch"`
	// LineFeatures are the standardized numeric features of each cell
	// line (--cell-features; Lines×k, the input of cl.f); absent without
	// them, so that every other file is what it was.
	LineFeatures [][]float64 `json:"line_features,omitempty"`
}

// maxArray bounds an array length read back (a corrupt length must not
// allocate unbounded memory): 1<<28 values.
const maxArray = 1 << 28

// Save writes the trained model (format: see header).
func (m *Method) Save(w io.Writer) error {
	if m.model == nil {
		return fmt.Errorf("due: save: model is not trained")
	}
	tm := m.model
	bw := bufio.NewWriter(w)
	h := header{Config: tm.Config, Features: m.feat, Dim: tm.Dim, YMean: tm.YMean, YScale: tm.YScale,
		Inducing: len(tm.gp.QMean), Epochs: tm.epochs, BestEpoch: tm.bestEpoch, LineFeatures: tm.Config.lineInput().X}
	js, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("due: save: %w", err)
	}
	bw.WriteString(Magic)
	writeU64(bw, uint64(len(js)))
	bw.Write(js)
	writeArray(bw, tm.gp.Params(nil))
	if err := tm.net.params().Save(bw); err != nil {
		return fmt.Errorf("due: save: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("due: save: %w", err)
	}
	return nil
}

func writeU64(w *bufio.Writer, v uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	w.Write(b[:])
}

func writeArray(w *bufio.Writer, a []float64) {
	writeU64(w, uint64(len(a)))
	var b [8]byte
	for _, v := range a {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		w.Write(b[:])
	}
}

// Load reads a model written by Save, or by the float64 DUE of format
// version 1 (its weights rounded to float32). Corrupt or truncated input
// is an error naming what was being read, never a panic.
func Load(r io.Reader) (*Method, error) {
	br := bufio.NewReader(r)
	mg := make([]byte, len(Magic))
	if _, err := io.ReadFull(br, mg); err != nil || (string(mg) != Magic && string(mg) != MagicV1) {
		return nil, fmt.Errorf("due: load: not a saved DUE model (bad magic)")
	}
	v1 := string(mg) == MagicV1
	n, err := readU64(br)
	if err != nil || n > 1<<20 {
		return nil, fmt.Errorf("due: load: header length: %v", errOr(err, "too large"))
	}
	js := make([]byte, n)
	if _, err := io.ReadFull(br, js); err != nil {
		return nil, fmt.Errorf("due: load: header: %w", err)
	}
	var h header
	if err := json.Unmarshal(js, &h); err != nil {
		return nil, fmt.Errorf("due: load: header: %w", err)
	}
	cfg := h.Config.withDefaults()
	if len(h.LineFeatures) > 0 {
		cfg.lineX = &h.LineFeatures
	}
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("due: load: %w", err)
	}
	if err := h.Features.Validate(); err != nil {
		return nil, fmt.Errorf("due: load: header: %w", err)
	}
	if cfg.Lines < 0 || cfg.Lines > maxArray/max(cfg.TowerOut, 1) || h.Dim <= 0 || h.Dim > maxArray || h.Inducing <= 0 || h.Inducing > maxArray || !(h.YScale > 0) {
		return nil, fmt.Errorf("due: load: header: dim %d, inducing %d, scale %v", h.Dim, h.Inducing, h.YScale)
	}
	sizes := layerSizes(cfg, h.Dim)
	// The parameters are the rest of the input: read them (memory in
	// proportion to the input) and check that their size is the one the
	// header implies before allocating anything the header sizes.
	rest, err := io.ReadAll(br)
	if err != nil {
		return nil, fmt.Errorf("due: load: parameters: %w", err)
	}
	fam, _ := gp.ParseFamily(cfg.Kernel)
	gpLen := gpParams(cfg, h, fam)
	if v1 {
		if want := paramBytesV1(cfg, sizes, gpLen); want != float64(len(rest)) {
			return nil, fmt.Errorf("due: load: %d bytes of parameters, the header implies %.0f", len(rest), want)
		}
	} else if want := 8 + 8*gpLen + netParamBytes(cfg, sizes); want != float64(len(rest)) {
		return nil, fmt.Errorf("due: load: %d bytes of parameters, the header implies %.0f", len(rest), want)
	}
	pr := bytes.NewReader(rest)
	net := allocNetwork(cfg, h.Dim)
	s := gp.NewSVGP(gp.NewKernel(fam, 1, 1), 0, mat.NewDense(h.Inducing, cfg.Embedding, nil))
	if v1 {
		for i, l := range net.l {
			for _, a := range []struct {
				dst  []float32
				name string
			}{{l.w, "w"}, {l.b, "b"}, {l.sn.U, "u"}, {l.sn.V, "v"}} {
				vals, err := readArray(pr, len(a.dst))
				if err != nil {
					return nil, fmt.Errorf("due: load: layer %d %s: %w", i, a.name, err)
				}
				for k, v := range vals {
					a.dst[k] = float32(v)
				}
			}
		}
	}
	p, err := readArray(pr, int(gpLen))
	if err != nil {
		return nil, fmt.Errorf("due: load: gp parameters: %w", err)
	}
	s.SetParams(p)
	if !v1 {
		if err := net.params().Load(pr); err != nil {
			return nil, fmt.Errorf("due: load: network: %w", err)
		}
		for _, l := range net.l {
			for _, a := range [][]float32{l.w, l.b, l.sn.U, l.sn.V} {
				for k, v := range a {
					if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
						return nil, fmt.Errorf("due: load: network: layer %s: value %d is %v", l.name, k, v)
					}
				}
			}
		}
		for _, p := range net.li.Params() {
			for k, v := range net.lineParam(p.Name) {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					return nil, fmt.Errorf("due: load: network: %s: value %d is %v", p.Name, k, v)
				}
			}
		}
	}
	net.refresh()
	tm := &Net{Config: cfg, Dim: h.Dim, YMean: h.YMean, YScale: h.YScale, net: net, gp: s, epochs: h.Epochs, bestEpoch: h.BestEpoch}
	return &Method{cfg: cfg, feat: h.Features, model: tm}, nil
}

// allocNetwork returns a network of the given sizes with zero parameters
// (to be loaded).
func allocNetwork(cfg Config, dim int) *network {
	n := &network{dim: dim}
	for i, s := range layerSizes(cfg, dim) {
		l := &layer{name: layerNames[i], in: s[0], out: s[1], w: make([]float32, s[0]*s[1]), b: make([]float32, s[1]),
			sn: &nn.SpectralNorm{Coeff: cfg.Coeff, Iters: cfg.PowerIters, In: s[0], Out: s[1]}}
		if cfg.Coeff > 0 {
			l.sn.U, l.sn.V = make([]float32, s[0]), make([]float32, s[1])
		}
		n.l[i] = l
	}
	n.allocLines(cfg.lineInput())
	return n
}

// gpParams is the length of the GP's flat parameter vector for the header
// h, in float64 so that absurd headers cannot overflow.
func gpParams(cfg Config, h header, fam gp.Family) float64 {
	m, d := float64(h.Inducing), float64(cfg.Embedding)
	kp := float64(gp.NewKernel(fam, 1, 1).NumParams())
	return kp + 2 + m + m*(m+1)/2 + m*d
}

// netParamBytes is the size of the network's parameters in the kit's
// format (nn.Params.Save: an 8-byte magic, a uint32 count, then per
// parameter a uint32 name length, the name, a uint32 number of
// dimensions, a uint64 per dimension and float32 values), in float64 so
// that absurd headers cannot overflow.
func netParamBytes(cfg Config, sizes [numLayers][2]int) float64 {
	total := 8.0 + 4
	param := func(name string, dims ...int) {
		n := 1.0
		for _, d := range dims {
			n *= float64(d)
		}
		total += 4 + float64(len(name)) + 4 + 8*float64(len(dims)) + 4*n
	}
	for i, s := range sizes {
		name := layerNames[i]
		param(name+".w", s[0], s[1])
		param(name+".b", 1, s[1])
		if cfg.Coeff > 0 {
			param(name+".u", s[0])
			param(name+".v", s[1])
		}
	}
	for _, p := range cfg.lineInput().Params() {
		param(p.Name, p.Rows, p.Cols)
	}
	return total
}

// paramBytesV1 is the size of the parameter arrays of a version-1 file
// (each array a uint64 length and float64 values).
func paramBytesV1(cfg Config, sizes [numLayers][2]int, gpLen float64) float64 {
	arr := func(n float64) float64 { return 8 + 8*n }
	total := 0.0
	for _, s := range sizes {
		in, out := float64(s[0]), float64(s[1])
		total += arr(in*out) + arr(out)
		if cfg.Coeff > 0 {
			total += arr(in) + arr(out)
		} else {
			total += 2 * arr(0)
		}
	}
	return total + arr(gpLen)
}

func errOr(err error, msg string) any {
	if err != nil {
		return err
	}
	return msg
}

func readU64(r io.Reader) (uint64, error) {
	var b [8]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

func readArray(r io.Reader, want int) ([]float64, error) {
	n, err := readU64(r)
	if err != nil {
		return nil, err
	}
	if n != uint64(want) {
		return nil, fmt.Errorf("length %d, want %d", n, want)
	}
	// Grow with the data actually read, so a corrupt length cannot make us
	// allocate more than the input holds.
	out := make([]float64, 0, min(want, 1<<16))
	var b [8]byte
	for i := 0; i < want; i++ {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("value %d of %d: %w", i, want, err)
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("value %d is %v", i, v)
		}
		out = append(out, v)
	}
	return out, nil
}
