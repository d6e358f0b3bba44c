package active_test

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/activetest"
	"github.com/deup-screening/deup/active/ledger"
	"github.com/deup-screening/deup/active/surrogate"
)

func runCampaign(t *testing.T, store active.Store, model, acq string, seed uint64) *active.State {
	t.Helper()
	base, table := activetest.Screen(16, 1)
	initial, cands, err := active.SplitInitial(table, 30, seed)
	if err != nil {
		t.Fatal(err)
	}
	cfg := activetest.Config(base, model, acq, 6, 4, seed)
	c, err := active.Create(store, cfg, initial, cands)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := surrogate.NewEncoder(cfg)
	sur, err := surrogate.New(model, enc)
	if err != nil {
		t.Fatal(err)
	}
	for !c.Done() {
		if _, err := c.Step(context.Background(), sur, table); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func TestCampaignRetrospective(t *testing.T) {
	for _, model := range []string{"deup-ridge", "bayes-ridge", "ensemble"} {
		for _, acq := range []string{"ucb", "ei", "thompson", "greedy", "explore", "random"} {
			t.Run(model+"/"+acq, func(t *testing.T) {
				c := runCampaign(t, active.NewMemoryStore(), model, acq, 3)
				if got := len(c.Rounds()); got != 4 {
					t.Fatalf("%d rounds, want 4", got)
				}
				seen := map[active.PairOnLine]bool{}
				for _, m := range c.Measured() {
					if seen[m.Pair] {
						t.Errorf("pair %v measured twice", m.Pair)
					}
					seen[m.Pair] = true
				}
				if got, want := len(c.Measured()), 30+4*6; got != want {
					t.Errorf("%d measured, want %d", got, want)
				}
				if got, want := len(c.Pool()), 120-30-24; got != want {
					t.Errorf("pool %d, want %d", got, want)
				}
				for _, r := range c.Rounds() {
					if len(r.Suggestions) != 6 || !r.Complete() || r.ModelVersion == "" {
						t.Errorf("round %d: %d suggestions, complete %v, version %q", r.Index, len(r.Suggestions), r.Complete(), r.ModelVersion)
					}
					for i, s := range r.Suggestions {
						if s.Rank != i+1 || s.Reason == "" {
							t.Errorf("round %d suggestion %d: rank %d reason %q", r.Index, i, s.Rank, s.Reason)
						}
						if i > 0 && s.Score > r.Suggestions[i-1].Score {
							t.Errorf("round %d: scores not decreasing at rank %d", r.Index, i+1)
						}
					}
				}
				if _, err := c.Propose(context.Background(), &surrogate.Ridge{}); err == nil {
					t.Error("Propose after the last round: want an error")
				}
			})
		}
	}
}

func TestCampaignDeterministic(t *testing.T) {
	a := runCampaign(t, active.NewMemoryStore(), "deup-ridge", "thompson", 5)
	b := runCampaign(t, active.NewMemoryStore(), "deup-ridge", "thompson", 5)
	if !reflect.DeepEqual(a.Measured(), b.Measured()) {
		t.Error("same seed, different measurements")
	}
	for i := range a.Rounds() {
		if a.Rounds()[i].ModelVersion != b.Rounds()[i].ModelVersion {
			t.Errorf("round %d: model versions %q and %q", i+1, a.Rounds()[i].ModelVersion, b.Rounds()[i].ModelVersion)
		}
	}
	c := runCampaign(t, active.NewMemoryStore(), "deup-ridge", "thompson", 6)
	if reflect.DeepEqual(a.Measured()[30:], c.Measured()[30:]) {
		t.Error("different seeds chose the same pairs")
	}
}

func TestCampaignOnDiskReplay(t *testing.T) {
	dir := t.TempDir()
	l, err := ledger.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := runCampaign(t, l, "deup-ridge", "ucb", 2)
	l.Close()
	l2, err := ledger.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	c2, err := active.Load(l2)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Measured(), c2.Measured()) || !reflect.DeepEqual(c.Config, c2.Config) {
		t.Error("replayed campaign differs")
	}
	// event kinds: init, prefill, then suggest+measure per round
	var kinds []string
	for _, e := range l2.Events() {
		kinds = append(kinds, string(e.Kind))
	}
	want := "init prefill suggest measure suggest measure suggest measure suggest measure"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("events %q, want %q", got, want)
	}
}

