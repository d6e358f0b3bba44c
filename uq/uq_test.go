package uq

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// The shared example: 12 predictions with ties in residuals and sigmas.
var (
	exY     = []float64{1.0, -2.0, 0.5, 3.0, 10.0, -7.5, 2.0, 0.0, 4.25, -1.0, 6.0, -3.0}
	exMu    = []float64{0.5, -1.0, 0.5, 5.0, 4.0, -6.5, 1.0, 2.0, 4.00, 1.0, 9.0, -3.5}
	exSigma = []float64{1.0, 2.0, 0.5, 1.5, 3.0, 1.0, 2.0, 1.0, 0.25, 2.0, 2.5, 0.5}
)

func close(got, want, tol float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// Expected values: scipy 1.10.1 / numpy 1.24.2 (Debian bookworm), computed
// with stats.pearsonr, stats.spearmanr, stats.norm.logpdf, the CRPS closed
// form (confirmed to 1e-15 by integrating (F(x) - 1{x >= y})^2 with
// integrate.quad), and for miscal_area numpy.interp of the curve at
// p = k/101 integrated on a 2,000,001-point grid with integrate.trapezoid.
func TestScoreAgainstScipy(t *testing.T) {
	m := Score(exY, exMu, exSigma, 1)
	tests := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"corr", m.Corr, 0.8070157013530191, 1e-12},
		{"spearman", m.Spearman, 0.8357400722021662, 1e-12},
		{"loglik", m.LogLik, -1.7281976862862871, 1e-12},
		{"coverage", m.Coverage, 66.66666666666666, 1e-12},
		{"ci_width", m.CIWidth, 2.875, 1e-15},
		{"rmse", m.RMSE, 2.2465250944514286, 1e-12},
		{"pearson_mu", m.PearsonMu, 0.856567780434685, 1e-12},
		{"crps", m.CRPS, 1.082927232272359, 1e-12},
		{"miscal_area", m.MiscalArea, 0.1205620791237406, 1e-9},
		{"sharpness", m.Sharpness, 1.6598820239201741, 1e-12},
		{"ratio", m.Ratio, m.Corr / m.UpperBound, 1e-15},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !close(tc.got, tc.want, tc.tol) {
				t.Errorf("%s = %.17g, want %.17g", tc.name, tc.got, tc.want)
			}
			// The per-metric functions agree with Score.
			if v, ok := m.Get(tc.name); !ok || v != tc.got {
				t.Errorf("Get(%q) = %v, %v", tc.name, v, ok)
			}
		})
	}
	if m.N != 12 {
		t.Errorf("N = %d", m.N)
	}
	if Corr(exY, exMu, exSigma) != m.Corr || RankCorr(exY, exMu, exSigma) != m.Spearman {
		t.Error("Corr/RankCorr differ from Score")
	}
}

// Values derived by hand.
func TestHandValues(t *testing.T) {
	// y = 0, mu = (1, -2), sigma = (1, 2): r = (1, 2) = sigma.
	y, mu, s := []float64{0, 0}, []float64{1, -2}, []float64{1, 2}
	half := 0.5 * math.Log(2*math.Pi)
	tests := []struct {
		name      string
		got, want float64
	}{
		{"corr: r = sigma", Corr(y, mu, s), 1},
		{"coverage: r <= sigma inclusive", Coverage(y, mu, s), 100},
		{"ci_width: mean 2 sigma", CIWidth(s), 3},
		{"rmse: sqrt((1+4)/2)", RMSE(y, mu), math.Sqrt(2.5)},
		{"sharpness: sqrt((1+4)/2)", Sharpness(s), math.Sqrt(2.5)},
		// log N at z = ±1: -log sigma - log(2 pi)/2 - 1/2
		{"loglik", LogLik(y, mu, s), -half - 0.5 - 0.5*math.Log(2)},
		// CRPS at z = 0: sigma (2 phi(0) - 1/sqrt(pi)) = sigma (sqrt(2) - 1)/sqrt(pi)
		{"crps at z = 0", CRPS([]float64{3}, []float64{3}, []float64{2}), 2 * (math.Sqrt2 - 1) / math.Sqrt(math.Pi)},
		{"crps sigma = 0 is |y - mu|", CRPS([]float64{3}, []float64{1}, []float64{0}), 2},
		// One exact prediction: observed 1 at every level; the area from
		// a = 1/101 to b = 100/101 of (1 - p) is ((1-a)^2 - (1-b)^2)/2
		// = 9999/20402. One hopeless prediction: observed 0, area
		// (b^2 - a^2)/2, the same.
		{"miscal_area, all inside", MiscalibrationArea([]float64{1}, []float64{1}, []float64{1}), 9999.0 / 20402},
		{"miscal_area, all outside", MiscalibrationArea([]float64{1}, []float64{1e9}, []float64{1}), 9999.0 / 20402},
		{"spearman of a monotone map", Spearman([]float64{1, 2, 3, 4}, []float64{1, 8, 27, 64}), 1},
		// ranks (1, 2.5, 2.5, 4) vs (1, 2, 3, 4): Pearson = 4.5/sqrt(4.5*5)
		{"spearman with a tie", Spearman([]float64{1, 2, 2, 3}, []float64{1, 2, 3, 4}), 4.5 / math.Sqrt(4.5*5)},
		{"ratio", Ratio(0.3, 0.6, 100), 0.5},
		{"ratio at the threshold 2/sqrt(100)", Ratio(0.1, 0.2, 100), 0.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !close(tc.got, tc.want, 1e-13) {
				t.Errorf("got %.17g, want %.17g", tc.got, tc.want)
			}
		})
	}
}

