package doseresp

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/shareddata"
)

const header = "block_id,drug_row,drug_col,cell_line,conc_r,conc_c,inhibition\n"

// plate writes a 2×2 block as long-table rows.
func plate(id string, y00, y01, y10, y11 string) string {
	return id + ",A,B,C,0,0," + y00 + "\n" + id + ",A,B,C,0,1," + y01 + "\n" +
		id + ",A,B,C,1,0," + y10 + "\n" + id + ",A,B,C,1,1," + y11 + "\n"
}

func TestReadReplicatesAndUnits(t *testing.T) {
	in := header + plate("1", "0", "10", "20", "50") + "1,A,B,C,1,1,54\n"
	blocks, rep, err := Read("t.csv", strings.NewReader(in), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 1 || rep.RowsRead != 5 || rep.RowsUsed != 5 {
		t.Fatalf("blocks %d, rows read %d used %d", len(blocks), rep.RowsRead, rep.RowsUsed)
	}
	b := blocks[0]
	// Two replicates 50 and 54: mean 52, sample sd sqrt(8) (hand).
	if b.Response[1][1] != 52 || math.Abs(b.SD[1][1]-math.Sqrt(8)) > 1e-12 || b.N[1][1] != 2 {
		t.Errorf("well (1,1): mean %v sd %v n %d, want 52, √8, 2", b.Response[1][1], b.SD[1][1], b.N[1][1])
	}
	if !math.IsNaN(b.SD[0][0]) {
		t.Errorf("one replicate: sd %v, want NaN", b.SD[0][0])
	}
	// Viability: the column name says so; inhibition = 100 − viability.
	v := strings.Replace(header, "inhibition", "viability", 1) + plate("1", "100", "90", "80", "50")
	blocks, rep, err = Read("v.csv", strings.NewReader(v), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unit != "viability" || blocks[0].Response[1][1] != 50 || blocks[0].Response[0][1] != 10 {
		t.Errorf("viability read as %s: %v", rep.Unit, blocks[0].Response)
	}
	// --response inhibition overrides the name.
	blocks, _, err = Read("v.csv", strings.NewReader(v), ReadOptions{Unit: Inhibition})
	if err != nil || blocks[0].Response[0][0] != 100 {
		t.Errorf("forced inhibition: %v %v", blocks, err)
	}
}

func TestReadSpellings(t *testing.T) {
	for _, tc := range []struct {
		name, hdr string
	}{
		{"SynergyFinder/O'Neil", "block_id,drug1,drug2,cell_line_name,conc1,conc2,response,conc_unit"},
		{"NCATS", "block_id,drug_row,drug_col,conc_row_uM,conc_col_uM,row_idx,col_idx,response_pct_inhibition"},
		{"SynergyFinder 1.x", "PairIndex,DrugRow,DrugCol,ConcRow,ConcCol,Response,ConcUnit"},
		{"TidyComb template", "block_id,drug_row,drug_col,conc_r,conc_c,inhibition,conc_r_unit,conc_c_unit,cell_line_name"},
		{"Mathews Griner", "BlockId,Col,Row,viability,AssayId,Size,RowSid,RowName,RowTarget,ColSid,ColName,ColTarget,RowIC50,ColIC50,RowConcs,ColConcs,RowConcUnit,ColConcUnit,sampleid,tissueid,tech_rep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, rep, err := Read("h.csv", strings.NewReader(tc.hdr+"\n"), ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, role := range []string{"block", "drug_row", "drug_col", "conc_row", "conc_col", "response"} {
				if rep.Columns[role] == "" {
					t.Errorf("no %s column recognised in %q", role, tc.hdr)
				}
			}
		})
	}
}

