package smo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/deup-screening/deup/deup"
	"github.com/deup-screening/deup/deup/mlp"
	"github.com/deup-screening/deup/gp"

	"github.com/deup-screening/deup/internal/streams"

	"github.com/deup-screening/deup/uq"
)

// Methods lists the method names Run accepts.
var Methods = []string{"random", "gp-ei", "deup-ei", "mcdropout-ei", "ensemble-ei", "turbo-ei", "turbo-deup-ei"}

// ParseMethods splits a comma-separated list of method names and checks
// each; repeats are an error.
func ParseMethods(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, m := range strings.Split(s, ",") {
		m = strings.TrimSpace(m)
		ok := false
		for _, k := range Methods {
			ok = ok || k == m
		}
		if !ok {
			return nil, fmt.Errorf("smo: unknown method %q (want %s)", m, strings.Join(Methods, ", "))
		}
		if seen[m] {
			return nil, fmt.Errorf("smo: method %q listed twice", m)
		}
		seen[m] = true
		out = append(out, m)
	}
	return out, nil
}

// proposer is one method's acquisition machinery; it works in the unit
// cube and owns its copy of the data.
type proposer interface {
	propose(rng *rand.Rand, step int) ([]float64, error)
	observe(u []float64, y float64) error
}

func newProposer(method string, f Function, x [][]float64, y []float64, opt *Options, seed uint64) (proposer, error) {
	d := f.Dim
	data := &dataset{dim: d}
	for i := range x {
		data.add(x[i], y[i])
	}
	switch method {
	case "random":
		return &randomSearch{dim: d}, nil
	case "gp-ei":
		return &gpEI{data: data, opt: opt, gp: opt.gpLearner(d, seed)}, nil
	case "mcdropout-ei", "ensemble-ei":
		return &nnEI{data: data, opt: opt, dropout: method == "mcdropout-ei", seed: seed}, nil
	case "turbo-ei":
		tr := NewTrustRegion(d)
		tr.Best = data.best()
		return &gpEI{data: data, opt: opt, gp: opt.turboLearner(d, seed), tr: tr}, nil
	case "deup-ei", "turbo-deup-ei":
		turbo := method == "turbo-deup-ei"
		cfg, err := opt.deupConfig(f, seed, turbo, y)
		if err != nil {
			return nil, err
		}
		loop, err := deup.NewLoop(cfg, data.x, data.y)
		if err != nil {
			return nil, err
		}
		rng := rand.New(rand.NewPCG(seed, streams.SMOMethod))
		if err := loop.Prefill(deup.PrefillOptions{Folds: 2, Repeats: 2, InSample: true}, rng); err != nil {
			return nil, fmt.Errorf("smo: %s: prefill: %w", method, err)
		}
		p := &deupEI{data: data, opt: opt, loop: loop}
		if turbo {
			p.tr = NewTrustRegion(d)
			p.tr.Best = data.best()
		}
		return p, nil
	}
	return nil, fmt.Errorf("smo: unknown method %q", method)
}

type dataset struct {
	dim int
	x   [][]float64
	y   []float64
}

func (d *dataset) add(x []float64, y float64) {
	d.x = append(d.x, append([]float64(nil), x...))
	d.y = append(d.y, y)
}

func (d *dataset) best() float64 {
	b := math.Inf(-1)
	for _, v := range d.y {
		b = math.Max(b, v)
	}
	return b
}

func (d *dataset) argBest() []float64 {
	bi := 0
	for i, v := range d.y {
		if v > d.y[bi] {
			bi = i
		}
	}
	return d.x[bi]
}

func unitBox(d int) (lo, hi []float64) {
	lo, hi = make([]float64, d), make([]float64, d)
	for i := range hi {
		hi[i] = 1
	}
	return lo, hi
}

type randomSearch struct{ dim int }

func (r *randomSearch) propose(rng *rand.Rand, _ int) ([]float64, error) {
	u := make([]float64, r.dim)
	for i := range u {
		u[i] = rng.Float64()
	}
	return u, nil
}

func (r *randomSearch) observe([]float64, float64) error { return nil }

// gpEI is GP-EI, and TuRBO-1-EI when tr is set.
type gpEI struct {
	data *dataset
	opt  *Options
	gp   deup.GP
	tr   *TrustRegion
}

