package active

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
)

func TestParseJoint(t *testing.T) {
	for _, name := range []string{"bucb", "bei", "bthompson"} {
		a, err := ParseAcquisition(name)
		if err != nil || !a.Joint() || a.String() != name {
			t.Errorf("ParseAcquisition(%q) = %v (joint %v), %v", name, a, a.Joint(), err)
		}
		if _, err := ParseAcquisition(name + ":2"); err == nil {
			t.Errorf("%s:2 accepted: the joint kinds take no parameter", name)
		}
	}
	for _, name := range []string{"ucb", "ei", "thompson", "greedy", "explore", "random", "cucb"} {
		if a, _ := ParseAcquisition(name); a.Joint() {
			t.Errorf("%s is joint", name)
		}
	}
	// BUCB's two halves: cucb calibrated and not joint, jucb joint and
	// not calibrated.
	for _, tc := range []struct {
		name              string
		joint, calibrated bool
	}{{"bucb", true, true}, {"bei", true, true}, {"bthompson", true, true}, {"cucb", false, true}, {"jucb", true, false}, {"ucb", false, false}} {
		a, err := ParseAcquisition(tc.name)
		if err != nil || a.Joint() != tc.joint || a.Calibrated() != tc.calibrated || a.String() != tc.name && tc.name != "ucb" {
			t.Errorf("%s: %v joint %v calibrated %v, %v; want joint %v calibrated %v", tc.name, a, a.Joint(), a.Calibrated(), err, tc.joint, tc.calibrated)
		}
	}
}