func TestReadBadPlates(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		lenient bool
		err     error  // a row error (file:line:column)
		where   string // in the error
		skip    string // or a reported skip
	}{
		{name: "non-numeric response", in: header + plate("1", "0", "x", "20", "50"), err: drugcomb.ErrNotNumber, where: "t.csv:3:"},
		{name: "negative dose", in: header + plate("1", "0", "10", "20", "50") + "1,A,B,C,-1,1,5\n", err: ErrNegativeDose, where: "t.csv:6:"},
		{name: "non-numeric response, lenient", in: header + plate("1", "0", "x", "20", "50"), lenient: true, skip: ReasonMalformed},
		{name: "one drug's doses missing", in: header + "1,A,B,C,1,0,5\n1,A,B,C,1,1,9\n1,A,B,C,2,0,5\n1,A,B,C,2,1,9\n", skip: ReasonNoSingleRow},
		{name: "a drug's single-drug wells all missing", in: header + "1,A,B,C,0,0,0\n1,A,B,C,1,0,5\n1,A,B,C,1,1,9\n1,A,B,C,2,0,5\n1,A,B,C,2,1,9\n", skip: ReasonNoSingleRow},
		{name: "one-well block", in: header + "1,A,B,C,1,1,50\n", skip: ReasonOneWell},
		{name: "two pairs under one id", in: header + plate("1", "0", "10", "20", "50") + "1,A,D,C,1,1,5\n", skip: ReasonMixedDrugs},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blocks, rep, err := Read("t.csv", strings.NewReader(tc.in), ReadOptions{Lenient: tc.lenient})
			if tc.err != nil {
				if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.where) {
					t.Fatalf("error %v, want %v at %s", err, tc.err, tc.where)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(blocks) != 0 || len(rep.Skipped) != 1 || rep.Skipped[0].Reason != tc.skip || rep.Skipped[0].Count != 1 {
				t.Fatalf("blocks %d, skipped %+v, want one skip %q", len(blocks), rep.Skipped, tc.skip)
			}
			if ex := rep.Skipped[0].Examples; len(ex) != 1 || !strings.HasPrefix(ex[0].Where, "t.csv:") {
				t.Errorf("skip without a location: %+v", ex)
			}
		})
	}
	// A missing response is counted and its well imputed from its
	// neighbours, as TidyComb does (ImputeNA): (1,1) = mean(10, 20, 30, 40).
	in := header + "1,A,B,C,0,0,0\n1,A,B,C,0,1,10\n1,A,B,C,0,2,15\n1,A,B,C,1,0,20\n1,A,B,C,1,1,NA\n1,A,B,C,1,2,30\n" +
		"1,A,B,C,2,0,25\n1,A,B,C,2,1,40\n1,A,B,C,2,2,60\n"
	blocks, rep, err := Read("t.csv", strings.NewReader(in), ReadOptions{})
	if err != nil || rep.MissingRows != 1 || rep.Imputed != 1 || len(blocks) != 1 || blocks[0].Response[1][1] != 25 || blocks[0].N[1][1] != 0 {
		t.Errorf("NA response: err %v, missing %d, imputed %d, blocks %v", err, rep.MissingRows, rep.Imputed, blocks)
	}
	// In a 2×2 the only single-drug well of B missing is B's doses missing.
	_, rep, err = Read("t.csv", strings.NewReader(header+plate("1", "0", "NA", "20", "50")), ReadOptions{})
	if err != nil || rep.SkippedBlocks() != 1 || rep.Skipped[0].Reason != ReasonNoSingleRow {
		t.Errorf("2×2 without B alone: err %v, skipped %+v", err, rep.Skipped)
	}
	// A missing column names what it looked for.
	_, _, err = Read("t.csv", strings.NewReader("block_id,drug_row,drug_col,conc_r,conc_c\n"), ReadOptions{})
	if !errors.Is(err, drugcomb.ErrMissingColumn) || !strings.Contains(err.Error(), "response") {
		t.Errorf("missing response column: %v", err)
	}
}

