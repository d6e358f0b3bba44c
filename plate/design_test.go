package plate

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// batch30 is a batch of 30 distinct pairs of 9 drugs on one cell line.
func batch30() []Request {
	var rs []Request
	for a := 0; a < 9; a++ {
		for b := a + 1; b < 9 && len(rs) < 30; b++ {
			rs = append(rs, Request{DrugA: fmt.Sprintf("D%02d", a), DrugB: fmt.Sprintf("D%02d", b), CellLine: "L1", Line: len(rs) + 2})
		}
	}
	return rs
}

// TestLayout30 is the acceptance layout: 30 pairs on one line at 6×6 in
// duplicate on 384-well plates with empty edges: 6 block slots a plate
// (two rows by three columns of 6×6 between the two control columns of
// the 14×22 interior), so 60 copies fill 10 plates.
func TestLayout30(t *testing.T) {
	p, err := Design{Seed: 1}.Layout(batch30())
	if err != nil {
		t.Fatal(err)
	}
	r := p.Report
	if r.Blocks != 30 || r.Copies != 60 || r.Plates != 10 || r.BlocksPerPlate != 6 {
		t.Fatalf("report %+v", r)
	}
	if r.SampleWells != 60*36 || r.NegativeWells != 10*14 || r.PositiveWells != 10*14 {
		t.Errorf("wells: %+v", r)
	}
	// Every used well receives the same total; empty wells nothing.
	sum := map[string]float64{}
	for _, k := range p.Picks {
		sum[k.DestPlate+" "+k.DestWell] += k.Volume
	}
	for _, w := range p.Map.Wells {
		got := sum[w.Plate+" "+WellName(w.Row, w.Col)]
		want := 100.0
		if w.Role == Empty {
			want = 0
		}
		if math.Abs(got-want) > 1e-9 {
			t.Fatalf("%s %s (%s): %g nL, want %g", w.Plate, WellName(w.Row, w.Col), w.Role, got, want)
		}
	}
}

// BenchmarkLayout30 is the acceptance layout's cost: 30 pairs on one line,
// 6×6, in duplicate on 384-well plates, with the pick list.
func BenchmarkLayout30(b *testing.B) {
	reqs := batch30()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := (Design{Seed: 1}).Layout(reqs); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLayoutPlacement: copies of a block sit on different plates, the
// placement follows the seed (same seed, same map; another seed, another),
// and no drug sits at the same wells on every plate.
func TestLayoutPlacement(t *testing.T) {
	a, err := Design{Seed: 1}.Layout(batch30())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Design{Seed: 1}.Layout(batch30())
	c, _ := Design{Seed: 2}.Layout(batch30())
	sameWells := func(x, y *Map) bool {
		for i := range x.Wells {
			if x.Wells[i].BlockID != y.Wells[i].BlockID || x.Wells[i].ConcA != y.Wells[i].ConcA {
				return false
			}
		}
		return true
	}
	if !sameWells(a.Map, b.Map) {
		t.Error("same seed, different maps")
	}
	if sameWells(a.Map, c.Map) {
		t.Error("seeds 1 and 2 give the same map")
	}
	plates := map[string]map[string]bool{} // block → plates
	wellsOf := map[string]map[string]int{} // drug → well → plates it sits on
	for _, w := range a.Map.Wells {
		if w.Role != Sample {
			continue
		}
		if plates[w.BlockID] == nil {
			plates[w.BlockID] = map[string]bool{}
		}
		plates[w.BlockID][w.Plate] = true
		for _, d := range []string{w.DrugA, w.DrugB} {
			if wellsOf[d] == nil {
				wellsOf[d] = map[string]int{}
			}
			wellsOf[d][WellName(w.Row, w.Col)]++
		}
	}
	for id, ps := range plates {
		if len(ps) != 2 {
			t.Errorf("block %s on %d plates, want its 2 copies on 2", id, len(ps))
		}
	}
	for d, ws := range wellsOf {
		for w, n := range ws {
			if n == a.Report.Plates {
				t.Errorf("drug %s at %s on every plate", d, w)
			}
		}
	}
}

// TestDoses: the geometric series (nominal) and the delivered doses of the
// map, which differ from it by whole-droplet rounding only.
func TestDoses(t *testing.T) {
	got := Doses(10, 3, 5)
	want := []float64{10.0 / 81, 10.0 / 27, 10.0 / 9, 10.0 / 3, 10}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("dose %d: %v, want %v", i, got[i], want[i])
		}
	}
	p, err := Design{Seed: 1, GridRows: 6, GridCols: 6}.Layout(batch30()[:1])
	if err != nil {
		t.Fatal(err)
	}
	// 10 µM from the 10 mM stock into 40 µL + 100 nL: 40.1 nL, rounded to
	// 16 droplets of 2.5 nL, so 40 nL · 10 mM / 40.1 µL.
	top := 40 * 10000 / 40100.0
	found := false
	for _, w := range p.Map.Wells {
		if w.ConcA == top {
			found = true
		}
		if w.Role == Sample && w.ConcA > 0 && math.Abs(w.ConcA-nearest(want, w.ConcA))/nearest(want, w.ConcA) > float64(p.Report.MaxDoseError)+1e-12 {
			t.Errorf("dose %v off its series by more than the reported %v", w.ConcA, p.Report.MaxDoseError)
		}
	}
	if !found {
		t.Errorf("no well at the top dose %v µM", top)
	}
}

func nearest(xs []float64, x float64) float64 {
	best := xs[0]
	for _, v := range xs {
		if math.Abs(math.Log(v/x)) < math.Abs(math.Log(best/x)) {
			best = v
		}
	}
	return best
}

// TestLayoutRefusals: designs that cannot be laid out, and requests left out.
func TestLayoutRefusals(t *testing.T) {
	reqs := batch30()[:2]
	for _, c := range []struct {
		name string
		d    Design
		want string
	}{
		{"grid too large", Design{Format: Plate96, GridRows: 7, GridCols: 7}, "does not fit"},
		{"too many controls", Design{Controls: 15}, "14 control wells of each kind"},
		{"odd volume", Design{Dispense: Dispense{Total: 101}}, "not a whole number"},
		{"bad prefix", Design{Prefix: "a/b"}, "prefix"},
		{"no stock", Design{Source: []Stock{{Plate: "S", Well: "A1", Compound: "DMSO", Volume: 50}}, SourceName: "s.csv"}, "holds no stock of"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.d.Layout(reqs)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
	in := append(batch30()[:3], Request{DrugA: "D00", DrugB: "D00", Line: 9}, Request{DrugA: "D01", DrugB: "D00", CellLine: "L1", Line: 10})
	p, err := Design{MaxPlates: 1, Replicates: 3}.Layout(in)
	if err != nil {
		t.Fatal(err)
	}
	left := map[string]int{}
	for _, tl := range p.Report.LeftOut {
		left[tl.Reason] = tl.Count
	}
	// One plate of 6 slots holds 2 blocks of 3 copies: the third is left out.
	if p.Report.Blocks != 2 || left[ReasonSameDrug] != 1 || left[ReasonDuplicate] != 1 || left[ReasonNoPlate] != 1 {
		t.Errorf("blocks %d, left out %v", p.Report.Blocks, left)
	}
}
