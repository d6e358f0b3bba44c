package almanac

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExpectedGrowth checks NCI's rule (ALMANAC_DataFields.txt): the
// smaller growth when either is negative, else the product of the growths
// capped at 100, over 100. Values from the sample's wells where noted.
func TestExpectedGrowth(t *testing.T) {
	for _, c := range []struct {
		name           string
		g1, g2, expect float64
	}{
		{"both below 100", 80, 50, 40},
		{"one above 100 is capped", 107.03, 111.35, 100},   // sample_blocks: EXPECTEDGROWTH 100
		{"one above 100, one below", 102.48, 98.63, 98.63}, // sample_blocks: 98.63
		{"one negative: the smaller", -96.05, 111.01, -96.05},
		{"both negative: the smaller", -20, -30, -30},
		{"zero is not negative", 0, 50, 0},
	} {
		if got := expectedGrowth(c.g1, c.g2); math.Abs(got-c.expect) > 1e-12 {
			t.Errorf("%s: expectedGrowth(%g, %g) = %g, want %g", c.name, c.g1, c.g2, got, c.expect)
		}
	}
}

// TestWellScore checks the rounding of NCI's SCORE (NUMBER(4), Oracle's
// ROUND: half away from zero) on the five wells of sample_blocks where
// expected minus observed growth is an exact half.
func TestWellScore(t *testing.T) {
	for _, c := range []struct{ eg, pg, want float64 }{
		{12.58, 13.08, -1},
		{100, 99.5, 1},
		{-96.05, -95.55, -1},
		{98.63, 101.13, -3},
		{87.57, 67.07, 21},
		{98.91, 105.07, -6}, // an ordinary well
	} {
		if got := wellScore(c.eg, c.pg); got != c.want {
			t.Errorf("wellScore(%g, %g) = %g, want %g", c.eg, c.pg, got, c.want)
		}
	}
}

const wellsHeader = "STUDY,PLATE,NSC1,CONC1,CONCUNIT1,NSC2,CONC2,CONCUNIT2,PERCENTGROWTH,EXPECTEDGROWTH,SCORE,VALID,CELLNAME\n"

func importString(t *testing.T, s string, opt Options) (*Result, error) {
	t.Helper()
	return Import(strings.NewReader(s), "w.csv", opt)
}

func reasons(rep *Report) map[string]int {
	m := map[string]int{}
	for _, u := range rep.Unused {
		m[u.Reason] = u.Count
	}
	return m
}

