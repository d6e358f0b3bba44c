package smo

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/deup-screening/deup/internal/jsonfloat"
)

func TestFunctions(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    Function
		x    []float64
		want float64
	}{
		// sin(0) = 0.
		{"multi-optima at 0", MultiOptima(), []float64{0}, 0},
		{"multi-optima at its argmax", MultiOptima(), []float64{MultiOptimaArgMax}, MultiOptimaMax},
		// sin(1)cos(5)cos(22), each factor from the definition.
		{"multi-optima at 1", MultiOptima(), []float64{1}, math.Sin(1) * math.Cos(5) * math.Cos(22)},
		// Levy13(0,0) = -(0 + 1*(1+0) + 1*(1+0)) = -2.
		{"levy13 at origin", Levy13(), []float64{0, 0}, -2},
		{"levy13 at optimum", Levy13(), []float64{1, 1}, 0},
		// Ackley at (1,..,1): 20 exp(-0.2) + exp(cos 2pi) - 20 - e = 20 (exp(-0.2) - 1).
		{"ackley-2 at ones", Ackley(2), []float64{1, 1}, 20 * (math.Exp(-0.2) - 1)},
		{"ackley-10 at ones", Ackley(10), []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, -3.6253849384403627},
		{"ackley-10 at optimum", Ackley(10), make([]float64, 10), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.f.Eval(tc.x); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("f(%v) = %.17g want %.17g", tc.x, got, tc.want)
			}
			if got := tc.f.Eval(tc.f.ArgMax); math.Abs(got-tc.f.Max) > 1e-15 {
				t.Errorf("f(argmax) = %.17g, Max = %.17g", got, tc.f.Max)
			}
		})
	}
}

// TestMultiOptimaMax checks the documented global maximum: f' vanishes at
// the argmax (central difference), and no point of a 3e6 grid on [-1, 2]
// exceeds it.
func TestMultiOptimaMax(t *testing.T) {
	f := MultiOptima()
	h := 1e-6
	d := (f.Eval([]float64{MultiOptimaArgMax + h}) - f.Eval([]float64{MultiOptimaArgMax - h})) / (2 * h)
	if math.Abs(d) > 1e-6 {
		t.Errorf("f'(x*) = %g", d)
	}
	n := 3_000_000
	x := []float64{0}
	for i := 0; i <= n; i++ {
		x[0] = -1 + 3*float64(i)/float64(n)
		if v := f.Eval(x); v > MultiOptimaMax+1e-15 {
			t.Fatalf("f(%v) = %v exceeds the documented max %v", x[0], v, MultiOptimaMax)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		name string
		dim  int
		want int
		err  bool
	}{
		{"multi-optima", 0, 1, false}, {"multi-optima", 2, 0, true},
		{"levy13", 2, 2, false}, {"levy13", 3, 0, true},
		{"ackley", 0, 10, false}, {"ackley", 30, 30, false}, {"ackley", -1, 0, true},
		{"rosenbrock", 2, 0, true},
	} {
		f, err := Lookup(tc.name, tc.dim)
		if (err != nil) != tc.err || (!tc.err && f.Dim != tc.want) {
			t.Errorf("Lookup(%q, %d) = dim %d, %v", tc.name, tc.dim, f.Dim, err)
		}
	}
}

func TestExpectedImprovement(t *testing.T) {
	for _, tc := range []struct {
		name            string
		mu, sigma, best float64
		want            float64
	}{
		// Hand value: z = 0.25, Phi(0.25) = 0.5987063256829237, phi(0.25) =
		// exp(-1/32)/sqrt(2 pi) = 0.3866681168028493; EI = 0.5 Phi + 2 phi.
		{"hand", 1, 2, 0.5, 0.5*0.5987063256829237 + 2*0.3866681168028493},
		// At mu = best, EI = sigma phi(0) = sigma / sqrt(2 pi).
		{"at the incumbent", 3, 1.5, 3, 1.5 / math.Sqrt(2*math.Pi)},
		{"no uncertainty, above", 2, 0, 1, 1},
		{"no uncertainty, below", 0, 0, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ExpectedImprovement(tc.mu, tc.sigma, tc.best); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("EI = %.15g want %.15g", got, tc.want)
			}
		})
	}
	// EI grows with sigma at fixed mean.
	if ExpectedImprovement(0, 1, 1) >= ExpectedImprovement(0, 2, 1) {
		t.Error("EI not increasing in sigma")
	}
}

