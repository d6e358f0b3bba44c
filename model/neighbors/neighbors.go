package neighbors

import (
	"bufio"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/model"
)

// Name is the method's registry name.
const Name = "neighbors"

// Magic starts every saved neighbour model.
const Magic = "DEUP-NEIGHBORS v1\n"

// The estimates' constants (package documentation): pseudo-pairs of a
// drug's line deviation, common keys of a similarity's shrinkage, the
// fewest common keys of a similarity, the weight of the zero residual in
// a neighbour mean, and the neighbours kept per drug.
const (
	marginShrink = 5
	simShrink    = 10
	minCommon    = 3
	priorWeight  = 1
	maxNeighbors = 40
)

// Ks are the neighbour counts tried on the validation pairs.
var Ks = []int{5, 10, 20, 40}

// Config is the reference's setting: K neighbours (0: the one of Ks with
// the lowest validation RMSE).
type Config struct {
	K int
}

// Row is an averaged training measurement: drug columns A <= B of the
// model's drug list, the line and the mean score.
type Row struct {
	A, B, Line int
	Y          float64
}

// neighbor is a similar drug and its similarity.
type neighbor struct {
	drug int
	sim  float64
}

// Method is the neighbour reference. It implements model.Method.
type Method struct {
	cfg     Config
	feat    model.FeatureConfig
	ids     []string       // drug column → id
	drugs   map[string]int // id → drug column
	lines   int
	rows    []Row
	k       int
	sigma   float64
	trained bool

	lineMean []float64         // line → m(l)
	dev      []float64         // drug·lines + line → d(drug, l)
	resid    map[int64]float64 // key(drug, partner, line) → r
	nb       [][]neighbor      // drug → neighbours, most similar first
}

// New returns an untrained reference.
func New(cfg Config) *Method { return &Method{cfg: cfg} }

// Name implements model.Method.
func (m *Method) Name() string { return Name }

// FeatureConfig implements model.Method: the configuration of the
// training features (only their drug ids are read).
func (m *Method) FeatureConfig() model.FeatureConfig { return m.feat }

// AleatoricNote implements model.Method.
func (m *Method) AleatoricNote() string {
	return "none: the neighbour reference predicts a mean; its σ is the validation RMSE, the same for every pair"
}

// K is the neighbour count in use (after Fit or Load).
func (m *Method) K() int { return m.k }

// ValidationRMSE is the RMSE on the validation pairs of the estimates of
// the training pairs alone, at the chosen K (σ): the out-of-sample figure
// of the fit, since the validation pairs are in the model's memory after
// it.
func (m *Method) ValidationRMSE() float64 { return m.sigma }

func (m *Method) key(d, p, l int) int64 {
	return (int64(d)*int64(len(m.ids))+int64(p))*int64(m.lines) + int64(l)
}