// Degenerate input: see doc.go, "NaN and degenerate input".
func TestDegenerate(t *testing.T) {
	nan := math.NaN()
	one := []float64{1, 1, 1}
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"corr with constant sigma", Corr([]float64{0, 1, 2}, []float64{1, 1, 1}, one), nan},
		{"corr with constant residuals", Corr([]float64{0, 1, 2}, []float64{1, 2, 3}, []float64{1, 2, 3}), nan},
		{"upper_bound with constant sigma", UpperBound(one, 1), nan},
		{"spearman with constant sigma", RankCorr([]float64{0, 1, 2}, []float64{1, 1, 1}, one), nan},
		{"pearson of one pair", Pearson([]float64{1}, []float64{2}), nan},
		{"pearson with NaN", Pearson([]float64{1, nan, 3}, []float64{1, 2, 3}), nan},
		{"ratio over zero", Ratio(0.5, 0, 100), nan},
		{"ratio over NaN", Ratio(0.5, nan, 100), nan},
		{"ratio of no examples", Ratio(0.5, 0.5, 0), nan},
		{"ratio below the threshold 2/sqrt(100)", Ratio(0.1, 0.19, 100), nan},
		// docs/validation.md: PC-3's DUE, upper_bound 0.004 on one seed
		{"ratio of a nearly constant sigma (upper_bound 0.004, 432 pairs)", Ratio(0.2, 0.004, 432), nan},
		{"loglik of nothing", LogLik(nil, nil, nil), nan},
		{"coverage of nothing", Coverage(nil, nil, nil), nan},
		{"coverage with NaN", Coverage([]float64{nan}, []float64{0}, []float64{1}), nan},
		{"miscal_area of nothing", MiscalibrationArea(nil, nil, nil), nan},
		{"miscal_area with NaN", MiscalibrationArea([]float64{0, 1}, []float64{0, nan}, []float64{1, 1}), nan},
		{"loglik sigma 0 exact", LogLik([]float64{1}, []float64{1}, []float64{0}), math.Inf(1)},
		{"loglik sigma 0 wrong", LogLik([]float64{1}, []float64{2}, []float64{0}), math.Inf(-1)},
		{"sharpness of nothing", Sharpness(nil), nan},
		{"rmse of nothing", RMSE(nil, nil), nan},
		{"crps of nothing", CRPS(nil, nil, nil), nan},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !close(tc.got, tc.want, 0) && tc.got != tc.want {
				t.Errorf("got %v, want %v", tc.got, tc.want)
			}
		})
	}
	t.Run("Score of nothing does not panic", func(t *testing.T) {
		m := Score(nil, nil, nil, 1)
		if m.N != 0 || !math.IsNaN(m.Corr) || !math.IsNaN(m.MiscalArea) {
			t.Errorf("%+v", m)
		}
	})
	t.Run("length mismatch panics", func(t *testing.T) {
		defer func() {
			if recover() != "uq: slice length mismatch" {
				t.Error("no panic")
			}
		}()
		Score([]float64{1}, []float64{1, 2}, []float64{1}, 1)
	})
}

func TestValidate(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name      string
		y, mu, s  []float64
		wantInErr string
	}{
		{"ok", []float64{1}, []float64{2}, []float64{3}, ""},
		{"lengths", []float64{1}, []float64{2, 3}, []float64{3}, "lengths differ"},
		{"empty", nil, nil, nil, "no examples"},
		{"nan y", []float64{1, nan}, []float64{2, 2}, []float64{3, 3}, "example 1: observation"},
		{"inf mu", []float64{1}, []float64{inf}, []float64{3}, "mean"},
		{"zero sigma", []float64{1}, []float64{1}, []float64{0}, "sigma 0"},
		{"nan sigma", []float64{1}, []float64{1}, []float64{nan}, "sigma NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate(tc.y, tc.mu, tc.s)
			if (err == nil) != (tc.wantInErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantInErr)) {
				t.Errorf("err = %v, want one containing %q", err, tc.wantInErr)
			}
		})
	}
}