func TestTrustRegion(t *testing.T) {
	t.Run("defaults", func(t *testing.T) {
		tr := NewTrustRegion(10)
		if tr.Length != 0.8 || tr.LengthMin != 1.0/128 || tr.LengthMax != 1.6 || tr.SuccessTolerance != 10 || tr.FailureTolerance != 10 {
			t.Errorf("BoTorch defaults for d=10: %+v", tr)
		}
		if NewTrustRegion(2).FailureTolerance != 4 {
			t.Error("failure tolerance for d=2 should be ceil(max(4, 2)) = 4")
		}
	})
	t.Run("failures halve", func(t *testing.T) {
		tr := NewTrustRegion(2)
		tr.Best = 1
		for i := 0; i < 3; i++ {
			tr.Update(1.0005) // within 1e-3 |best|: not a success
		}
		if tr.Length != 0.8 || tr.Failures != 3 {
			t.Fatalf("after 3 failures: %+v", tr)
		}
		tr.Update(0)
		if tr.Length != 0.4 || tr.Failures != 0 {
			t.Errorf("after 4 failures: length %v failures %d, want 0.4, 0", tr.Length, tr.Failures)
		}
	})
	t.Run("successes double up to max", func(t *testing.T) {
		tr := NewTrustRegion(2)
		tr.Best = 0
		y := 0.0
		for i := 0; i < 30; i++ {
			y++
			tr.Update(y)
		}
		if tr.Length != 1.6 || tr.Best != 30 {
			t.Errorf("after 30 successes: length %v best %v, want 1.6, 30", tr.Length, tr.Best)
		}
		tr2 := NewTrustRegion(2)
		tr2.Best = 0
		for i := 1; i <= 10; i++ {
			tr2.Update(float64(i))
		}
		if tr2.Length != 1.6 || tr2.Successes != 0 {
			t.Errorf("10 successes: length %v", tr2.Length)
		}
		// A failure resets the success streak.
		tr3 := NewTrustRegion(2)
		tr3.Best = 0
		for i := 1; i <= 9; i++ {
			tr3.Update(float64(i))
		}
		tr3.Update(-1)
		tr3.Update(100)
		if tr3.Length != 0.8 || tr3.Successes != 1 {
			t.Errorf("streak not reset: %+v", tr3)
		}
	})
	t.Run("restart below min", func(t *testing.T) {
		tr := NewTrustRegion(2)
		tr.Best = 1
		// 0.8 / 2^7 = 0.00625 < 0.5^7: the 7th halving (28 failures) restarts.
		for i := 0; i < 27; i++ {
			tr.Update(0)
		}
		if tr.Restarts != 0 || math.Abs(tr.Length-0.0125) > 1e-15 {
			t.Fatalf("after 6 halvings: %+v", tr)
		}
		tr.Update(0)
		if tr.Restarts != 1 || tr.Length != 0.8 {
			t.Errorf("after 7 halvings: %+v", tr)
		}
	})
	t.Run("bounds", func(t *testing.T) {
		tr := NewTrustRegion(2)
		// lengthscales (1, 4): /mean 2.5 -> (0.4, 1.6); /geomean 0.8 ->
		// (0.5, 2); half-sides 0.8*w/2 = (0.2, 0.8) around (0.5, 0.5).
		lo, hi := tr.Bounds([]float64{0.5, 0.5}, []float64{1, 4})
		want := [][]float64{{0.3, 0}, {0.7, 1}}
		for i := range lo {
			if math.Abs(lo[i]-want[0][i]) > 1e-12 || math.Abs(hi[i]-want[1][i]) > 1e-12 {
				t.Errorf("bounds %v %v want %v", lo, hi, want)
			}
		}
		// An isotropic kernel (one lengthscale) gives a cube.
		lo, hi = tr.Bounds([]float64{0.9, 0.1}, []float64{3})
		if math.Abs(lo[0]-0.5) > 1e-12 || hi[0] != 1 || lo[1] != 0 || math.Abs(hi[1]-0.5) > 1e-12 {
			t.Errorf("cube bounds %v %v", lo, hi)
		}
	})
}

