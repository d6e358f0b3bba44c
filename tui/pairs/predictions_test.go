package pairs

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/drugcomb"
)

func predScreen(cells ...string) *drugcomb.Screen {
	return &drugcomb.Screen{
		Name: "p", ScoreNames: []string{"s"}, CellLines: cells,
		Drugs: []drugcomb.Drug{
			{ID: "5702198", Name: "Cisplatin", PubChemCID: 5702198},
			{ID: "31703", Name: "Doxorubicin", PubChemCID: 31703},
			{ID: "D3", Name: "Gefitinib"},
		},
	}
}

func TestReadPredictionsCSV(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, csv string
		cells     []string
		cell      int
		want      []Scored // in file order
		err       string
	}{
		{
			name:  "ids names cids, no cell_line column",
			csv:   "drug_a,drug_b,mu,sigma_total,sigma_epistemic,sigma_aleatoric\n5702198,31703,1.5,2,1,1.5\ngefitinib,Cisplatin,-3,4,,2\n",
			cells: []string{"PC-3"}, cell: 0,
			want: []Scored{{Mu: 1.5, SigmaTotal: 2, SigmaEpistemic: 1, SigmaAleatoric: 1.5}, {Mu: -3, SigmaTotal: 4, SigmaEpistemic: math.NaN(), SigmaAleatoric: 2}},
		},
		{
			name:  "cell_line and acquisition columns, any order",
			csv:   "acquisition,sigma_aleatoric,sigma_epistemic,sigma_total,mu,cell_line,drug_b,drug_a\n9,1,1,1,1,MCF7,D3,31703\n",
			cells: []string{"PC-3", "MCF7"}, cell: -1,
			want: []Scored{{Mu: 1, SigmaTotal: 1, SigmaEpistemic: 1, SigmaAleatoric: 1, Acquisition: 9}},
		},
		{name: "unknown drug", csv: "drug_a,drug_b,mu,sigma_total,sigma_epistemic,sigma_aleatoric\n5702198,31703,1,1,1,1\nX,31703,1,1,1,1\n", cells: []string{"c"}, err: `line 3: column drug_a: drug "X" is not in the screen`},
		{name: "no cell line", csv: "drug_a,drug_b,mu,sigma_total,sigma_epistemic,sigma_aleatoric\nD3,31703,1,1,1,1\n", cells: []string{"a", "b"}, cell: -1, err: "line 2: column cell_line: no cell line"},
		{name: "unknown cell line", csv: "drug_a,drug_b,cell_line,mu,sigma_total,sigma_epistemic,sigma_aleatoric\nD3,31703,HeLa,1,1,1,1\n", cells: []string{"a"}, err: `cell line "HeLa" is not in the screen`},
		{name: "bad number", csv: "drug_a,drug_b,mu,sigma_total,sigma_epistemic,sigma_aleatoric\nD3,31703,1,x,1,1\n", cells: []string{"a"}, err: "line 2: column sigma_total"},
		{name: "negative sigma", csv: "drug_a,drug_b,mu,sigma_total,sigma_epistemic,sigma_aleatoric\nD3,31703,1,1,-1,1\n", cells: []string{"a"}, err: "line 2: column sigma_epistemic: negative"},
		{name: "infinite mu", csv: "drug_a,drug_b,mu,sigma_total,sigma_epistemic,sigma_aleatoric\nD3,31703,+Inf,1,1,1\n", cells: []string{"a"}, err: "not finite"},
		{name: "missing column", csv: "drug_a,drug_b,mu,sigma_total,sigma_epistemic\n", cells: []string{"a"}, err: `line 1: missing column "sigma_aleatoric"`},
		{
			name:  "deup predict's names: drug_a_id, drug_b_id and extra columns",
			csv:   "drug_a_id,drug_b_id,drug_a_name,drug_b_name,cell_line,score,mu,sigma_total,sigma_epistemic,sigma_aleatoric,measured,measured_mean,well\n5702198,31703,Cisplatin,Doxorubicin,a,combo_score,2,1,1,1,true,3.5,A1\n",
			cells: []string{"a"}, cell: -1,
			want: []Scored{{Mu: 2, SigmaTotal: 1, SigmaEpistemic: 1, SigmaAleatoric: 1}},
		},
		{name: "old and new drug column both", csv: "drug_a,drug_a_id,drug_b,mu,sigma_total,sigma_epistemic,sigma_aleatoric\n", cells: []string{"a"}, err: `columns "drug_a" and "drug_a_id" both`},
		{name: "no drug column", csv: "drug_b_id,mu,sigma_total,sigma_epistemic,sigma_aleatoric\n", cells: []string{"a"}, err: `missing column "drug_a_id" (or "drug_a")`},
		{name: "same drug twice", csv: "drug_a,drug_b,mu,sigma_total,sigma_epistemic,sigma_aleatoric\nD3,Gefitinib,1,1,1,1\n", cells: []string{"a"}, err: "line 2: pairs: pair of drug"},
		{name: "empty", csv: "", cells: []string{"a"}, err: "empty file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".csv")
			if err := os.WriteFile(path, []byte(tc.csv), 0o644); err != nil {
				t.Fatal(err)
			}
			bl, _ := NewBuilder(predScreen(tc.cells...), 0, active.DefaultKappa)
			n, err := bl.ReadPredictions(path, tc.cell)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), path) {
					t.Fatalf("err = %v, want one naming %s and %q", err, path, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tab, err := bl.Build()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(tc.csv, ",well") {
				if got := strings.Join(bl.Unused(), ","); got != "drug_a_name,drug_b_name,score,measured,measured_mean,well" {
					t.Errorf("Unused() = %s", got)
				}
			}
			if n != len(tc.want) || tab.Len() != n {
				t.Fatalf("added %d, table %d, want %d", n, tab.Len(), len(tc.want))
			}
			for i, w := range tc.want {
				r := tab.Row(i)
				if math.IsNaN(w.Acquisition) || w.Acquisition == 0 {
					w.Acquisition = w.Mu + active.DefaultKappa*w.SigmaEpistemic // default κ, the ucb of suggest and campaigns
				}
				got := [5]float64{r.Mu, r.SigmaTotal, r.SigmaEpistemic, r.SigmaAleatoric, r.Acquisition}
				want := [5]float64{w.Mu, w.SigmaTotal, w.SigmaEpistemic, w.SigmaAleatoric, w.Acquisition}
				for k := range got {
					if got[k] != want[k] && !(math.IsNaN(got[k]) && math.IsNaN(want[k])) {
						t.Fatalf("row %d: got %v, want %v", i, got, want)
					}
				}
			}
		})
	}
}