// FuzzRead: no input panics Read or ScoreAll, and every block Read returns
// has the shape Score needs.
func FuzzRead(f *testing.F) {
	f.Add(header + plate("1", "0", "10", "20", "50"))
	f.Add(header + plate("1", "0", "1e308", "-1e308", "NaN") + plate("2", "0", "0", "0", "0"))
	f.Add("drug1;drug2;conc1;conc2;response\nA;B;0;0;1\nA;B;0;2;3\nA;B;1;0;4\nA;B;1;2;9\n")
	f.Add("Drug1,a\nDrug2,b\nConcUnit,nM\n,0,1,10\n0,0,10,30\n2,20,35,60\n20,40,55,80\n\nDrug1,c\nDrug2,b\n,0,1\n0,1,2\n1,NA,4\n")
	if p, ok := shareddata.Optional(f, "doseresponse", "ONEIL_screening_data.csv"); ok {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		blocks, rep, err := Read("f.csv", strings.NewReader(in), ReadOptions{Lenient: true})
		if err != nil {
			return
		}
		for _, b := range blocks {
			if err := b.Check(); err != nil {
				t.Fatalf("Read returned a block Check rejects: %v", err)
			}
		}
		if len(blocks) <= 8 {
			ScoreAll(blocks, Options{}, rep)
		}
		if rep.Blocks+rep.SkippedBlocks() < len(blocks) {
			t.Fatalf("blocks lost: %d read, %d scored, %d skipped", len(blocks), rep.Blocks, rep.SkippedBlocks())
		}
	})
}

// ImputeNA by hand: a 3×3 with the centre and a corner missing. Pass 1:
// centre = mean(2, 4, 6, 8) = 5, corner (2,2) = mean(6, 8) = 7.
func TestImputeNA(t *testing.T) {
	n := math.NaN()
	m := [][]float64{{1, 2, 3}, {4, n, 6}, {7, 8, n}}
	if got := ImputeNA(m); got != 2 || m[1][1] != 5 || m[2][2] != 7 {
		t.Errorf("filled %d: %v", got, m)
	}
	// Passes: (0,0) has only NaN neighbours in pass 1.
	m = [][]float64{{n, n}, {n, 4}}
	if got := ImputeNA(m); got != 3 || m[0][0] != 4 {
		t.Errorf("filled %d: %v", got, m)
	}
	if got := ImputeNA([][]float64{{n}}); got != 0 {
		t.Errorf("all NaN: filled %d", got)
	}
}

// SynergyFinder's matrix layout: two blocks, Drug1 on the rows, Drug2's
// concentrations on top, a blank line between the blocks.
func TestReadMatrixLayout(t *testing.T) {
	in := "Drug1,ispinesib\nDrug2,ibrutinib\nConcUnit,nM\n,0,1,10\n0,0,10,30\n2,20,35,60\n20,40,55,80\n\n" +
		"Drug1:,canertinib\nDrug2:,ibrutinib\nConcUnit:,nM\n,0,1,10\n0,0,10,30\n2,5,20,NA\n20,30,50,70\n"
	blocks, rep, err := Read("m.csv", strings.NewReader(in), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || rep.Columns["layout"] != "SynergyFinder matrix" {
		t.Fatalf("%d blocks, report %+v", len(blocks), rep)
	}
	b := blocks[0]
	if b.ID != "1" || b.DrugRow != "ispinesib" || b.DrugCol != "ibrutinib" || b.Unit != "nM" ||
		b.ConcRow[2] != 20 || b.ConcCol[1] != 1 || b.Response[1][2] != 60 || b.Response[2][0] != 40 {
		t.Errorf("block 1: %+v", b)
	}
	// The NA well of block 2 is imputed: mean(30, 20, 70) = 40.
	if got := blocks[1].Response[1][2]; got != 40 || rep.Imputed != 1 {
		t.Errorf("imputed well %v (imputed %d)", got, rep.Imputed)
	}
	// Viability on request; errors name line and column.
	v, _, err := Read("m.csv", strings.NewReader(in), ReadOptions{Unit: Viability})
	if err != nil || v[0].Response[0][0] != 100 {
		t.Errorf("viability: %v %v", err, v)
	}
	bad := strings.Replace(in, "2,20,35,60", "2,20,x,60", 1)
	if _, _, err := Read("m.csv", strings.NewReader(bad), ReadOptions{}); !errors.Is(err, drugcomb.ErrNotNumber) || !strings.Contains(err.Error(), "m.csv:6:6") {
		t.Errorf("bad response: %v", err)
	}
	neg := strings.Replace(in, "\n20,40", "\n-20,40", 1)
	if _, _, err := Read("m.csv", strings.NewReader(neg), ReadOptions{}); !errors.Is(err, ErrNegativeDose) || !strings.Contains(err.Error(), "m.csv:7") {
		t.Errorf("negative dose: %v", err)
	}
}