func TestRecordValidation(t *testing.T) {
	base, table := activetest.Screen(10, 1)
	initial, cands, _ := active.SplitInitial(table, 12, 1)
	store := active.NewMemoryStore()
	c, err := active.Create(store, activetest.Config(base, "bayes-ridge", "greedy", 3, 0, 1), initial, cands)
	if err != nil {
		t.Fatal(err)
	}
	prop, err := c.Propose(context.Background(), &surrogate.Ridge{Enc: surrogate.Encoder{Drug: surrogate.IdentityFeatures(10)}})
	if err != nil {
		t.Fatal(err)
	}
	s := prop.Round.Suggestions
	var unsuggested active.PairOnLine
	for _, p := range c.Pool() {
		unsuggested = p
		break
	}
	swapped := active.PairOnLine{A: s[1].Pair.B, B: s[1].Pair.A, CellLine: 0} // (b, a) is the same pair
	cases := []struct {
		name string
		ms   []active.Measurement
		want []string
	}{
		{"unknown pair", []active.Measurement{{s[0].Pair, 1}, {unsuggested, 2}}, []string{"result 2: unknown pair"}},
		{"already measured", []active.Measurement{{initial[0].Pair, 1}}, []string{"result 1: duplicate measurement", "already measured"}},
		{"twice in one import", []active.Measurement{{s[1].Pair, 1}, {swapped, 2}}, []string{"result 2: duplicate measurement", "given by result 1"}},
		{"not a number", []active.Measurement{{s[0].Pair, math.NaN()}, {s[1].Pair, math.Inf(1)}}, []string{"result 1: score NaN", "result 2: score +Inf"}},
	}
	for _, cse := range cases {
		t.Run(cse.name, func(t *testing.T) {
			before := len(store.Events())
			err := c.Record(cse.ms)
			var re *active.ResultsError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v, want a *ResultsError", err)
			}
			for _, w := range cse.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if len(store.Events()) != before {
				t.Error("a refused import changed the ledger")
			}
		})
	}
	// A partial import, then the rest; then the round is complete.
	if err := c.Record([]active.Measurement{{swapped, 5}}); err != nil {
		t.Fatal(err)
	}
	if c.Open() == nil {
		t.Fatal("round closed after a partial import")
	}
	if err := c.Record([]active.Measurement{{s[0].Pair, 1}, {s[2].Pair, 3}}); err != nil {
		t.Fatal(err)
	}
	if c.Open() != nil {
		t.Error("round still open after every result")
	}
	if err := c.Record([]active.Measurement{{s[0].Pair, 1}}); err == nil {
		t.Error("Record with no open round: want an error")
	}
}

func TestCloseRound(t *testing.T) {
	base, table := activetest.Screen(10, 1)
	initial, cands, _ := active.SplitInitial(table, 12, 1)
	c, err := active.Create(active.NewMemoryStore(), activetest.Config(base, "bayes-ridge", "greedy", 3, 0, 1), initial, cands)
	if err != nil {
		t.Fatal(err)
	}
	pool := len(c.Pool())
	prop, err := c.Propose(context.Background(), &surrogate.Ridge{Enc: surrogate.Encoder{Drug: surrogate.IdentityFeatures(10)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Record([]active.Measurement{{prop.Round.Suggestions[0].Pair, 4}}); err != nil {
		t.Fatal(err)
	}
	if err := c.CloseRound(); err != nil {
		t.Fatal(err)
	}
	if got := len(c.Pool()); got != pool-1 {
		t.Errorf("pool after close %d, want %d (two unmeasured suggestions return)", got, pool-1)
	}
	if c.Open() != nil {
		t.Error("closed round still open")
	}
}

func TestLoadRejectsBadLedgers(t *testing.T) {
	base, table := activetest.Screen(8, 1)
	initial, cands, _ := active.SplitInitial(table, 10, 1)
	good := active.NewMemoryStore()
	c, err := active.Create(good, activetest.Config(base, "bayes-ridge", "greedy", 2, 0, 1), initial, cands)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Step(context.Background(), &surrogate.Ridge{Enc: surrogate.Encoder{Drug: surrogate.IdentityFeatures(8)}}, table); err != nil {
		t.Fatal(err)
	}
	evs := good.Events() // init, suggest, measure
	mutate := func(f func(es []ledger.Event) []ledger.Event) active.Store {
		cp := make([]ledger.Event, len(evs))
		for i, e := range evs {
			e.Records = append([]ledger.Record(nil), e.Records...)
			cp[i] = e
		}
		return active.StoreOf(f(cp))
	}
	cases := []struct {
		name  string
		store active.Store
		want  string
	}{
		{"empty", active.StoreOf(nil), "empty ledger"},
		{"measure twice", mutate(func(es []ledger.Event) []ledger.Event { return append(es, es[2]) }), "measured twice"},
		{"suggest before init", mutate(func(es []ledger.Event) []ledger.Event { return es[1:] }), "before init"},
		{"round skipped", mutate(func(es []ledger.Event) []ledger.Event { es[1].Round = 2; return es[:2] }), "round 2 follows round 0"},
		{"suggest while open", mutate(func(es []ledger.Event) []ledger.Event { s := es[1]; s.Round = 2; return append(es[:2], s) }), "while round 1 is open"},
		{"foreign measurement", mutate(func(es []ledger.Event) []ledger.Event {
			es[2].Records[0].A, es[2].Records[0].B = es[0].Records[0].A, es[0].Records[0].B
			return es
		}), "not suggested"},
		{"pair out of range", mutate(func(es []ledger.Event) []ledger.Event { es[0].Records[0].B = 99; return es }), "out of range"},
	}
	for _, cse := range cases {
		t.Run(cse.name, func(t *testing.T) {
			_, err := active.Load(cse.store)
			if err == nil || !strings.Contains(err.Error(), cse.want) {
				t.Errorf("Load: err = %v, want one containing %q", err, cse.want)
			}
		})
	}
}

func TestTopFraction(t *testing.T) {
	tab := active.TableOracle{}
	for i := 0; i < 250; i++ {
		tab[active.PairOnLine{0, i + 1, 0}] = float64(i)
	}
	// ceil(0.01*250) = 3: scores 249, 248, 247.
	top := active.TopFraction(tab, 0.01)
	if len(top) != 3 || !top[active.PairOnLine{0, 250, 0}] || !top[active.PairOnLine{0, 248, 0}] || top[active.PairOnLine{0, 247, 0}] {
		t.Errorf("top 1%% of 0..249 = %v, want the pairs scoring 249, 248, 247", top)
	}
	tab[active.PairOnLine{1, 2, 0}] = 247 // a tie at the threshold is included
	if got := len(active.TopFraction(tab, 0.01)); got != 4 {
		t.Errorf("with a tie: %d pairs, want 4", got)
	}
}
