package almanac

import (
	"bufio"

	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// genHeader is the 29 columns of ComboDrugGrowth, in NCI's order.
const genHeader = "COMBODRUGSEQ,SCREENER,STUDY,TESTDATE,PLATE,PANELNBR,CELLNBR,PREFIX1,NSC1,SAMPLE1,CONCINDEX1,CONC1,CONCUNIT1,PREFIX2,NSC2,SAMPLE2,CONCINDEX2,CONC2,CONCUNIT2,PERCENTGROWTH,PERCENTGROWTHNOTZ,TESTVALUE,CONTROLVALUE,TZVALUE,EXPECTEDGROWTH,SCORE,VALID,PANEL,CELLNAME"

// writeWells writes a generated wells file of about rows rows in NCI's
// layout, plate after plate as NCI's file has them: on each plate 4 drugs
// alone at 3 concentrations (12 wells) and 3 ordered pairs of them in 3x3
// blocks (27 wells), growths drawn from a seeded generator, with
// EXPECTEDGROWTH and SCORE computed by NCI's rule as the file gives them
// (3 decimals, integer). drugs (at least 4) is how many NSCs the plates
// draw from (NCI's file has 105). It returns the rows written and the
// plate-blocks.
func writeWells(w io.Writer, rows, drugs int, seed uint64) (n, blocks int, err error) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString(genHeader + "\n")
	nscs := make([]int, drugs)
	for i := range nscs {
		nscs[i] = 740 + 7919*i
	}
	cells := make([]string, 60)
	for i := range cells {
		cells[i] = "CELL-" + strconv.Itoa(i)
	}
	concs := [3]float64{2e-07, 2e-06, 2e-05}
	seq := 100000
	var buf []byte
	row := func(plate, cell string, nsc1, ci1 int, nsc2, ci2 int, pg, eg float64, score int) {
		seq++
		b := buf[:0]
		b = strconv.AppendInt(b, int64(seq), 10)
		b = append(b, ",FF,CD020CP11,07/07/2011,"...)
		b = append(b, plate...)
		b = append(b, ",11,1,S,"...)
		b = strconv.AppendInt(b, int64(nsc1), 10)
		b = append(b, ",31,"...)
		b = strconv.AppendInt(b, int64(ci1), 10)
		b = append(b, ',')
		b = strconv.AppendFloat(b, concs[ci1-1], 'g', -1, 64)
		b = append(b, ",M,S,"...)
		if nsc2 > 0 {
			b = strconv.AppendInt(b, int64(nsc2), 10)
			b = append(b, ",2,"...)
			b = strconv.AppendInt(b, int64(ci2), 10)
			b = append(b, ',')
			b = strconv.AppendFloat(b, concs[ci2-1], 'g', -1, 64)
			b = append(b, ",M,"...)
		} else {
			b = append(b, ",,0,,,"...)
		}
		b = strconv.AppendFloat(b, pg, 'f', 2, 64)
		b = append(b, ',')
		b = strconv.AppendFloat(b, pg*0.98+1, 'f', 2, 64)
		b = append(b, ",20136360,19977560,5969704,"...)
		if nsc2 > 0 {
			b = strconv.AppendFloat(b, eg, 'f', 3, 64)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(score), 10)
		} else {
			b = append(b, ',')
		}
		b = append(b, ",Y,Prostate Cancer,"...)
		b = append(b, cell...)
		b = append(b, '\n')
		buf = b
		bw.Write(b)
		n++
	}
	growth := func() float64 { return math.Round((rng.Float64()*160-40)*100) / 100 }
	for p := 0; n < rows; p++ {
		plate := "P" + strconv.Itoa(p)
		cell := cells[rng.IntN(len(cells))]
		var d [4]int
		for i := 0; i < len(d); {
			d[i] = nscs[rng.IntN(len(nscs))]
			if !slices.Contains(d[:i], d[i]) {
				i++
			}
		}
		var single [4][3]float64
		for i := range d {
			for c := 1; c <= 3; c++ {
				single[i][c-1] = growth()
				row(plate, cell, d[i], c, 0, 0, single[i][c-1], 0, 0)
			}
		}
		for _, pr := range [3][2]int{{0, 1}, {0, 2}, {3, 1}} {
			blocks++
			for c1 := 1; c1 <= 3; c1++ {
				for c2 := 1; c2 <= 3; c2++ {
					pg := growth()
					eg := expectedGrowth(single[pr[0]][c1-1], single[pr[1]][c2-1])
					row(plate, cell, d[pr[0]], c1, d[pr[1]], c2, pg, eg, int(wellScore(eg, pg)))
				}
			}
		}
	}
	return n, blocks, bw.Flush()
}

// TestGeneratedWells checks the generator against the importer: every
// combination well scored, no disagreement with the generated
// EXPECTEDGROWTH and SCORE. With DEUP_ALMANAC_GEN=PATH and
// DEUP_ALMANAC_GEN_ROWS=N it also writes an N-row file to PATH (for timing
// the command on a file of the official size).
func TestGeneratedWells(t *testing.T) {
	if p := os.Getenv("DEUP_ALMANAC_GEN"); p != "" {
		rows, _ := strconv.Atoi(os.Getenv("DEUP_ALMANAC_GEN_ROWS"))
		drugs, _ := strconv.Atoi(os.Getenv("DEUP_ALMANAC_GEN_DRUGS"))
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		n, b, err := writeWells(f, max(rows, 1), max(drugs, 4), 1)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d rows, %d plate-blocks", p, n, b)
	}
	p := filepath.Join(t.TempDir(), "wells.csv")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	n, blocks, err := writeWells(f, 20000, 105, 2)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	res := importFile(t, p, Options{PlateWindow: 8})
	rep := res.Report
	if rep.WellsRead != n || rep.ScoredWells != rep.CombinationWells || rep.PlateBlocks != blocks || rep.PlatesReopened != 0 {
		t.Errorf("%d wells read of %d, %d scored of %d combination, %d plate-blocks of %d, %d reopened", rep.WellsRead, n, rep.ScoredWells, rep.CombinationWells, rep.PlateBlocks, blocks, rep.PlatesReopened)
	}
	if rep.Expected.Count != 0 || rep.Score.Count != 0 {
		t.Errorf("disagreements: expected growth %+v, score %+v", rep.Expected, rep.Score)
	}
}

// BenchmarkImport imports generated wells files of 370,000 and 3.7 million
// rows (the official file's size), generated into a temporary directory at
// benchmark time; rows/s, and the heap the import held at most (sampled),
// which should not grow with the file.
func BenchmarkImport(b *testing.B) {
	for _, rows := range []int{370_000, 3_700_000} {
		b.Run(strconv.Itoa(rows), func(b *testing.B) {
			p := filepath.Join(b.TempDir(), "wells.csv")
			f, err := os.Create(p)
			if err != nil {
				b.Fatal(err)
			}
			n, _, err := writeWells(f, rows, 105, 3)
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
			st, _ := os.Stat(p)
			b.SetBytes(st.Size())
			b.ReportAllocs()
			b.ResetTimer()
			var peak uint64
			for i := 0; i < b.N; i++ {
				f, err := os.Open(p)
				if err != nil {
					b.Fatal(err)
				}
				_, err = Import(f, p, Options{Progress: func(int) {
					peak = max(peak, heapInuse())
				}})
				f.Close()
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(peak)/(1<<20), "MiB-heap-peak")
		})
	}
}