// TestImportRules imports small hand-written plates: which wells are
// scored, which are not and why, and the ComboScores (sums worked out by
// hand from NCI's rule).
func TestImportRules(t *testing.T) {
	in := wellsHeader +
		// plate A on L1: drugs 1 and 2 alone at two concentrations
		"S,A,1,1e-6,M,,,,80,,,Y,L1\n" +
		"S,A,1,1e-5,M,,,,50,,,Y,L1\n" +
		"S,A,2,1e-6,M,,,,90,,,Y,L1\n" +
		"S,A,2,1e-5,M,,,,-10,,,Y,L1\n" +
		"S,A,2,1e-4,M,,,,-20,,,Y,L1\n" + // used by no combination
		// combinations: 80*90/100 = 72; 50*90/100 = 45; min(80,-10) = -10
		"S,A,1,1e-6,M,2,1e-6,M,70,72,2,Y,L1\n" +
		"S,A,1,1e-5,M,2,1e-6,M,40,45,5,Y,L1\n" +
		"S,A,1,1e-6,M,2,1e-5,M,-15,-10,5,Y,L1\n" +
		// the reverse order on the same plate is another ordered pair: 90*80/100 = 72
		"S,A,2,1e-6,M,1,1e-6,M,60,72,12,Y,L1\n" +
		// no single agent of drug 1 at 1e-4
		"S,A,1,1e-4,M,2,1e-6,M,60,,,Y,L1\n" +
		"S,A,1,1e-6,M,2,1e-6,M,60,72,12,N,L1\n" + // invalid
		"S,A,1,1e-6,M,2,1e-6,M,,72,12,Y,L1\n" + // no growth
		"S,A,1,1e-6,M,2,1e-6,mg,60,72,12,Y,L1\n" + // unit
		// the file's EXPECTEDGROWTH and SCORE disagree with the rule
		"S,A,1,1e-5,M,2,1e-5,M,-20,-5,15,Y,L1\n" +
		// plate B, same pair and line, a second plate: 80*90/100 = 72, score 72-62 = 10
		"S,B,1,1e-6,M,,,,80,,,Y,L1\n" +
		"S,B,2,1e-6,M,,,,90,,,Y,L1\n" +
		"S,B,1,1e-6,M,2,1e-6,M,62,72,10,Y,L1\n"
	res, err := importString(t, in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	want := map[string]int{ReasonSingleOnly: 1, ReasonMissingPartner: 1, ReasonInvalid: 1, ReasonNoGrowth: 1, ReasonUnit: 1}
	if got := reasons(rep); len(got) != len(want) || got[ReasonSingleOnly] != 1 || got[ReasonMissingPartner] != 1 || got[ReasonInvalid] != 1 || got[ReasonNoGrowth] != 1 || got[ReasonUnit] != 1 {
		t.Errorf("unused %v, want %v", got, want)
	}
	if rep.WellsRead != 17 || rep.ScoredWells != 6 || rep.ReferenceWells != 6 || rep.ScoredWells+rep.ReferenceWells+rep.UnusedWells() != rep.WellsRead {
		t.Errorf("read %d, scored %d, reference %d, unused %d", rep.WellsRead, rep.ScoredWells, rep.ReferenceWells, rep.UnusedWells())
	}
	// the last well of plate A: min(50, -10) = -10 expected, file says -5; score -10+20 = 10, file 15
	if rep.Expected.Count != 1 || rep.Expected.MaxDiff != 5 || rep.Score.Count != 1 || rep.Score.MaxDiff != 5 {
		t.Errorf("disagreements: expected %+v, score %+v", rep.Expected, rep.Score)
	}
	got := map[[2]int]ComboScore{}
	for _, c := range res.ComboScores {
		got[[2]int{c.NSC1, c.NSC2}] = c
	}
	// (1,2): plate A 2+5+5+10 = 22, plate B 10: mean 16 over 2 plates, 5 wells
	if c := got[[2]int{1, 2}]; c.Score != 16 || c.Plates != 2 || c.Wells != 5 || len(c.Sums) != 2 || c.Sums[0] != 22 || c.Sums[1] != 10 {
		t.Errorf("NSC 1 + NSC 2: %+v, want score 16 (sums 22, 10), 5 wells", c)
	}
	if c := got[[2]int{2, 1}]; c.Score != 12 || c.Wells != 1 {
		t.Errorf("NSC 2 + NSC 1: %+v, want score 12 over 1 well", c)
	}
}

// TestPlateWindow checks that a plate whose rows come back after the window
// closed it is reported as reopened, its late well reported without its
// partners, and that an unbounded window (-1) matches them.
func TestPlateWindow(t *testing.T) {
	in := wellsHeader +
		"S,A,1,1e-6,M,,,,80,,,Y,L1\n" + "S,A,2,1e-6,M,,,,90,,,Y,L1\n" +
		"S,B,1,1e-6,M,,,,80,,,Y,L1\n" + "S,C,1,1e-6,M,,,,80,,,Y,L1\n" + "S,D,1,1e-6,M,,,,80,,,Y,L1\n" +
		"S,A,1,1e-6,M,2,1e-6,M,70,72,2,Y,L1\n"
	res, err := importString(t, in, Options{PlateWindow: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.PlatesReopened != 1 || reasons(res.Report)[ReasonMissingPartner] != 1 {
		t.Errorf("window 1: reopened %d, unused %v", res.Report.PlatesReopened, reasons(res.Report))
	}
	res, err = importString(t, in, Options{PlateWindow: -1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.PlatesReopened != 0 || res.Report.ScoredWells != 1 {
		t.Errorf("unbounded: reopened %d, scored %d", res.Report.PlatesReopened, res.Report.ScoredWells)
	}
}

// TestImportErrors checks that malformed files are errors naming the file,
// line and column.
func TestImportErrors(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
	}{
		{"empty", "", "w.csv:1: almanac: not a ComboDrugGrowth wells file: empty file"},
		{"missing columns", "A,B\n1,2\n", "the header lacks PLATE, NSC1, CONC1"},
		{"short row", wellsHeader + "S,A,1\n", "w.csv:2: almanac: not a ComboDrugGrowth wells file: 3 fields, the header has 13"},
		{"bad NSC", wellsHeader + "S,A,x1,1e-6,M,,,,80,,,Y,L1\n", `w.csv:2: column NSC1: almanac: not a ComboDrugGrowth wells file: "x1" is not an NSC number`},
		{"bad growth", wellsHeader + "S,A,1,1e-6,M,,,,8o,,,Y,L1\n", "w.csv:2: column PERCENTGROWTH"},
		{"infinite concentration", wellsHeader + "S,A,1,1e-6,M,2,Inf,M,80,,,Y,L1\n", "w.csv:2: column CONC2"},
		{"error after good lines", wellsHeader + "S,A,1,1e-6,M,,,,80,,,Y,L1\n\nS,A,1,1e-6,M,,,,80,,,Y,L1,extra\n", "w.csv:4:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := importString(t, c.in, Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrFormat) {
				t.Errorf("error %v, want one containing %q and wrapping ErrFormat", err, c.want)
			}
		})
	}
}

// TestQuotedAndCRLF reads a file with CRLF line ends, quoted fields and
// columns in another order, as CSV writers may produce it.
func TestQuotedAndCRLF(t *testing.T) {
	in := "CELLNAME,PLATE,STUDY,NSC1,CONC1,CONCUNIT1,NSC2,CONC2,CONCUNIT2,PERCENTGROWTH\r\n" +
		"\"L, 1\",A,S,1,1e-6,M,,,,80\r\n" + "\"L, 1\",A,S,2,1e-6,M,,,,90\r\n" + "\"L, 1\",A,S,1,1e-6,M,2,1e-6,M,70\r\n" +
		// a second plate and line, also quoted: fields of one quoted line must not
		// be overwritten by the next
		"\"L \"\"2\"\"\",\"B\",S,1,1e-6,M,,,,80\r\n" + "\"L \"\"2\"\"\",\"B\",S,2,1e-6,M,,,,90\r\n" + "\"L \"\"2\"\"\",\"B\",S,1,1e-6,M,2,1e-6,M,62\r\n"
	res, err := importString(t, in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ComboScores) != 2 || res.ComboScores[0].Cell != "L \"2\"" || res.ComboScores[0].Score != 10 ||
		res.ComboScores[1].Cell != "L, 1" || res.ComboScores[1].Score != 2 || res.Report.Plates != 2 {
		t.Errorf("%+v, %d plates", res.ComboScores, res.Report.Plates)
	}
}

// TestOpenWellsZip streams the CSV member of a zip archive, as NCI ships
// ComboDrugGrowth_Nov2017.zip.
func TestOpenWellsZip(t *testing.T) {
	in := wellsHeader + "S,A,1,1e-6,M,,,,80,,,Y,L1\n" + "S,A,2,1e-6,M,,,,90,,,Y,L1\n" + "S,A,1,1e-6,M,2,1e-6,M,70,72,2,Y,L1\n"
	p := filepath.Join(t.TempDir(), "ComboDrugGrowth.zip")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("ComboDrugGrowth_Nov2017.csv")
	w.Write([]byte(in))
	zw.Close()
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, name, err := OpenWells(p)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	res, err := Import(rc, name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if name != p+":ComboDrugGrowth_Nov2017.csv" || len(res.ComboScores) != 1 || res.ComboScores[0].Score != 2 {
		t.Errorf("%s: %+v", name, res.ComboScores)
	}
	// an archive without a CSV member
	buf.Reset()
	zw = zip.NewWriter(&buf)
	zw.Create("readme.txt")
	zw.Close()
	os.WriteFile(p, buf.Bytes(), 0o644)
	if _, _, err := OpenWells(p); err == nil || !strings.Contains(err.Error(), "want one .csv member") {
		t.Errorf("zip without csv: %v", err)
	}
}

// FuzzImport checks that no input panics, that errors wrap ErrFormat, and
// that every well read is accounted for.
func FuzzImport(f *testing.F) {
	f.Add(wellsHeader + "S,A,1,1e-6,M,,,,80,,,Y,L1\nS,A,2,1e-6,M,,,,90,,,Y,L1\nS,A,1,1e-6,M,2,1e-6,M,70,72,2,Y,L1\n")
	f.Add(wellsHeader + "\"S\",A,1,1e-6,u,2,1e-6,u,70,72,2,N,\"L,1\"\r\n")
	f.Add("PLATE,NSC1,CONC1,CONCUNIT1,NSC2,CONC2,CONCUNIT2,PERCENTGROWTH,CELLNAME\nA,1,1,M,,,,-5,x\n")
	f.Fuzz(func(t *testing.T, s string) {
		res, err := Import(strings.NewReader(s), "f.csv", Options{PlateWindow: 2})
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		rep := res.Report
		if rep.ScoredWells+rep.ReferenceWells+rep.UnusedWells() != rep.WellsRead {
			t.Fatalf("scored %d + reference %d + unused %d != read %d", rep.ScoredWells, rep.ReferenceWells, rep.UnusedWells(), rep.WellsRead)
		}
	})
}

// TestStreamAcrossChunks imports a generated file of several chunks (read
// and parsed on other goroutines) and checks that wells come in file order
// (every plate-block complete, nothing reopened) and that an error after
// them names its exact line.
func TestStreamAcrossChunks(t *testing.T) {
	var b bytes.Buffer
	n, blocks, err := writeWells(&b, 40000, 105, 4)
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() < 4*chunkSize {
		t.Fatalf("generated %d bytes, want several chunks of %d", b.Len(), chunkSize)
	}
	good := b.String()
	res, err := importString(t, good, Options{PlateWindow: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.WellsRead != n || res.Report.PlateBlocks != blocks || res.Report.PlatesReopened != 0 || res.Report.ScoredWells != res.Report.CombinationWells {
		t.Errorf("%+v", res.Report)
	}
	_, err = importString(t, good+"1,2,3\n", Options{})
	if want := fmt.Sprintf("w.csv:%d: ", n+2); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want it at line %d", err, n+2)
	}
}