func (g *gpEI) propose(rng *rand.Rand, step int) ([]float64, error) {
	cfg := g.gp
	cfg.Config.Seed += uint64(step)
	X, err := deup.Matrix(g.data.x)
	if err != nil {
		return nil, err
	}
	model, err := gp.Fit(X, g.data.y, cfg.Config)
	if err != nil {
		return nil, fmt.Errorf("smo: fit gp: %w", err)
	}
	best := g.data.best()
	acq := func(u []float64) float64 {
		mu, v := model.Predict(u)
		return ExpectedImprovement(mu, math.Sqrt(v), best)
	}
	lo, hi := unitBox(g.data.dim)
	if g.tr != nil {
		lo, hi = g.tr.Bounds(g.data.argBest(), lengthscales(model))
	}
	u, _ := g.opt.Maximizer.Maximize(acq, lo, hi, [][]float64{g.data.argBest()}, rng)
	return u, nil
}

func (g *gpEI) observe(u []float64, y float64) error {
	g.data.add(u, y)
	if g.tr != nil {
		g.tr.Update(y)
	}
	return nil
}

func lengthscales(m *gp.GP) []float64 {
	ls := make([]float64, len(m.Kernel.LogLengthscales))
	for i, v := range m.Kernel.LogLengthscales {
		ls[i] = math.Exp(v)
	}
	return ls
}

// nnEI is MCDropout-EI (dropout) or Ensemble-EI: the paper's 3x128 ReLU
// network, mean and standard deviation over dropout passes or members.
type nnEI struct {
	data    *dataset
	opt     *Options
	dropout bool
	seed    uint64
}

func (n *nnEI) propose(rng *rand.Rand, step int) ([]float64, error) {
	cfg := n.opt.MLP
	var acq func([]float64) float64
	best := n.data.best()
	if n.dropout {
		cfg.Dropout = n.opt.Dropout
		cfg.Seed = n.seed*1_000_003 + uint64(step)
		net, err := mlp.Train(n.data.x, n.data.y, cfg)
		if err != nil {
			return nil, err
		}
		passes := n.opt.MCPasses
		buf := make([]float64, passes)
		maskSeed := rng.Uint64()
		acq = func(u []float64) float64 {
			// Common random numbers: the same masks at every u, so the
			// acquisition is a deterministic function for the local search.
			buf = net.PredictSamples(buf, u, passes, rand.New(rand.NewPCG(maskSeed, 1)))
			mu, sd := uq.PopMeanSD(buf)
			return ExpectedImprovement(mu, sd, best)
		}
	} else {
		nets := make([]*mlp.Net, n.opt.EnsembleSize)
		for k := range nets {
			c := cfg
			c.Seed = (n.seed*1_000_003+uint64(step))*31 + uint64(k)
			net, err := mlp.Train(n.data.x, n.data.y, c)
			if err != nil {
				return nil, err
			}
			nets[k] = net
		}
		buf := make([]float64, len(nets))
		acq = func(u []float64) float64 {
			for k, net := range nets {
				buf[k] = net.Predict(u)
			}
			mu, sd := uq.PopMeanSD(buf)
			return ExpectedImprovement(mu, sd, best)
		}
	}
	lo, hi := unitBox(n.data.dim)
	u, _ := n.opt.Maximizer.Maximize(acq, lo, hi, [][]float64{n.data.argBest()}, rng)
	return u, nil
}

func (n *nnEI) observe(u []float64, y float64) error { n.data.add(u, y); return nil }

// deupEI is DEUP-EI (Algorithm 3 with EI on N(h(x), e(phi(x)))), and
// TuRBO-DEUP-EI when tr is set.
type deupEI struct {
	data *dataset
	opt  *Options
	loop *deup.Loop
	tr   *TrustRegion
}

func (p *deupEI) propose(rng *rand.Rand, step int) ([]float64, error) {
	m, err := p.loop.Fit()
	if err != nil {
		return nil, err
	}
	best := p.data.best()
	acq := func(u []float64) float64 {
		mu, sd := m.Sigma(u)
		return ExpectedImprovement(mu, sd, best)
	}
	lo, hi := unitBox(p.data.dim)
	if p.tr != nil {
		var ls []float64
		if g, ok := m.Main.(deup.GPModel); ok {
			ls = lengthscales(g.GP)
		}
		lo, hi = p.tr.Bounds(p.data.argBest(), ls)
	}
	u, _ := p.opt.Maximizer.Maximize(acq, lo, hi, [][]float64{p.data.argBest()}, rng)
	return u, nil
}

func (p *deupEI) observe(u []float64, y float64) error {
	if err := p.loop.Observe(u, y); err != nil {
		return err
	}
	p.data.add(u, y)
	if p.tr != nil {
		p.tr.Update(y)
	}
	return nil
}