func TestMaximizer(t *testing.T) {
	f := func(x []float64) float64 { return -(x[0]-0.3)*(x[0]-0.3) - 4*(x[1]-0.7)*(x[1]-0.7) }
	lo, hi := []float64{0, 0}, []float64{1, 1}
	x, v := Maximizer{Raw: 64, Starts: 3}.Maximize(f, lo, hi, nil, rand.New(rand.NewPCG(1, 1)))
	if math.Abs(x[0]-0.3) > 1e-4 || math.Abs(x[1]-0.7) > 1e-4 || v < -1e-8 {
		t.Errorf("argmax %v (value %v), want (0.3, 0.7)", x, v)
	}
	// The maximum on the boundary of a box that excludes the unconstrained one.
	x, _ = Maximizer{Raw: 64, Starts: 3}.Maximize(f, []float64{0.5, 0}, []float64{1, 0.5}, nil, rand.New(rand.NewPCG(1, 1)))
	if math.Abs(x[0]-0.5) > 1e-6 || math.Abs(x[1]-0.5) > 1e-6 {
		t.Errorf("boxed argmax %v, want (0.5, 0.5)", x)
	}
}

func TestParseMethods(t *testing.T) {
	if m, err := ParseMethods("gp-ei, deup-ei"); err != nil || !reflect.DeepEqual(m, []string{"gp-ei", "deup-ei"}) {
		t.Errorf("got %v, %v", m, err)
	}
	for _, bad := range []string{"", "gp-ei,gp-ei", "ucb"} {
		if _, err := ParseMethods(bad); err == nil {
			t.Errorf("ParseMethods(%q): no error", bad)
		}
	}
}

// fast are settings small enough for unit tests.
var fast = Options{Steps: 4, Init: 6, GPRestarts: -1, Maximizer: Maximizer{Raw: 64, Starts: 2}}

func TestRunReproducible(t *testing.T) {
	fastMLP := fast
	fastMLP.MLP.Epochs = 30
	fastMLP.MLP.Hidden = []int{16, 16}
	fastMLP.MCPasses = 10
	for _, tc := range []struct {
		method string
		f      Function
		opt    Options
	}{
		{"random", Levy13(), fast},
		{"gp-ei", MultiOptima(), fast},
		{"deup-ei", MultiOptima(), fastMLP},
		{"mcdropout-ei", MultiOptima(), fastMLP},
		{"ensemble-ei", Levy13(), fastMLP},
		{"turbo-ei", Ackley(3), fast},
		{"turbo-deup-ei", Ackley(3), fast},
		{"deup-ei", Ackley(3), fast},
	} {
		t.Run(tc.method+"/"+tc.f.Name, func(t *testing.T) {
			ctx := context.Background()
			a, err := Run(ctx, tc.f, tc.method, 7, tc.opt, nil)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Run(ctx, tc.f, tc.method, 7, tc.opt, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a.Y, b.Y) {
				t.Errorf("same seed, different values:\n%v\n%v", a.Y, b.Y)
			}
			c, err := Run(ctx, tc.f, tc.method, 8, tc.opt, nil)
			if err != nil {
				t.Fatal(err)
			}
			if reflect.DeepEqual(a.Y, c.Y) {
				t.Error("different seeds, same values")
			}
			if len(a.BestSoFar) != tc.opt.Steps || len(a.Y) != tc.opt.Init+tc.opt.Steps {
				t.Errorf("lengths %d best, %d values", len(a.BestSoFar), len(a.Y))
			}
			for s, b := range a.BestSoFar {
				want := math.Inf(-1)
				for _, y := range a.Y[:tc.opt.Init+s+1] {
					want = math.Max(want, y)
				}
				if b != want {
					t.Errorf("best so far at step %d = %v, max of values %v", s+1, b, want)
				}
			}
			for _, x := range a.X {
				for j, v := range x {
					if v < tc.f.Lower[j] || v > tc.f.Upper[j] {
						t.Errorf("point %v outside the box", x)
					}
				}
			}
		})
	}
	// Every method of a seed starts from the same initial design.
	a, _ := Run(context.Background(), MultiOptima(), "random", 3, fast, nil)
	b, _ := Run(context.Background(), MultiOptima(), "gp-ei", 3, fast, nil)
	if !reflect.DeepEqual(a.Y[:6], b.Y[:6]) {
		t.Error("methods of one seed start from different points")
	}
}