// Fit implements model.Method: K (unless set) and σ are chosen with the
// estimates of split.Train on split.Val (required); the model then keeps
// the estimates of both.
func (m *Method) Fit(ctx context.Context, d *model.Dataset, split drugcomb.Split, progress func(model.Progress)) error {
	if err := d.Validate(); err != nil {
		return err
	}
	if err := model.CheckSplit(d, split, true); err != nil {
		return fmt.Errorf("neighbors: %w", err)
	}
	if m.cfg.K < 0 {
		return fmt.Errorf("neighbors: K = %d, want >= 0", m.cfg.K)
	}
	start := time.Now()
	m.trained = false
	m.feat, m.lines = d.Features.Config, max(d.Lines(), 1)
	if err := checkCells(d.Features.NumDrugs(), m.lines); err != nil {
		return fmt.Errorf("neighbors: %w", err)
	}
	if err := m.memorize(d, split.Train); err != nil {
		return err
	}
	if err := m.build(ctx); err != nil {
		return err
	}
	val := d.PairsAt(split.Val)
	cols := m.columns(d.Features)
	ks := Ks
	if m.cfg.K > 0 {
		ks = []int{m.cfg.K}
	}
	best, bestK := math.Inf(1), 0
	for e, k := range ks {
		if err := ctx.Err(); err != nil {
			return err
		}
		s := 0.0
		for j, p := range val {
			r := m.mu(cols[p.A], cols[p.B], p.Line, k) - d.Y[split.Val[j]]
			s += r * r
		}
		v := math.Sqrt(s / float64(len(val)))
		if v < best {
			best, bestK = v, k
		}
		if progress != nil {
			progress(model.Progress{Method: Name, Members: 1, Epoch: e + 1, MaxEpochs: len(ks), TrainLoss: math.NaN(), OutLoss: math.NaN(),
				ValRMSE: v, BestEpoch: slices.Index(ks, bestK) + 1, Elapsed: time.Since(start)})
		}
	}
	// K and σ chosen, the validation pairs join the memory: they are
	// measured combinations like the training ones (σ, the validation
	// RMSE of the smaller memory, errs on the wide side).
	if err := m.memorize(d, append(slices.Clone(split.Train), split.Val...)); err != nil {
		return err
	}
	if err := m.build(ctx); err != nil {
		return err
	}
	m.k, m.sigma, m.trained = bestK, best, true
	if progress != nil {
		progress(model.Progress{Method: Name, Members: 1, Epoch: len(ks), MaxEpochs: len(ks), BestEpoch: slices.Index(ks, bestK) + 1,
			Elapsed: time.Since(start), Done: true, TrainLoss: math.NaN(), OutLoss: math.NaN(), ValRMSE: math.NaN()})
	}
	return nil
}

// memorize sets the drug list and the averaged rows from the pairs idx of
// d: a drug's column is its order of first appearance, a row the mean of
// the unordered pair's measurements on a line.
func (m *Method) memorize(d *model.Dataset, idx []int) error {
	m.ids, m.drugs = nil, map[string]int{}
	col := make([]int, d.Features.NumDrugs())
	for i := range col {
		col[i] = -1
	}
	type cell struct{ a, b, l int }
	sum, n := map[cell]float64{}, map[cell]int{}
	var order []cell
	for _, i := range idx {
		p := d.Pairs[i]
		for _, r := range [2]int{p.A, p.B} {
			if col[r] >= 0 {
				continue
			}
			id := d.Features.ID(r)
			if _, dup := m.drugs[id]; dup {
				return fmt.Errorf("neighbors: drug id %q on two feature rows", id)
			}
			col[r] = len(m.ids)
			m.drugs[id] = col[r]
			m.ids = append(m.ids, id)
		}
		a, b := col[p.A], col[p.B]
		if a > b {
			a, b = b, a
		}
		c := cell{a, b, p.Line}
		if n[c] == 0 {
			order = append(order, c)
		}
		sum[c] += d.Y[i]
		n[c]++
	}
	m.rows = make([]Row, len(order))
	for k, c := range order {
		m.rows[k] = Row{A: c.a, B: c.b, Line: c.l, Y: sum[c] / float64(n[c])}
	}
	return nil
}

