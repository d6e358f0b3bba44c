package platesim

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/deup-screening/deup/doseresp"
	"github.com/deup-screening/deup/plate"
)

// synergy is a made-up truth: a score in [−30, 30] from the pair's names.
func synergy(a, b, line string) (float64, bool) {
	if b < a {
		a, b = b, a
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s|%s|%s", a, b, line)
	return 30 * math.Sin(float64(h.Sum64()%1000)), true
}

func requests(n int) []plate.Request {
	var rs []plate.Request
	for a := 0; len(rs) < n; a++ {
		for b := a + 1; b < 12 && len(rs) < n; b++ {
			rs = append(rs, plate.Request{DrugA: fmt.Sprintf("D%02d", a), DrugB: fmt.Sprintf("D%02d", b), CellLine: "L1", Line: len(rs) + 2})
		}
	}
	return rs
}

// TestLabRoundTrip designs 20 blocks, reads them in the simulated lab
// (plate 2 bad), parses both reader layouts, normalizes and scores the
// blocks with doseresp: the bad plate is flagged and kept out, and every
// block's Bliss score is within four standard deviations of the truth.
// The sd is that of a block's mean Bliss δ from one copy of its wells,
// each with the lab's noise σ (3 % of the control window):
// var ≤ σ²·(1/25 + 2/5) for the 25 inner wells and the two single-agent
// series of 5 that every inner δ shares (doseresp's Bliss on observed
// single-agent responses).
func TestLabRoundTrip(t *testing.T) {
	p, err := plate.Design{Seed: 7}.Layout(requests(20))
	if err != nil {
		t.Fatal(err)
	}
	lab := Lab{Seed: 11, Synergy: synergy, BadPlate: 2}
	reads := lab.Read(p.Map)
	for _, layout := range []string{"grid", "long"} {
		t.Run(layout, func(t *testing.T) {
			var buf bytes.Buffer
			write := reads.WriteGrid
			if layout == "long" {
				write = reads.WriteLong
			}
			if err := write(&buf); err != nil {
				t.Fatal(err)
			}
			var rep plate.ReadReport
			rs, err := plate.ParseReads("reads."+layout, &buf, plate.ReadOptions{}, &rep)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := plate.Normalize(p.Map, rs, plate.Inhibition, plate.DefaultMinZ, false, plate.ReadOptions{}, &rep)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Flagged != 1 || rep.KeptOut != 1 || rep.Plates[1].Kept || !(rep.Plates[1].ZPrime < 0.5) {
				t.Fatalf("plate QC: %+v", rep.Plates)
			}
			for i, q := range rep.Plates {
				if i != 1 && !(q.ZPrime > 0.7) {
					t.Errorf("plate %s: Z′ %.3f, want > 0.7 (noise 3 %%: 1 − 6·0.03 = 0.82)", q.Plate, q.ZPrime)
				}
			}
			path := filepath.Join(t.TempDir(), "responses.csv")
			if err := plate.WriteResponses(path, resp, plate.Inhibition); err != nil {
				t.Fatal(err)
			}
			blocks, drep, err := doseresp.ReadFile(path, doseresp.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			scored := doseresp.ScoreAll(blocks, doseresp.Options{}, drep)
			truth := map[string]Truth{}
			for _, tr := range reads.Truth {
				truth[tr.BlockID] = tr
			}
			sd := 3 * math.Sqrt(1.0/25+2.0/5)
			n := 0
			var got, want []float64
			for _, s := range scored {
				if s.Err != nil {
					t.Fatalf("block %s: %v", s.Block.ID, s.Err)
				}
				var bliss float64
				for _, sf := range s.Result.Synergy {
					if sf.Synergy.Name == "bliss" {
						bliss = sf.Mean
					}
				}
				tr := truth[s.Block.ID]
				if d := math.Abs(bliss - tr.Bliss); !(d < 4*sd) {
					t.Errorf("block %s: Bliss %.2f, truth %.2f (k %.2f): off by %.2f, more than 4 sd (%.2f)", s.Block.ID, bliss, tr.Bliss, tr.K, d, 4*sd)
				}
				got, want = append(got, bliss), append(want, tr.Bliss)
				n++
			}
			// A scorer blind to the plates would have r near 0.
			if r := stat.Correlation(got, want, nil); !(r > 0.9) {
				t.Errorf("Bliss against the truth: Pearson r %.3f, want > 0.9", r)
			}
			if n != 20 {
				t.Errorf("%d blocks scored, want 20", n)
			}
		})
	}
}

// TestEdgeLoss: with the edge in use, a vehicle well (a negative control
// or a block's zero–zero well) of the outer ring reads EdgeLoss less than
// one inside (noise made negligible; the plate's gain divides out).
func TestEdgeLoss(t *testing.T) {
	p, err := plate.Design{UseEdge: true, Seed: 1}.Layout(requests(2))
	if err != nil {
		t.Fatal(err)
	}
	rd := Lab{Seed: 1, Noise: 1e-6}.Read(p.Map)
	var edge, inner []float64
	for i, w := range p.Map.Wells {
		if w.Role != plate.Negative && !(w.Role == plate.Sample && w.ConcA == 0 && w.ConcB == 0) {
			continue
		}
		if w.Row == 0 || w.Row == p.Map.Format.Rows-1 || w.Col == 0 || w.Col == p.Map.Format.Cols-1 {
			edge = append(edge, rd.Counts[i])
		} else {
			inner = append(inner, rd.Counts[i])
		}
	}
	if len(edge) == 0 || len(inner) == 0 {
		t.Fatalf("%d edge and %d inner vehicle wells", len(edge), len(inner))
	}
	if r := stat.Mean(edge, nil) / stat.Mean(inner, nil); math.Abs(r-0.85) > 0.001 {
		t.Errorf("edge/inner signal %.4f, want 0.85", r)
	}
}

// TestReaderFormats: the simulated reader's grids of 8×12, 16×24 and 32×48
// wells (rows A … AF) and its long table parse to the same readings.
func TestReaderFormats(t *testing.T) {
	for _, f := range []plate.Format{plate.Plate96, plate.Plate384, plate.Plate1536} {
		t.Run(f.String(), func(t *testing.T) {
			p, err := plate.Design{Format: f, GridRows: 4, GridCols: 4, Seed: 1}.Layout(requests(3))
			if err != nil {
				t.Fatal(err)
			}
			rd := Lab{Seed: 2}.Read(p.Map)
			parse := func(write func(io.Writer) error) []plate.Read {
				var buf bytes.Buffer
				if err := write(&buf); err != nil {
					t.Fatal(err)
				}
				var rep plate.ReadReport
				rs, err := plate.ParseReads("r", &buf, plate.ReadOptions{}, &rep)
				if err != nil {
					t.Fatal(err)
				}
				return rs
			}
			g, l := parse(rd.WriteGrid), parse(rd.WriteLong)
			if len(g) != len(p.Map.Wells) || len(l) != len(g) {
				t.Fatalf("%d grid and %d long reads for %d wells", len(g), len(l), len(p.Map.Wells))
			}
			for i := range g {
				if g[i].Plate != l[i].Plate || g[i].Row != l[i].Row || g[i].Col != l[i].Col || g[i].Value != l[i].Value {
					t.Fatalf("read %d: grid %+v, long %+v", i, g[i], l[i])
				}
			}
		})
	}
}