// UpperBound against its closed form: with eps = sigma z, z ~ N(0, 1)
// independent of sigma, E|z| = sqrt(2/pi) and
// Corr(|eps|, sigma) = sqrt(2/pi) sd(sigma) / sqrt(E sigma^2 - (2/pi) (E sigma)^2).
// With 20,000 sigmas x 5 draws the sampling sd of the estimate is about
// (1 - rho^2)/sqrt(100000) = 0.003; the tolerance is 5 of those.
func TestUpperBoundClosedForm(t *testing.T) {
	n := 20000
	s := make([]float64, n)
	var m1, m2 float64
	for i := range s {
		s[i] = 1 + 2*(float64(i)+0.5)/float64(n) // uniform grid on (1, 3)
		m1 += s[i] / float64(n)
		m2 += s[i] * s[i] / float64(n)
	}
	want := math.Sqrt(2/math.Pi) * math.Sqrt(m2-m1*m1) / math.Sqrt(m2-2/math.Pi*m1*m1)
	for _, seed := range []uint64{1, 2, 3} {
		got := UpperBound(s, seed)
		if math.Abs(got-want) > 0.015 {
			t.Errorf("seed %d: upper_bound = %.4f, want %.4f ± 0.015", seed, got, want)
		}
	}
	if UpperBound(s, 7) != UpperBound(s, 7) {
		t.Error("same seed, different value")
	}
	if UpperBound(s, 7) == UpperBound(s, 8) {
		t.Error("different seeds, same value")
	}
}

func TestCalibration(t *testing.T) {
	// Observed fractions at p = 10/101, 50/101, 90/101 from the scipy run.
	pts := Calibration(exY, exMu, exSigma, Levels(100))
	for _, tc := range []struct {
		k    int
		want float64
	}{{9, 1.0 / 12}, {49, 4.0 / 12}, {89, 10.0 / 12}} {
		if pts[tc.k].Expected != float64(tc.k+1)/101 || !close(pts[tc.k].Observed, tc.want, 1e-15) {
			t.Errorf("point %d = %+v, want observed %v", tc.k, pts[tc.k], tc.want)
		}
	}
	// sigma = 0 counts as inside exactly when y = mu.
	pts = Calibration([]float64{1, 1}, []float64{1, 2}, []float64{0, 0}, []float64{0.5})
	if pts[0].Observed != 0.5 {
		t.Errorf("sigma = 0: observed %v, want 0.5", pts[0].Observed)
	}
	t.Run("area of crossing segments", func(t *testing.T) {
		// d goes from +0.1 to -0.1 over a width 0.2: two triangles of
		// base 0.1 and height 0.1, area 0.01.
		got := AreaFromDiagonal([]CalibrationPoint{{0.4, 0.5}, {0.6, 0.5}})
		if !close(got, 0.01, 1e-15) {
			t.Errorf("area = %v, want 0.01", got)
		}
	})
}

func TestAggregate(t *testing.T) {
	runs := []Metrics{{N: 10, Corr: 0.14}, {N: 10, Corr: 0.30}, {N: 13, Corr: 0.47}}
	for i := range runs {
		runs[i].LogLik = math.NaN()
	}
	runs[0].RMSE, runs[1].RMSE, runs[2].RMSE = 2, 2, 2
	s := Aggregate(runs)
	// numpy: mean 0.30333333333333334, std(ddof=1) 0.16502525059315415
	if s.N != 3 || !close(s.Mean.Corr, 0.30333333333333334, 1e-15) || !close(s.SD.Corr, 0.16502525059315415, 1e-14) {
		t.Errorf("corr %v ± %v over %d", s.Mean.Corr, s.SD.Corr, s.N)
	}
	if !math.IsNaN(s.Mean.LogLik) || s.Mean.RMSE != 2 || s.SD.RMSE != 0 || s.Mean.N != 11 {
		t.Errorf("loglik %v, rmse %v ± %v, n %d", s.Mean.LogLik, s.Mean.RMSE, s.SD.RMSE, s.Mean.N)
	}
	if got := s.Format("corr", 2); got != "0.30 ± 0.17" {
		t.Errorf("Format = %q", got)
	}
	if got := s.Format("loglik", 1); got != "n/a ± n/a" {
		t.Errorf("Format = %q", got)
	}
	if _, sd := MeanSD([]float64{5}); !math.IsNaN(sd) {
		t.Error("sd of one value is not NaN")
	}
}