// build computes the line means, drug deviations, residuals and
// neighbour lists from m.rows.
func (m *Method) build(ctx context.Context) error {
	nd, nl := len(m.ids), m.lines
	lsum, ln := make([]float64, nl), make([]float64, nl)
	for _, r := range m.rows {
		lsum[r.Line] += r.Y
		ln[r.Line]++
	}
	m.lineMean = make([]float64, nl)
	var all float64
	for l := range nl {
		if ln[l] > 0 {
			m.lineMean[l] = lsum[l] / ln[l]
		}
		all += lsum[l]
	}
	dsum, dn := make([]float64, nd*nl), make([]float64, nd*nl)
	psum, pn := make([]float64, nd), make([]float64, nd)
	for _, r := range m.rows {
		for _, x := range drugsOf(r) {
			e := r.Y - m.lineMean[r.Line]
			dsum[x*nl+r.Line] += e
			dn[x*nl+r.Line]++
			psum[x] += e
			pn[x]++
		}
	}
	m.dev = make([]float64, nd*nl)
	for i := range m.dev {
		m.dev[i] = dsum[i] / (dn[i] + marginShrink)
	}
	// A line without measurements (a held-out line, or one added by
	// AddLines) gets the pooled additive part: the mean of every training
	// score and each drug's deviation pooled over the lines it was
	// measured on, shrunk as a line's is; it has no residuals, so no
	// neighbour term.
	for l := range nl {
		if ln[l] > 0 || len(m.rows) == 0 {
			continue
		}
		m.lineMean[l] = all / float64(len(m.rows))
		for x := range nd {
			m.dev[x*nl+l] = psum[x] / (pn[x] + marginShrink)
		}
	}
	// Each drug's residuals, sorted by (partner, line) for the merges.
	by := make([][]entry, nd)
	m.resid = make(map[int64]float64, 2*len(m.rows))
	for _, r := range m.rows {
		e := r.Y - m.lineMean[r.Line] - m.dev[r.A*nl+r.Line] - m.dev[r.B*nl+r.Line]
		m.resid[m.key(r.A, r.B, r.Line)] = e
		by[r.A] = append(by[r.A], entry{int64(r.B)*int64(nl) + int64(r.Line), e})
		if r.B != r.A {
			m.resid[m.key(r.B, r.A, r.Line)] = e
			by[r.B] = append(by[r.B], entry{int64(r.A)*int64(nl) + int64(r.Line), e})
		}
	}
	for _, es := range by {
		slices.SortFunc(es, func(x, y entry) int { return cmp.Compare(x.key, y.key) })
	}
	// Each drug's similarities, one row at a time (memory O(D), not
	// O(D²)); sim(a, e) and sim(e, a) are the same bits, the merge adding
	// the same products in the same key order.
	m.nb = make([][]neighbor, nd)
	for a := range nd {
		if err := ctx.Err(); err != nil {
			return err
		}
		var l []neighbor
		for e := range nd {
			if e == a {
				continue
			}
			if s := similarity(by[a], by[e]); s > 0 {
				l = append(l, neighbor{e, s})
			}
		}
		// Most similar first; ties by drug column (a fixed order).
		slices.SortFunc(l, func(x, y neighbor) int {
			if c := cmp.Compare(y.sim, x.sim); c != 0 {
				return c
			}
			return cmp.Compare(x.drug, y.drug)
		})
		m.nb[a] = slices.Clip(l[:min(len(l), maxNeighbors)])
	}
	return nil
}

// entry is a drug's residual with a partner on a line.
type entry struct {
	key int64 // partner·lines + line
	r   float64
}

// similarity is the shrunk correlation of two drugs' residuals over
// their common keys (x and y sorted by key): corr · n/(n+10), 0 below 3
// common keys or for a constant side.
func similarity(x, y []entry) float64 {
	var n, sx, sy, sxx, syy, sxy float64
	for i, j := 0, 0; i < len(x) && j < len(y); {
		switch {
		case x[i].key < y[j].key:
			i++
		case x[i].key > y[j].key:
			j++
		default:
			u, v := x[i].r, y[j].r
			n++
			sx += u
			sy += v
			sxx += u * u
			syy += v * v
			sxy += u * v
			i++
			j++
		}
	}
	if n < minCommon {
		return 0
	}
	cov, vx, vy := sxy-sx*sy/n, sxx-sx*sx/n, syy-sy*sy/n
	if vx <= 0 || vy <= 0 {
		return 0
	}
	return cov / math.Sqrt(vx*vy) * n / (n + simShrink)
}

func drugsOf(r Row) []int {
	if r.A == r.B {
		return []int{r.A}
	}
	return []int{r.A, r.B}
}