// predRecord is the record `deup predict` writes: drug_a, drug_b and the
// four floats.
func predRecord(mem memory.Allocator) arrow.Record {
	f64 := arrow.PrimitiveTypes.Float64
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "drug_a", Type: arrow.BinaryTypes.String}, {Name: "drug_b", Type: arrow.BinaryTypes.String},
		{Name: "mu", Type: f64}, {Name: "sigma_total", Type: f64}, {Name: "sigma_epistemic", Type: f64, Nullable: true}, {Name: "sigma_aleatoric", Type: f64},
	}, nil)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"5702198", "5702198", "31703"}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"31703", "D3", "D3"}, nil)
	b.Field(2).(*array.Float64Builder).AppendValues([]float64{1, 2, 3}, nil)
	b.Field(3).(*array.Float64Builder).AppendValues([]float64{4, 5, 6}, nil)
	b.Field(4).(*array.Float64Builder).AppendValues([]float64{1, 0, 2}, []bool{true, false, true})
	b.Field(5).(*array.Float64Builder).AppendValues([]float64{3, 3, 3}, nil)
	return b.NewRecord()
}

func TestReadPredictionsArrowParquet(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	rec := predRecord(mem)
	defer rec.Release()

	pq := filepath.Join(dir, "p.parquet")
	f, _ := os.Create(pq)
	w, err := pqarrow.NewFileWriter(rec.Schema(), f, parquet.NewWriterProperties(parquet.WithAllocator(mem)), pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem)))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	ar := filepath.Join(dir, "p.arrow")
	f, _ = os.Create(ar)
	iw, err := ipc.NewFileWriter(f, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	if err := iw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := iw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	for _, path := range []string{pq, ar} {
		t.Run(filepath.Ext(path), func(t *testing.T) {
			bl, _ := NewBuilder(predScreen("PC-3"), 0, active.DefaultKappa)
			bl.Mem = mem
			n, err := bl.ReadPredictions(path, 0)
			if err != nil || n != 3 {
				t.Fatalf("n=%d err=%v", n, err)
			}
			tab, err := bl.Build()
			if err != nil {
				t.Fatal(err)
			}
			r := tab.Row(1)
			if r.A != 0 || r.B != 2 || r.Mu != 2 || r.SigmaTotal != 5 || !math.IsNaN(r.SigmaEpistemic) {
				t.Fatalf("row 1 %+v, want Cisplatin+Gefitinib μ 2 σ_total 5 σ_epi NaN (null)", r)
			}
		})
	}
	t.Run("bad extension", func(t *testing.T) {
		bl, _ := NewBuilder(predScreen("PC-3"), 0, active.DefaultKappa)
		p := filepath.Join(dir, "p.xlsx")
		os.WriteFile(p, nil, 0o644)
		if _, err := bl.ReadPredictions(p, 0); err == nil || !strings.Contains(err.Error(), "unknown predictions format") {
			t.Fatalf("err = %v", err)
		}
	})
}