func TestOOD(t *testing.T) {
	u := []float64{0.1, 0.4, 0.35, 0.8, 0.8, 0.2, 0.9, 0.55}
	loss := []float64{1.0, 2.0, 0.5, 3.0, 3.0, 0.1, 5.0, 2.0}
	ood := []bool{false, true, false, true, false, false, true, true}
	o := ScoreOOD(u, loss, ood)
	// scipy 1.10.1: spearmanr(u, loss) = 0.921229040174467;
	// mannwhitneyu(u[ood], u[~ood]).statistic / (4*4) = 0.84375
	if !close(o.SRCC, 0.921229040174467, 1e-12) || !close(o.AUROC, 0.84375, 1e-15) {
		t.Errorf("%+v", o)
	}
	for _, tc := range []struct {
		name  string
		score []float64
		pos   []bool
		want  float64
	}{
		{"perfect", []float64{1, 2, 3}, []bool{false, true, true}, 1},
		{"reversed", []float64{3, 2, 1}, []bool{false, true, true}, 0},
		{"all tied counts one half", []float64{1, 1, 1, 1}, []bool{true, false, true, false}, 0.5},
		{"no negatives", []float64{1, 2}, []bool{true, true}, math.NaN()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := AUROC(tc.score, tc.pos); !close(got, tc.want, 1e-15) {
				t.Errorf("AUROC = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestJSON(t *testing.T) {
	m := Score(exY, exMu, exSigma, 1)
	m.Ratio = math.NaN()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, name := range Names() {
		if !strings.Contains(s, `"`+name+`":`) {
			t.Errorf("no key %q in %s", name, s)
		}
	}
	if !strings.Contains(s, `"ratio":null`) || !strings.HasPrefix(s, `{"n":12,"corr":0.807`) {
		t.Errorf("json %s", s)
	}
	var back Metrics
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.N != 12 || back.Corr != m.Corr || !math.IsNaN(back.Ratio) || back.MiscalArea != m.MiscalArea {
		t.Errorf("round trip %+v", back)
	}
	sb, err := json.Marshal(Aggregate([]Metrics{m}))
	if err != nil || !strings.Contains(string(sb), `"sd":{"n":0,"corr":null`) {
		t.Errorf("summary json %s, %v", sb, err)
	}
	ob, _ := json.Marshal(OOD{N: 2, SRCC: 0.5, AUROC: math.NaN()})
	if string(ob) != `{"n":2,"srcc":0.5,"auroc":null}` {
		t.Errorf("ood json %s", ob)
	}
}

func BenchmarkScore(b *testing.B) {
	n := 10000
	y, mu, s := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range y {
		y[i] = float64(i%97) - 40
		mu[i] = y[i] + float64(i%13) - 6
		s[i] = 1 + float64(i%7)
	}
	b.ReportAllocs()
	for b.Loop() {
		Score(y, mu, s, 1)
	}
}

// A perfectly calibrated model: y_i = mu_i + sigma_i z_i with z_i standard
// normal (seeded). Expected values follow from the Gaussian: coverage
// 68.27 % (P(|z| <= 1)), miscal_area near 0, E[crps] = sigma/sqrt(pi) (for
// y ~ F, E|X-y| = E|X-X'| = 2 sigma/sqrt(pi)), E[loglik] =
// mean(-log sigma) - log(2 pi)/2 - 1/2, and corr reaching upper_bound.
// Tolerances are about 4 standard errors at n = 100,000.
func TestCalibratedModel(t *testing.T) {
	n := 100000
	rng := rand.New(rand.NewPCG(42, 0))
	y, mu, s := make([]float64, n), make([]float64, n), make([]float64, n)
	var meanS, meanLogS float64
	for i := range y {
		mu[i] = 10 * rng.Float64()
		s[i] = 0.5 + 2*rng.Float64()
		y[i] = mu[i] + s[i]*rng.NormFloat64()
		meanS += s[i] / float64(n)
		meanLogS += math.Log(s[i]) / float64(n)
	}
	m := Score(y, mu, s, 1)
	for _, tc := range []struct {
		name           string
		got, want, tol float64
	}{
		{"coverage", m.Coverage, 68.2689, 0.6},
		{"miscal_area", m.MiscalArea, 0, 0.006},
		{"crps", m.CRPS, meanS / math.Sqrt(math.Pi), 0.01},
		{"loglik", m.LogLik, -meanLogS - 0.5*math.Log(2*math.Pi) - 0.5, 0.01},
		{"ratio", m.Ratio, 1, 0.05},
	} {
		t.Logf("%s = %.4f (expected %.4f)", tc.name, tc.got, tc.want)
		if math.Abs(tc.got-tc.want) > tc.tol {
			t.Errorf("%s = %.4f, want %.4f ± %v", tc.name, tc.got, tc.want, tc.tol)
		}
	}
}