// mu is the prediction for drug columns a and b (−1: a drug the model
// does not know) on line l with k neighbours.
func (m *Method) mu(a, b, l, k int) float64 {
	if a > b { // one order, so that μ(a, b) and μ(b, a) are the same bits
		a, b = b, a
	}
	nl := m.lines
	mu := m.lineMean[l]
	if a >= 0 {
		mu += m.dev[a*nl+l]
	}
	if b >= 0 {
		mu += m.dev[b*nl+l]
	}
	if a < 0 || b < 0 {
		return mu
	}
	num, den := 0.0, 0.0
	side := func(d, other int) {
		for _, x := range m.nb[other][:min(k, len(m.nb[other]))] {
			if r, ok := m.resid[m.key(d, x.drug, l)]; ok {
				num += x.sim * r
				den += x.sim
			}
		}
	}
	side(a, b)
	side(b, a)
	return mu + num/(den+priorWeight)
}

// columns maps the feature rows of f to the model's drug columns (−1 for
// a drug it does not know).
func (m *Method) columns(f *model.Features) []int {
	col := make([]int, f.NumDrugs())
	for r := range col {
		c, ok := m.drugs[f.ID(r)]
		if !ok {
			c = -1
		}
		col[r] = c
	}
	return col
}

// AddLines gives the trained estimate n lines, its own first (n at least
// its own): the new lines have no measurements, so each gets the pooled
// additive part (the mean of every training score and each drug's
// deviation pooled over its lines) and no neighbour term. The estimates
// of the model's own lines do not change.
func (m *Method) AddLines(ctx context.Context, n int) error {
	if err := m.checkAddLines(n); err != nil {
		return err
	}
	if n == m.lines {
		return nil
	}
	m.lines = n
	return m.build(ctx)
}

func (m *Method) checkAddLines(n int) error {
	if !m.trained {
		return fmt.Errorf("neighbors: add lines: model is not trained")
	}
	if n < m.lines {
		return fmt.Errorf("neighbors: add lines: %d lines for a model of %d", n, m.lines)
	}
	if err := checkCells(len(m.ids), n); err != nil {
		return fmt.Errorf("neighbors: add lines: %w", err)
	}
	return nil
}

// checkCells refuses nd drugs on nl lines beyond what the estimate's
// tables hold (maxCells drug-line cells, 65,536 lines).
func checkCells(nd, nl int) error {
	if int64(nd)*int64(nl) > maxCells || nl > 1<<16 {
		return fmt.Errorf("%d drugs on %d lines: the estimate holds at most %d drug-line cells and 65,536 lines", nd, nl, maxCells)
	}
	return nil
}

// Predict implements model.Method.
func (m *Method) Predict(f *model.Features, pairs []model.PairRef) ([]model.Prediction, error) {
	if err := model.CheckPredict(m.trained, m.feat, m.lines, f, pairs); err != nil {
		return nil, err
	}
	col := m.columns(f)
	res := make([]model.Prediction, len(pairs))
	for k, p := range pairs {
		res[k] = model.Prediction{Mu: m.mu(col[p.A], col[p.B], p.Line, m.k), SigmaTotal: m.sigma, SigmaEpistemic: m.sigma}
	}
	return res, nil
}

// header is a saved model.
type header struct {
	Features model.FeatureConfig `json:"features"`
	Drugs    []string            `json:"drugs"`
	Lines    int                 `json:"lines"`
	K        int                 `json:"k"`
	Sigma    float64             `json:"sigma"`
	Rows     [][4]float64        `json:"rows"` // a, b, line, y
}

// Save implements model.Method: Magic, the header's length (uint64,
// little endian) and the JSON header.
func (m *Method) Save(w io.Writer) error {
	if !m.trained {
		return fmt.Errorf("neighbors: save: model is not trained")
	}
	h := header{Features: m.feat, Drugs: m.ids, Lines: m.lines, K: m.k, Sigma: m.sigma, Rows: make([][4]float64, len(m.rows))}
	for i, r := range m.rows {
		h.Rows[i] = [4]float64{float64(r.A), float64(r.B), float64(r.Line), r.Y}
	}
	js, err := json.Marshal(h)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(Magic)
	binary.Write(bw, binary.LittleEndian, uint64(len(js)))
	bw.Write(js)
	return bw.Flush()
}