// TestAblationKinds: cucb is bucb's score without the believer (the top
// of one ranking of mu + z*f*sigma), jucb bucb's believer without the
// calibration (f = 1 whatever Scale says), on jointFixture.
func TestAblationKinds(t *testing.T) {
	pairs, preds, x := jointFixture()
	z := jointZ()
	// cucb with f = 1: 0 and 1 (10 + 5z = 18.2 each) before 2 (14): the
	// two copies of the same point, which bucb separates.
	c := Acquisition{Kind: CUCB}
	scores, err := c.Scores(nil, preds, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if scores[0] != 10+z*5 || scores[2] != 14 {
		t.Errorf("cucb scores %v", scores)
	}
	if got := SelectBatch(pairs, scores, 2, 0); !reflect.DeepEqual(got, []int{0, 1}) {
		t.Errorf("cucb top-2 = %v, want [0 1]", got)
	}
	// With f = 0.1: 10 + 0.5z = 10.8 < 14, so 2 leads.
	c.Scale = 0.1
	scores, _ = c.Scores(nil, preds, 0, nil)
	if got := SelectBatch(pairs, scores, 1, 0); !reflect.DeepEqual(got, []int{2}) || scores[0] != 10+z*0.5 {
		t.Errorf("cucb f=0.1: top-1 %v, scores %v; want [2]", got, scores)
	}
	// jucb ignores a Scale: with 0.1 set it still picks 0, then 2 (the
	// believer zeroes 1's sigma), as bucb with f = 1 does.
	j, err := SelectJoint(Acquisition{Kind: JUCB, Scale: 0.1}, pairs, preds, x, 1, 0, nil, 2, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := SelectJoint(Acquisition{Kind: BUCB}, pairs, preds, x, 1, 0, nil, 2, 0, 0)
	if !reflect.DeepEqual(j, b) || !reflect.DeepEqual(j.Pick, []int{0, 2}) {
		t.Errorf("jucb %+v, bucb at f=1 %+v; want picks [0 2] for both", j, b)
	}
	for _, a := range []Acquisition{{Kind: CUCB}, {Kind: JUCB}} {
		if _, _, err := Rank(a, pairs, preds, TableOracle{}, 2, 0, 0, 1); err == nil {
			t.Errorf("Rank(%s) accepted: it needs a campaign", a)
		}
		if _, err := (Acquisition{Kind: a.Kind, ExploreWeight: 0.5}).Scores(nil, preds, 0, nil); err == nil {
			t.Errorf("%s with an explore weight accepted", a)
		}
	}
}

func TestSigmaScale(t *testing.T) {
	z := jointZ() // 1.6448536
	// Too few pairs for a conformal quantile at 0.9 (9 needed): f = 1.
	few := make([]Calibration, 8)
	for i := range few {
		few[i] = Calibration{Mu: 0, SigmaTotal: 1, Y: 10}
	}
	if f, n := SigmaScale(few, 0.9); f != 1 || n != 8 {
		t.Errorf("8 pairs: f = %v, n = %d, want 1, 8", f, n)
	}
	// Normalized residuals 1..19 (sigma 2, |y - mu| = 2k): at 0.9 the
	// conformal rank is ceil(20*0.9) = 18, so q = 18 and f = 18/z. A zero
	// and a NaN sigma are not counted.
	var cal []Calibration
	for k := 1; k <= 19; k++ {
		y := float64(2 * k)
		if k%2 == 0 {
			y = -y
		}
		cal = append(cal, Calibration{Mu: 0, SigmaTotal: 2, Y: y})
	}
	cal = append(cal, Calibration{Mu: 0, SigmaTotal: 0, Y: 1}, Calibration{Mu: 0, SigmaTotal: math.NaN(), Y: 1})
	f, n := SigmaScale(cal, 0.9)
	if n != 19 || math.Abs(f-18/z) > 1e-12 {
		t.Errorf("f = %v, n = %d, want %v, 19", f, n, 18/z)
	}
}

func TestMedianSqDist(t *testing.T) {
	x := [][]float64{{0}, {1}, {3}}
	// Distances^2: 1, 9, 4: median 4.
	if got := MedianSqDist(x, 100, nil); got != 4 {
		t.Errorf("median = %v, want 4", got)
	}
	big := make([][]float64, 200)
	for i := range big {
		big[i] = []float64{float64(i % 2)}
	}
	// Half the sampled pairs are apart by 1, half not: the median is 0,
	// 0.5 or 1, and the same seed gives the same answer.
	a := MedianSqDist(big, 64, rand.New(rand.NewPCG(1, 2)))
	b := MedianSqDist(big, 64, rand.New(rand.NewPCG(1, 2)))
	if a != b || a < 0 || a > 1 {
		t.Errorf("sampled medians %v, %v", a, b)
	}
}

// jointFixture is a pool where candidates 0 and 1 are the same point
// (both uncertain), 2 is far from them and certain, 3 far, uncertain and
// low (UCB 12.2).
func jointFixture() ([]PairOnLine, []SurrogatePrediction, [][]float64) {
	pairs := []PairOnLine{{0, 1, 0}, {2, 3, 0}, {4, 5, 0}, {6, 7, 0}}
	preds := []SurrogatePrediction{
		{Mu: 10, SigmaEpistemic: 5},
		{Mu: 10, SigmaEpistemic: 5},
		{Mu: 14, SigmaEpistemic: 0},
		{Mu: 4, SigmaEpistemic: 5},
	}
	x := [][]float64{{0}, {0}, {100}, {-100}}
	return pairs, preds, x
}

func TestSelectJoint(t *testing.T) {
	pairs, preds, x := jointFixture()
	z := jointZ()
	ucb := func(p SurrogatePrediction) float64 { return p.Mu + z*p.SigmaEpistemic }
	a := Acquisition{Kind: BUCB}

	// Top-B of one ranking: 0 (18.2), 1 (18.2), 2 (14): the two copies of
	// the same uncertain point.
	scores, _ := a.Scores(nil, preds, 0, nil)
	if got := SelectBatch(pairs, scores, 2, 0); !reflect.DeepEqual(got, []int{0, 1}) {
		t.Fatalf("top-2 = %v, want [0 1]", got)
	}
	// Jointly, with no noise: measuring 0 would teach everything about 1
	// (k = 1), so 1's sigma goes to 0, its score to mu = 10, and the
	// second pick is 2 (14); 3 is unchanged (k = exp(-10^4/2) = 0).
	j, err := SelectJoint(a, pairs, preds, x, 1, 0, nil, 2, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(j.Pick, []int{0, 2}) {
		t.Errorf("joint pick = %v, want [0 2]", j.Pick)
	}
	if j.Scores[0] != ucb(preds[0]) || j.Scores[2] != 14 || j.Scores[3] != ucb(preds[3]) {
		t.Errorf("scores %v", j.Scores)
	}
	if !reflect.DeepEqual(j.Sigma, []float64{5, 0}) {
		t.Errorf("sigma at pick = %v, want [5 0]", j.Sigma)
	}

	// With replicate noise equal to the epistemic sigma, a measurement of
	// 0 removes half of 1's variance: s_1 = 5*sqrt(1/2), score 10 +
	// z*3.54 = 15.8 > 14, so 1 is still picked second.
	noisy := append([]SurrogatePrediction(nil), preds...)
	noisy[0].SigmaAleatoric = 5
	j, _ = SelectJoint(a, pairs, noisy, x, 1, 0, nil, 2, 0, 0)
	if !reflect.DeepEqual(j.Pick, []int{0, 1}) || math.Abs(j.Sigma[1]-5*math.Sqrt(0.5)) > 1e-12 {
		t.Errorf("noisy: pick %v sigma %v, want [0 1], 5/sqrt(2)", j.Pick, j.Sigma)
	}

	// Candidates at distinct points with a length-scale far below their
	// distances: no two are alike, and the joint batch is the top-B of
	// the ranking.
	apart := [][]float64{{0}, {1}, {100}, {-100}}
	j, _ = SelectJoint(a, pairs, preds, apart, 1e-3, 0, nil, 4, 0, 0)
	if !reflect.DeepEqual(j.Pick, SelectBatch(pairs, scores, 4, 0)) {
		t.Errorf("unrelated candidates: joint %v, top-B %v", j.Pick, SelectBatch(pairs, scores, 4, 0))
	}

	// The calibration scales sigma: with f = 0.1, 2 (14) beats 0 (10.8).
	a.Scale = 0.1
	j, _ = SelectJoint(a, pairs, preds, x, 1, 0, nil, 1, 0, 0)
	if !reflect.DeepEqual(j.Pick, []int{2}) {
		t.Errorf("scaled: pick %v, want [2]", j.Pick)
	}
}

func TestSelectJointCaps(t *testing.T) {
	// Three pairs of drug 0 and one of drugs 2, 3 on another line.
	pairs := []PairOnLine{{0, 1, 0}, {0, 2, 0}, {0, 3, 1}, {2, 3, 1}, {1, 2, 0}}
	preds := []SurrogatePrediction{{Mu: 5}, {Mu: 4}, {Mu: 3}, {Mu: 2}, {Mu: 1}}
	x := [][]float64{{0}, {10}, {20}, {30}, {40}}
	for _, a := range []Acquisition{{Kind: BUCB}, {Kind: BEI}} {
		j, err := SelectJoint(a, pairs, preds, x, 1, 0, nil, 5, 2, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Zero sigmas: the ranking is mu's; drug 0 at most twice, then
		// drug 2 twice (pairs 1 and 3) keeps pair 4 out.
		want := SelectBatchPerLine(pairs, []float64{5, 4, 3, 2, 1}, 5, 2, 0)
		if a.Kind == BUCB && !reflect.DeepEqual(j.Pick, want) {
			t.Errorf("per drug: %v, want %v", j.Pick, want)
		}
		j, _ = SelectJoint(a, pairs, preds, x, 1, 0, nil, 5, 0, 1)
		if lines := map[int]int{}; true {
			for _, i := range j.Pick {
				lines[pairs[i].CellLine]++
			}
			if len(j.Pick) != 2 || lines[0] != 1 || lines[1] != 1 {
				t.Errorf("%s per line: %v", a, j.Pick)
			}
		}
	}
}

func TestSelectJointThompsonSeeded(t *testing.T) {
	pairs, preds, x := jointFixture()
	a := Acquisition{Kind: BThompson}
	if _, err := SelectJoint(a, pairs, preds, x, 1, 0, nil, 2, 0, 0); err == nil {
		t.Fatal("bthompson without a random source")
	}
	j1, err := SelectJoint(a, pairs, preds, x, 1, 0, rand.New(rand.NewPCG(3, 4)), 3, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	j2, _ := SelectJoint(a, pairs, preds, x, 1, 0, rand.New(rand.NewPCG(3, 4)), 3, 0, 0)
	if !reflect.DeepEqual(j1, j2) {
		t.Errorf("same seed, different batches: %v, %v", j1, j2)
	}
}

func TestSelectJointRefuses(t *testing.T) {
	pairs, preds, x := jointFixture()
	if _, err := SelectJoint(Acquisition{Kind: UCB, Kappa: 2}, pairs, preds, x, 1, 0, nil, 2, 0, 0); err == nil {
		t.Error("ucb accepted by SelectJoint")
	}
	if _, err := SelectJoint(Acquisition{Kind: BUCB}, pairs, preds, x[:3], 1, 0, nil, 2, 0, 0); err == nil {
		t.Error("3 feature rows for 4 candidates accepted")
	}
	if _, err := SelectJoint(Acquisition{Kind: BUCB}, pairs, preds, x, 0, 0, nil, 2, 0, 0); err == nil {
		t.Error("length-scale 0 accepted")
	}
	_, _, err := Rank(Acquisition{Kind: BUCB}, pairs, preds, TableOracle{}, 2, 0, 0, 1)
	if err == nil || !strings.Contains(err.Error(), "jointly") {
		t.Errorf("Rank(bucb) = %v, want a refusal", err)
	}
	cfg := Config{Mode: Live, Acquisition: "bucb", Explore: 0.5, Batch: 1, Drugs: make([]drugcomb.Drug, 2), CellLines: []string{"L"}}
	if err := cfg.Check(); err == nil {
		t.Error("bucb with an explore weight accepted")
	}
}
