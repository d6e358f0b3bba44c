package plate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMapRoundTrip: map.csv and map.parquet read back as the map written,
// and the generated source.csv reads back as a source that plans the same
// pick list.
func TestMapRoundTrip(t *testing.T) {
	d := Design{Seed: 3}
	p, err := d.Layout(batch30()[:8])
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteDir(dir, p); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{MapCSV, MapParquet} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		m, err := ReadMap(name, f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if m.Format != p.Map.Format || len(m.Plates) != len(p.Map.Plates) || len(m.Wells) != len(p.Map.Wells) {
			t.Fatalf("%s: %v, %d plates, %d wells", name, m.Format, len(m.Plates), len(m.Wells))
		}
		for i, w := range m.Wells {
			o := p.Map.Wells[i]
			if w.Plate != o.Plate || w.Row != o.Row || w.Col != o.Col || w.Role != o.Role || w.DrugA != o.DrugA || w.ConcA != o.ConcA ||
				w.DrugB != o.DrugB || w.ConcB != o.ConcB || w.CellLine != o.CellLine || w.BlockID != o.BlockID {
				t.Fatalf("%s: well %d: %+v, wrote %+v", name, i, w, o)
			}
		}
	}
	f, err := os.Open(filepath.Join(dir, SourceCSV))
	if err != nil {
		t.Fatal(err)
	}
	src, err := ReadSource(SourceCSV, f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	d.Source, d.SourceName = src, SourceCSV
	q, err := d.Layout(batch30()[:8])
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Picks) != len(p.Picks) {
		t.Fatalf("%d picks from the source read back, %d generated", len(q.Picks), len(p.Picks))
	}
	for i := range q.Picks {
		if q.Picks[i] != p.Picks[i] {
			t.Fatalf("pick %d: %+v, generated %+v", i, q.Picks[i], p.Picks[i])
		}
	}
}

// TestNormalizeReadouts: the example reads on the one-block 96-well map of
// plate_refuse.txtar; inhibition by hand: 100·(49500 − 30000)/(49500 −
// 2050) = 41.0959 % at F10, and viability is 100 − inhibition.
func TestNormalizeReadouts(t *testing.T) {
	p, err := Design{Format: Plate96, GridRows: 2, GridCols: 2, Replicates: 1, Controls: 2, Seed: 1}.Layout(
		[]Request{{DrugA: "D1", DrugB: "D2", CellLine: "LINE-1", Line: 2}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("testdata/reads-long.csv")
	if err != nil {
		t.Fatal(err)
	}
	var rep ReadReport
	rs, err := ParseReads("reads-long.csv", strings.NewReader(string(b)), ReadOptions{}, &rep)
	if err != nil {
		t.Fatal(err)
	}
	inh, err := Normalize(p.Map, rs, Inhibition, DefaultMinZ, false, ReadOptions{}, &ReadReport{})
	if err != nil {
		t.Fatal(err)
	}
	via, err := Normalize(p.Map, rs, Viability, DefaultMinZ, false, ReadOptions{}, &ReadReport{})
	if err != nil {
		t.Fatal(err)
	}
	if len(inh) != 4 || len(via) != 4 {
		t.Fatalf("%d and %d responses, want 4", len(inh), len(via))
	}
	for i := range inh {
		if d := inh[i].Value + via[i].Value - 100; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: inhibition %v + viability %v ≠ 100", inh[i].Well, inh[i].Value, via[i].Value)
		}
		if inh[i].Well == "F10" && (inh[i].Value < 41.0958 || inh[i].Value > 41.0960) {
			t.Errorf("F10: %v %% inhibition, want 41.0959", inh[i].Value)
		}
	}
	// Z′ by hand: sd 707.107 and 70.7107, 1 − 3·777.817/47450 = 0.95082.
	if z := ZPrime(49500, 707.1068, 2050, 70.71068); z < 0.95081 || z > 0.95083 {
		t.Errorf("Z′ %v, want 0.95082", z)
	}
}

// TestFewControls: a plate with one reading of each control has no sd
// and no Z′: flagged, kept out, and its report's JSON says null.
func TestFewControls(t *testing.T) {
	p, err := Design{Format: Plate96, GridRows: 2, GridCols: 2, Replicates: 1, Controls: 1, Seed: 1}.Layout(
		[]Request{{DrugA: "D1", DrugB: "D2", CellLine: "L", Line: 2}})
	if err != nil {
		t.Fatal(err)
	}
	var rs []Read
	for _, w := range p.Map.Wells {
		v := 30000.0
		switch w.Role {
		case Empty:
			continue
		case Negative:
			v = 50000
		case Positive:
			v = 2000
		}
		rs = append(rs, Read{Plate: w.Plate, Row: w.Row, Col: w.Col, Value: v, File: "f", Line: 1, Column: 1})
	}
	var rep ReadReport
	out, err := Normalize(p.Map, rs, Inhibition, DefaultMinZ, true, ReadOptions{}, &rep)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 0 || rep.Flagged != 1 || rep.KeptOut != 1 || rep.Plates[0].Flag != ReasonFewCtrl {
		t.Fatalf("%d responses, report %+v", len(out), rep.Plates)
	}
	b, err := json.Marshal(&rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"z_prime":null`) || !strings.Contains(string(b), `"negative_sd":null`) {
		t.Errorf("report JSON: %s", b)
	}
}

func TestReadMapErrors(t *testing.T) {
	hdr := strings.Join(MapColumns(), ",") + "\n"
	for _, c := range []struct{ name, in, want string }{
		{"twice", hdr + "P1,A1,A,1,empty,,0,,0,L,\nP1,A1,A,1,empty,,0,,0,L,\n", `well A1 twice in the map (first at m.csv:2)`},
		{"role", hdr + "P1,A1,A,1,blank,,0,,0,L,\n", `role "blank"`},
		{"dose", hdr + "P1,A1,A,1,sample,D,-1,E,0,L,1\n", `dose "-1"`},
		{"well", hdr + "P1,Z99,Z,99,empty,,0,,0,L,\n", `"Z99" is not on a 1536-well plate`},
		{"column", "plate,well\nP1,A1\n", "missing column"},
		{"empty", hdr, "no wells"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadMap("m.csv", strings.NewReader(c.in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}
