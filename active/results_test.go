package active_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/activetest"
)

func TestParseResults(t *testing.T) {
	cfg, _ := activetest.Screen(4, 1) // drug00..drug03, IDs 1000..1003, cell line CL1; score "synergy"
	cases := []struct {
		name    string
		in      string
		want    []active.Result
		wantErr []string
	}{
		{"names and ids", "drug_a,drug_b,synergy\ndrug00,1002,12.5\nDRUG03 , drug01,-3\n",
			[]active.Result{{active.Measurement{active.PairOnLine{0, 2, 0}, 12.5}, 2}, {active.Measurement{active.PairOnLine{1, 3, 0}, -3}, 3}}, nil},
		{"suggest export with score", "rank,drug_a,drug_a_id,drug_b,drug_b_id,cell_line,mu,score\n1,x,1000,y,1001,cl1,3,4\n",
			[]active.Result{{active.Measurement{active.PairOnLine{0, 1, 0}, 4}, 2}}, nil},
		{"generic score column", "drug_b,drug_a,y\ndrug00,drug01,1e2\n", []active.Result{{active.Measurement{active.PairOnLine{0, 1, 0}, 100}, 2}}, nil},
		{"unknown drug", "drug_a,drug_b,synergy\ndrug00,drug01,1\ndrug00,aspirin,2\n", nil, []string{"res.csv:3:2: unknown drug \"aspirin\""}},
		{"non-numeric", "drug_a,drug_b,synergy\ndrug00,drug01,high\n", nil, []string{"res.csv:2:3: score \"high\" is not a finite number"}},
		{"nan", "drug_a,drug_b,synergy\ndrug00,drug01,NaN\n", nil, []string{"res.csv:2:3: score \"NaN\""}},
		{"self pair", "drug_a,drug_b,synergy\ndrug00,1000,1\n", nil, []string{"res.csv:2:2: drug \"1000\" paired with itself"}},
		{"unknown cell line", "drug_a,drug_b,cell_line,synergy\ndrug00,drug01,HeLa,1\n", nil, []string{"res.csv:2:3: unknown cell line \"HeLa\""}},
		{"ragged", "drug_a,drug_b,synergy\ndrug00,drug01\n", nil, []string{"res.csv:2: 2 fields, header has 3"}},
		{"no score column", "drug_a,drug_b,value\n", nil, []string{"res.csv:1: header lacks a score column"}},
		{"empty", "", nil, []string{"res.csv:1: empty file"}},
		{"header only", "drug_a,drug_b,synergy\n", nil, []string{"res.csv:2: no rows"}},
		{"bad quote", "drug_a,drug_b,synergy\n\"drug00,drug01,1\n", nil, []string{"res.csv:2:"}},
		{"several problems", "drug_a,drug_b,synergy\nfoo,drug01,1\ndrug00,drug01,x\n", nil, []string{"res.csv:2:1: unknown drug", "res.csv:3:3: score \"x\""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := active.ParseResults(strings.NewReader(c.in), "res.csv", cfg)
			if c.wantErr != nil {
				if err == nil {
					t.Fatalf("want an error, got %v", got)
				}
				for _, w := range c.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not contain %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("result %d = %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
}

func FuzzParseResults(f *testing.F) {
	cfg, _ := activetest.Screen(4, 1)
	f.Add([]byte("drug_a,drug_b,synergy\ndrug00,1002,12.5\n"))
	f.Add([]byte("drug_a,drug_b,cell_line,score\ndrug00,drug01,CL1,1\n"))
	f.Add([]byte("drug_a,drug_b,synergy\n\"x"))
	f.Add([]byte("\ufeffdrug_a;drug_b\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := active.ParseResults(bytes.NewReader(data), "f.csv", cfg)
		if err == nil {
			for _, r := range rs {
				if r.Pair.A >= r.Pair.B || r.Line < 2 {
					t.Fatalf("bad result %+v", r)
				}
			}
		}
	})
}

func TestParseCandidates(t *testing.T) {
	cfg, _ := activetest.Screen(4, 1)
	got, err := active.ParseCandidates(strings.NewReader("drug_a,drug_b\ndrug03,drug00\n"), "c.csv", cfg)
	if err != nil || len(got) != 1 || got[0].Pair != (active.PairOnLine{0, 3, 0}) || got[0].Line != 2 {
		t.Errorf("ParseCandidates = %+v, %v", got, err)
	}
	if _, err := active.ParseCandidates(strings.NewReader("drug_a,drug_b\ndrug03,zzz\n"), "c.csv", cfg); err == nil || !strings.Contains(err.Error(), "c.csv:2:2: unknown drug") {
		t.Errorf("unknown drug: err = %v", err)
	}
}
