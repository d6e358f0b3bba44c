package scores

import (
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/deup-screening/deup/internal/arrowguard"
	"github.com/deup-screening/deup/internal/tabular"
)

// LineSummary is one cell line's predictions in brief.
type LineSummary struct {
	CellLine           string
	Rows               int
	MeanMu, MaxMu      float64
	MeanSigmaEpistemic float64
	MeasuredRows       int
}

// Pick is a pair proposed for the next batch.
type Pick struct {
	CellLine, A, B    string // cell line, drug ids
	AName, BName      string
	Mu, SigmaEpi, UCB float64
}

// Summary is the cross-line summary of a checked directory and a batch:
// the Batch pairs not yet measured with the largest upper confidence bound
// mu + Beta·sigma_epistemic over all lines (ties: cell line, then ids).
type Summary struct {
	Lines []LineSummary
	Beta  float64
	Batch []Pick
}

// pickHeap is a min-heap of picks by their rank (worst first).
type pickHeap []Pick

func rankCmp(x, y Pick) int {
	if c := cmp.Compare(x.UCB, y.UCB); c != 0 {
		return c
	}
	// Lower cell line and ids rank higher: compare them reversed.
	if c := cmp.Compare(y.CellLine, x.CellLine); c != 0 {
		return c
	}
	if c := cmp.Compare(y.A, x.A); c != 0 {
		return c
	}
	return cmp.Compare(y.B, x.B)
}
func (h pickHeap) Len() int           { return len(h) }
func (h pickHeap) Less(i, j int) bool { return rankCmp(h[i], h[j]) < 0 }
func (h pickHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *pickHeap) Push(x any)        { *h = append(*h, x.(Pick)) }
func (h *pickHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// ErrIncomplete is a directory whose Check report has problems.
var ErrIncomplete = errors.New("not complete")

// Summarize reads every part of the report's directory (rep from Check,
// which must be OK, else ErrIncomplete) and summarizes it; the batch holds
// up to k pairs.
func Summarize(rep *Report, k int, beta float64) (*Summary, error) {
	if !rep.OK() {
		return nil, fmt.Errorf("%s: %w (%d problems)", rep.Dir, ErrIncomplete, len(rep.Problems))
	}
	s := &Summary{Beta: beta}
	h := &pickHeap{}
	for _, ln := range rep.Lines {
		ls := LineSummary{CellLine: ln.CellLine, MaxMu: math.Inf(-1)}
		var sumMu, sumSig float64
		for i := 0; i < ln.Parts; i++ {
			path := PartPath(rep.Dir, ln.CellLine, Shard{i, ln.Parts})
			err := eachRecord(path, func(rec arrow.Record) error {
				col := func(name string) arrow.Array {
					if ix := rec.Schema().FieldIndices(name); len(ix) == 1 {
						return rec.Column(ix[0])
					}
					return nil
				}
				a, aok := col("drug_a_id").(*array.String)
				b, bok := col("drug_b_id").(*array.String)
				an, anok := col("drug_a_name").(*array.String)
				bn, bnok := col("drug_b_name").(*array.String)
				mu, mok := col("mu").(*array.Float64)
				se, sok := col("sigma_epistemic").(*array.Float64)
				me, meok := col("measured").(*array.Boolean)
				if !aok || !bok || !anok || !bnok || !mok || !sok || !meok {
					return fmt.Errorf("want drug_a_id, drug_b_id, drug_a_name, drug_b_name (strings), mu, sigma_epistemic (float64) and measured (bool) columns")
				}
				for r := 0; r < int(rec.NumRows()); r++ {
					m, sg := mu.Value(r), se.Value(r)
					ls.Rows++
					sumMu += m
					sumSig += sg
					ls.MaxMu = max(ls.MaxMu, m)
					if me.Value(r) {
						ls.MeasuredRows++
						continue
					}
					if k <= 0 {
						continue
					}
					p := Pick{CellLine: ln.CellLine, A: a.Value(r), B: b.Value(r), Mu: m, SigmaEpi: sg, UCB: m + beta*sg}
					if h.Len() < k {
						p.AName, p.BName = an.Value(r), bn.Value(r)
						heap.Push(h, p)
					} else if rankCmp(p, (*h)[0]) > 0 {
						p.AName, p.BName = an.Value(r), bn.Value(r)
						(*h)[0] = p
						heap.Fix(h, 0)
					}
				}
				return nil
			})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
		if ls.Rows > 0 {
			ls.MeanMu, ls.MeanSigmaEpistemic = sumMu/float64(ls.Rows), sumSig/float64(ls.Rows)
		}
		s.Lines = append(s.Lines, ls)
	}
	s.Batch = slices.Clone(*h)
	slices.SortFunc(s.Batch, func(x, y Pick) int { return rankCmp(y, x) })
	return s, nil
}

// eachRecord reads the Parquet file at path with the guarded reader and
// calls fn on its records.
func eachRecord(path string, fn func(arrow.Record) error) error {
	fh, err := os.Open(filepath.Clean(path))
	if err != nil {
		return err
	}
	defer fh.Close()
	size, err := arrowguard.Size(fh)
	if err != nil {
		return err
	}
	tbl, err := arrowguard.ReadParquet(fh, size, nil)
	if err != nil {
		return err
	}
	defer tbl.Release()
	tr := array.NewTableReader(tbl, 1<<16)
	defer tr.Release()
	for tr.Next() {
		if err := fn(tr.Record()); err != nil {
			return err
		}
	}
	return tr.Err()
}

// summaryDigits: every float column of the summary files is written with 7
// significant digits.
const summaryDigits = 7

// LinesRecord is the per-line summary as a table: cell_line, rows, mean_mu,
// max_mu, mean_sigma_epistemic, measured_rows (one row per line). The
// caller releases it.
func (s *Summary) LinesRecord() arrow.Record {
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema([]arrow.Field{
		{Name: "cell_line", Type: arrow.BinaryTypes.String},
		{Name: "rows", Type: arrow.PrimitiveTypes.Int64},
		{Name: "mean_mu", Type: arrow.PrimitiveTypes.Float64},
		{Name: "max_mu", Type: arrow.PrimitiveTypes.Float64},
		{Name: "mean_sigma_epistemic", Type: arrow.PrimitiveTypes.Float64},
		{Name: "measured_rows", Type: arrow.PrimitiveTypes.Int64},
	}, nil))
	defer b.Release()
	for _, l := range s.Lines {
		b.Field(0).(*array.StringBuilder).Append(l.CellLine)
		b.Field(1).(*array.Int64Builder).Append(int64(l.Rows))
		b.Field(2).(*array.Float64Builder).Append(l.MeanMu)
		b.Field(3).(*array.Float64Builder).Append(l.MaxMu)
		b.Field(4).(*array.Float64Builder).Append(l.MeanSigmaEpistemic)
		b.Field(5).(*array.Int64Builder).Append(int64(l.MeasuredRows))
	}
	return b.NewRecord()
}

// BatchRecord is the suggested batch as a table: rank (from 1), cell_line,
// drug_a_id, drug_b_id, drug_a_name, drug_b_name, mu, sigma_epistemic, ucb.
// The caller releases it.
func (s *Summary) BatchRecord() arrow.Record {
	fields := []arrow.Field{{Name: "rank", Type: arrow.PrimitiveTypes.Int64}}
	for _, c := range []string{"cell_line", "drug_a_id", "drug_b_id", "drug_a_name", "drug_b_name"} {
		fields = append(fields, arrow.Field{Name: c, Type: arrow.BinaryTypes.String})
	}
	for _, c := range []string{"mu", "sigma_epistemic", "ucb"} {
		fields = append(fields, arrow.Field{Name: c, Type: arrow.PrimitiveTypes.Float64})
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer b.Release()
	for i, p := range s.Batch {
		b.Field(0).(*array.Int64Builder).Append(int64(i + 1))
		for k, v := range []string{p.CellLine, p.A, p.B, p.AName, p.BName} {
			b.Field(1 + k).(*array.StringBuilder).Append(v)
		}
		for k, v := range []float64{p.Mu, p.SigmaEpi, p.UCB} {
			b.Field(6 + k).(*array.Float64Builder).Append(v)
		}
	}
	return b.NewRecord()
}

// WriteCSV writes rec (LinesRecord, BatchRecord) to path as CSV through the
// project's one table writer (package tabular: atomic, floats with 7
// significant digits), whatever path's extension.
func WriteCSV(path string, rec arrow.Record) error {
	digits := map[string]int{}
	for _, f := range rec.Schema().Fields() {
		if f.Type.ID() == arrow.FLOAT64 {
			digits[f.Name] = summaryDigits
		}
	}
	f, err := tabular.CreateFormat(path, tabular.CSV, rec.Schema(), tabular.Options{Digits: digits})
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := f.Write(rec); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Commit()
}
