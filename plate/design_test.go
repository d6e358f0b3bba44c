package plate

import (
	"fmt"
	"math"
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