// TestGPEIFindsSimpleMax: on a smooth 1-D problem (Levy13 is not), GP-EI
// must reach the optimum of a quadratic-like function quickly; a broken EI
// or maximizer does not.
func TestGPEIFindsSimpleMax(t *testing.T) {
	f := Function{Name: "bump", Dim: 1, Lower: []float64{0}, Upper: []float64{1}, Max: 1, ArgMax: []float64{0.37},
		Eval: func(x []float64) float64 { return 1 - 10*(x[0]-0.37)*(x[0]-0.37) }}
	r, err := Run(context.Background(), f, "gp-ei", 1, Options{Steps: 10, Init: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.StepsToOptimum < 0 {
		t.Errorf("GP-EI did not reach the max of a quadratic in 10 steps: best %v", r.BestSoFar)
	}
}

func TestSummaryJSONShape(t *testing.T) {
	f := MultiOptima()
	runs := map[string][]*Result{}
	for _, m := range []string{"random", "gp-ei"} {
		for _, s := range []uint64{1, 2} {
			r, err := Run(context.Background(), f, m, s, fast, nil)
			if err != nil {
				t.Fatal(err)
			}
			runs[m] = append(runs[m], r)
		}
	}
	runs["random"][1].StepsToOptimum = 3 // exercise a non-null entry
	sum := Summarize(f, fast, []uint64{1, 2}, []string{"random", "gp-ei"}, runs)
	var buf bytes.Buffer
	if err := sum.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Function  string  `json:"function"`
		Dim       int     `json:"dim"`
		GlobalMax float64 `json:"global_max"`
		Methods   map[string]struct {
			BestSoFar      [][]float64 `json:"best_so_far"`
			StepsToOptimum []*int      `json:"steps_to_optimum"`
		} `json:"methods"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	// Floats are floats in JSON: only counts and seeds are integers
	// (docs/vocabulary.md, "Columns and types").
	ints, err := jsonfloat.IntegerKeys(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range ints {
		switch k {
		case "dim", "steps", "init", "seeds", "steps_to_optimum", "reached_optimum":
		default:
			t.Errorf("results.json: %q holds a number written as an integer", k)
		}
	}
	if got.Function != "multi-optima" || got.Dim != 1 || got.GlobalMax != MultiOptimaMax || len(got.Methods) != 2 {
		t.Fatalf("header %+v", got)
	}
	m := got.Methods["random"]
	if len(m.BestSoFar) != 2 || len(m.BestSoFar[0]) != fast.Steps || len(m.StepsToOptimum) != 2 || m.StepsToOptimum[0] != nil || *m.StepsToOptimum[1] != 3 {
		t.Errorf("random: %+v", m)
	}
	mean, se := sum.Curve("gp-ei")
	if len(mean) != fast.Steps+1 || len(se) != fast.Steps+1 {
		t.Errorf("curve lengths %d %d", len(mean), len(se))
	}
	// The curve's last point is the mean of the two seeds' final bests.
	want := (runs["gp-ei"][0].BestSoFar[fast.Steps-1] + runs["gp-ei"][1].BestSoFar[fast.Steps-1]) / 2
	if math.Abs(mean[fast.Steps]-want) > 1e-15 {
		t.Errorf("curve end %v want %v", mean[fast.Steps], want)
	}
	// WriteFiles: results.json and results.csv are WriteJSON's and
	// WriteCSV's bytes of the runs summarized, beside the two figures.
	dir := t.TempDir()
	if err := sum.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	var csvBuf bytes.Buffer
	if err := WriteCSV(&csvBuf, sum.Order, runs, fast.Init); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]byte{"results.json": buf.Bytes(), "results.csv": csvBuf.Bytes(), "best_so_far.png": nil, "best_so_far.svg": nil} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(b) == 0 || want != nil && !bytes.Equal(b, want) {
			t.Errorf("%s: %v, %d bytes, want %d", name, err, len(b), len(want))
		}
	}
}

func TestMaximizerNoLocalSearch(t *testing.T) {
	f := func(x []float64) float64 { return -(x[0] - 0.3) * (x[0] - 0.3) }
	calls := 0
	g := func(x []float64) float64 { calls++; return f(x) }
	Maximizer{Raw: 16, Starts: -1}.Maximize(g, []float64{0}, []float64{1}, nil, rand.New(rand.NewPCG(1, 1)))
	if calls != 16 {
		t.Errorf("Starts -1: %d evaluations, want the 16 random candidates only", calls)
	}
}