// maxHeader bounds a file's header (a few hundred thousand rows fit).
const maxHeader = 1 << 26

// maxCells bounds drugs × lines of a loaded model (its deviation table:
// 8,192 drugs on 1,024 lines), and the file's rows bound it further: at
// most freeCells plus cellsPerRow for each row (a real model needs far
// fewer: the panel's 87 drugs × 43 lines are 3,741 cells for ~31,000
// rows), so that a small file cannot make Load build tables of hundreds
// of megabytes (a header claiming 60,000 lines for a handful of rows).
const (
	maxCells    = 1 << 23
	freeCells   = 1 << 16
	cellsPerRow = 64
)

// Load reads a model written by Save.
func Load(r io.Reader) (*Method, error) {
	br := bufio.NewReader(r)
	mg := make([]byte, len(Magic))
	if _, err := io.ReadFull(br, mg); err != nil || string(mg) != Magic {
		return nil, fmt.Errorf("neighbors: load: not a saved neighbour model (bad magic)")
	}
	var n uint64
	if err := binary.Read(br, binary.LittleEndian, &n); err != nil || n > maxHeader {
		return nil, fmt.Errorf("neighbors: load: header length %d: %v", n, err)
	}
	js := make([]byte, n)
	if _, err := io.ReadFull(br, js); err != nil {
		return nil, fmt.Errorf("neighbors: load: header: %w", err)
	}
	var h header
	if err := json.Unmarshal(js, &h); err != nil {
		return nil, fmt.Errorf("neighbors: load: header: %w", err)
	}
	if err := h.Features.Validate(); err != nil {
		return nil, fmt.Errorf("neighbors: load: %w", err)
	}
	if len(h.Drugs) == 0 || len(h.Drugs) > 1<<20 || h.Lines < 1 || h.Lines > 1<<16 || int64(len(h.Drugs))*int64(h.Lines) > min(maxCells, freeCells+cellsPerRow*int64(len(h.Rows))) || len(h.Drugs) > 2*len(h.Rows) || h.K < 1 || h.K > maxNeighbors || !(h.Sigma >= 0) || math.IsInf(h.Sigma, 0) || len(h.Rows) == 0 {
		return nil, fmt.Errorf("neighbors: load: header out of range: %d drugs, %d lines, k %d, sigma %v, %d rows", len(h.Drugs), h.Lines, h.K, h.Sigma, len(h.Rows))
	}
	m := &Method{feat: h.Features, ids: h.Drugs, lines: h.Lines, k: h.K, sigma: h.Sigma, drugs: map[string]int{}}
	for i, id := range h.Drugs {
		if _, dup := m.drugs[id]; dup {
			return nil, fmt.Errorf("neighbors: load: drug %q listed twice", id)
		}
		m.drugs[id] = i
	}
	seen := map[[3]int]bool{}
	m.rows = make([]Row, len(h.Rows))
	for i, v := range h.Rows {
		a, b, l := int(v[0]), int(v[1]), int(v[2])
		if float64(a) != v[0] || float64(b) != v[1] || float64(l) != v[2] || a < 0 || a > b || b >= len(h.Drugs) || l < 0 || l >= h.Lines || math.IsNaN(v[3]) || math.IsInf(v[3], 0) {
			return nil, fmt.Errorf("neighbors: load: row %d: %v out of range", i, v)
		}
		if seen[[3]int{a, b, l}] {
			return nil, fmt.Errorf("neighbors: load: row %d: pair (%d, %d) on line %d twice", i, a, b, l)
		}
		seen[[3]int{a, b, l}] = true
		m.rows[i] = Row{A: a, B: b, Line: l, Y: v[3]}
	}
	if err := m.build(context.Background()); err != nil {
		return nil, err
	}
	m.trained = true
	return m, nil
}
