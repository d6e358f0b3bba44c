package simulate

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/activetest"
	"github.com/deup-screening/deup/active/surrogate"
)

func TestParseStrategy(t *testing.T) {
	cases := []struct {
		in      string
		want    Strategy
		wantErr bool
	}{
		{"deup-ridge-ucb", Strategy{"deup-ridge-ucb", "deup-ridge", "ucb"}, false},
		{"deup-ridge-ei", Strategy{"deup-ridge-ei", "deup-ridge", "ei"}, false},
		{"deup-ridge-thompson", Strategy{"deup-ridge-thompson", "deup-ridge", "thompson"}, false},
		{"greedy", Strategy{"greedy", "bayes-ridge", "greedy"}, false},
		{"explore", Strategy{"explore", "deup-ridge", "explore"}, false},
		{"random", Strategy{"random", "bayes-ridge", "random"}, false},
		{"ensemble-ucb", Strategy{"ensemble-ucb", "ensemble", "ucb"}, false},
		{"bayes-ridge-ucb", Strategy{"bayes-ridge-ucb", "bayes-ridge", "ucb"}, false},
		{"nope-ucb", Strategy{}, true},
		{"deup-nope", Strategy{}, true},
		{"nope", Strategy{}, true},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseStrategy(c.in)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, c.wantErr)
			}
			if err == nil && got != c.want {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestSimulate(t *testing.T) {
	base, table := activetest.Screen(20, 2)
	var sts []Strategy
	for _, n := range []string{"deup-ridge-ucb", "greedy", "random", "ensemble-ucb"} {
		s, _ := ParseStrategy(n)
		sts = append(sts, s)
	}
	cfg := Config{Init: 19, Batch: 5, Rounds: 3, Strategies: sts, Seeds: 2, Seed0: 10, Workers: 2, Features: "identity"}
	var events int
	tr, err := Run(context.Background(), table, base, cfg, func(Progress) { events++ })
	if err != nil {
		t.Fatal(err)
	}
	if len(tr) != 8 || events != 8*3 {
		t.Fatalf("%d traces and %d progress events, want 8 and 24", len(tr), events)
	}
	top := active.TopFraction(table, 0.01) // ceil(0.01*190) = 2 pairs
	if len(top) != 2 {
		t.Fatalf("top 1%% of 190 pairs has %d pairs, want 2", len(top))
	}
	for _, x := range tr {
		if len(x.Best) != 4 || !math.IsNaN(x.TestRMSE[0]) || x.Measured[3] != 19+15 {
			t.Errorf("%s seed %d: trace %+v", x.Strategy, x.Seed, x)
		}
		for r := 1; r < 4; r++ {
			if x.Best[r] < x.Best[r-1] || x.TopFound[r] < x.TopFound[r-1] {
				t.Errorf("%s seed %d: best or top-found decreased at round %d", x.Strategy, x.Seed, r)
			}
			if !(x.TestRMSE[r] > 0) {
				t.Errorf("%s seed %d: test RMSE %v at round %d", x.Strategy, x.Seed, x.TestRMSE[r], r)
			}
		}
	}
	// The same seed gives every strategy the same initial set.
	if tr[0].Best[0] != tr[2].Best[0] || tr[1].Best[0] != tr[3].Best[0] {
		t.Error("strategies started from different initial sets")
	}
	again, _ := Run(context.Background(), table, base, cfg, nil)
	if !reflect.DeepEqual(fmtTraces(tr), fmtTraces(again)) {
		t.Error("same configuration, different traces")
	}
}

func fmtTraces(ts []Trace) []Trace {
	out := append([]Trace(nil), ts...)
	for i := range out {
		out[i].TestRMSE = append([]float64(nil), out[i].TestRMSE[1:]...) // NaN != NaN
		out[i].SigmaCorr = append([]float64(nil), out[i].SigmaCorr...)
		for r, v := range out[i].SigmaCorr {
			if math.IsNaN(v) {
				out[i].SigmaCorr[r] = -2 // no correlation is -2: NaN != NaN
			}
		}
	}
	return out
}

func TestSummarize(t *testing.T) {
	ts := []Trace{{Best: []float64{1, 2}}, {Best: []float64{3, 2}}, {Best: []float64{5, math.NaN()}}}
	s, empty := Summarize(ts, func(t Trace) []float64 { return t.Best })
	// Round 0: mean 3, sd 2, se 2/sqrt(3). Round 1: values 2, 2 (NaN skipped): mean 2, se 0.
	if math.Abs(s.Mean[0]-3) > 1e-12 || math.Abs(s.SE[0]-2/math.Sqrt(3)) > 1e-12 || s.Mean[1] != 2 || s.SE[1] != 0 || empty != nil {
		t.Errorf("Summarize = %+v, %v", s, empty)
	}
}

// The Bayesian-ridge DEUP strategies were called deup-ucb, deup-ei and
// deup-thompson; "deup" now means the network everywhere, so the old names
// are refused with the new one in the message (issue 18).
func TestParseStrategyOldNames(t *testing.T) {
	for _, c := range []struct{ old, want string }{
		{"deup-ucb", `"deup-ridge-ucb"`},
		{"deup-ei", `"deup-ridge-ei"`},
		{"deup-thompson", `"deup-ridge-thompson"`},
	} {
		_, err := ParseStrategy(c.old)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "deup-net-") {
			t.Errorf("ParseStrategy(%q) = %v, want an error naming %s and the deup-net strategy", c.old, err, c.want)
		}
	}
	if _, err := surrogate.New("deup", surrogate.Encoder{}); err == nil || !strings.Contains(err.Error(), `"deup-ridge"`) {
		t.Errorf(`surrogate.New("deup") = %v, want an error naming "deup-ridge"`, err)
	}
}
