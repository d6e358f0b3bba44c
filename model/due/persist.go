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
	"gonum.org/v1/gonum/mat"
)

// magic starts every saved DUE model.
const magic = "DEUP-DUE v1\n"

// header is the JSON part of a saved model; the parameters follow as
// little-endian float64 arrays, each preceded by its uint64 length: for
// each layer (tower 1, tower 2, combined 1, combined 2, head) w, b, u, v;
// then the SVGP's flat parameter vector (gp.SVGPLayout).
type header struct {
	Config    Config              `json:"config"`
	Features  model.FeatureConfig `json:"features"`
	Dim       int                 `json:"dim"`
	YMean     float64             `json:"y_mean"`
	YScale    float64             `json:"y_scale"`
	Inducing  int                 `json:"inducing"`
	Epochs    int                 `json:"epochs"`
	BestEpoch int                 `json:"best_epoch"`
}

// maxArray bounds an array length read back (a corrupt length must not
// allocate unbounded memory): 1<<28 float64s, 2 GiB.
const maxArray = 1 << 28

// Save writes the trained model (format: see header).
func (m *Method) Save(w io.Writer) error {
	if m.model == nil {
		return fmt.Errorf("due: save: model is not trained")
	}
	tm := m.model
	bw := bufio.NewWriter(w)
	h := header{Config: tm.Config, Features: m.feat, Dim: tm.Dim, YMean: tm.YMean, YScale: tm.YScale,
		Inducing: len(tm.gp.QMean), Epochs: tm.epochs, BestEpoch: tm.bestEpoch}
	js, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("due: save: %w", err)
	}
	bw.WriteString(magic)
	writeU64(bw, uint64(len(js)))
	bw.Write(js)
	for _, l := range tm.net.layers() {
		for _, a := range [][]float64{l.w, l.b, l.u, l.v} {
			writeArray(bw, a)
		}
	}
	writeArray(bw, tm.gp.Params(nil))
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

// Load reads a model written by Save. Corrupt or truncated input is an
// error naming what was being read, never a panic.
func Load(r io.Reader) (*Method, error) {
	br := bufio.NewReader(r)
	mg := make([]byte, len(magic))
	if _, err := io.ReadFull(br, mg); err != nil || string(mg) != magic {
		return nil, fmt.Errorf("due: load: not a saved DUE model (bad magic)")
	}
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
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("due: load: %w", err)
	}
	if err := h.Features.Validate(); err != nil {
		return nil, fmt.Errorf("due: load: header: %w", err)
	}
	if h.Dim <= 0 || h.Dim > maxArray || h.Inducing <= 0 || !(h.YScale > 0) {
		return nil, fmt.Errorf("due: load: header: dim %d, inducing %d, scale %v", h.Dim, h.Inducing, h.YScale)
	}
	sizes := [][2]int{{h.Dim, cfg.TowerHidden}, {cfg.TowerHidden, cfg.TowerOut}, {cfg.TowerOut, cfg.CombHidden},
		{cfg.CombHidden, cfg.CombHidden}, {cfg.CombHidden, cfg.Embedding}}
	// The parameters are the rest of the input: read them (memory in
	// proportion to the input) and check that their size is the one the
	// header implies before allocating anything the header sizes.
	rest, err := io.ReadAll(br)
	if err != nil {
		return nil, fmt.Errorf("due: load: parameters: %w", err)
	}
	if want := paramBytes(cfg, h, sizes); want != float64(len(rest)) {
		return nil, fmt.Errorf("due: load: %d bytes of parameters, the header implies %.0f", len(rest), want)
	}
	pr := bytes.NewReader(rest)
	net := &network{}
	ls := make([]*layer, len(sizes))
	for i, s := range sizes {
		if s[0]*s[1] > maxArray {
			return nil, fmt.Errorf("due: load: layer %d of %d×%d too large", i, s[0], s[1])
		}
		l := &layer{in: s[0], out: s[1], coeff: cfg.Coeff, scale: 1}
		var err error
		for _, a := range []struct {
			dst  *[]float64
			want int
			name string
		}{{&l.w, s[0] * s[1], "w"}, {&l.b, s[1], "b"}, {&l.u, s[0], "u"}, {&l.v, s[1], "v"}} {
			want := a.want
			if cfg.Coeff <= 0 && (a.name == "u" || a.name == "v") {
				want = 0
			}
			if *a.dst, err = readArray(pr, want); err != nil {
				return nil, fmt.Errorf("due: load: layer %d %s: %w", i, a.name, err)
			}
		}
		if cfg.Coeff <= 0 {
			l.u, l.v = nil, nil
		}
		ls[i] = l
	}
	net.t1, net.t2, net.c1, net.c2, net.head = ls[0], ls[1], ls[2], ls[3], ls[4]
	fam, _ := gp.ParseFamily(cfg.Kernel)
	s := gp.NewSVGP(gp.NewKernel(fam, 1, 1), 0, mat.NewDense(h.Inducing, cfg.Embedding, nil))
	p, err := readArray(pr, s.NumParams())
	if err != nil {
		return nil, fmt.Errorf("due: load: gp parameters: %w", err)
	}
	s.SetParams(p)
	for _, l := range net.layers() {
		l.updateSigma()
	}
	tm := &Model{Config: cfg, Dim: h.Dim, YMean: h.YMean, YScale: h.YScale, net: net, gp: s, epochs: h.Epochs, bestEpoch: h.BestEpoch}
	return &Method{cfg: cfg, feat: h.Features, model: tm}, nil
}

// paramBytes is the size of the parameter arrays Save writes for the
// header h (each array a uint64 length and float64 values), in float64 so
// that absurd headers cannot overflow.
func paramBytes(cfg Config, h header, sizes [][2]int) float64 {
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
	fam, _ := gp.ParseFamily(cfg.Kernel)
	m, d := float64(h.Inducing), float64(cfg.Embedding)
	kp := float64(gp.NewKernel(fam, 1, 1).NumParams())
	return total + arr(kp+2+m+m*(m+1)/2+m*d)
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

// LoadAny reads a model written by any model.Method's Save: a DUE model
// (recognized by its magic) through Load, anything else through
// model.Load. The model package cannot import this one, so commands that
// load saved models should call LoadAny.
func LoadAny(r io.Reader) (model.Method, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(len(magic))
	if err == nil && string(head) == magic {
		return Load(br)
	}
	return model.Load(br)
}
