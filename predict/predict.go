// Package predict writes a trained model's predictions for drug pairs as a
// table (deup predict): which pairs (every unordered pair of the drugs, or
// the rows of a pairs file), on which of the model's cell lines, in which
// order and chunks, with which columns.
//
// Columns: drug_a_id, drug_b_id, drug_a_name, drug_b_name, cell_line and
// score (strings), mu, sigma_total, sigma_epistemic and sigma_aleatoric
// (float64; lower and upper after them with a calibration), measured (bool)
// and measured_mean (float64, null when not measured), then a pairs file's
// other columns (strings). A pairs file's cell_line column is not passed
// through: it names the one line its row is scored on (ReadPairs).
package predict

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/tabular"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/scores"
	"github.com/deup-screening/deup/uq"
)

// StringColumns are the leading string columns of a prediction table.
var StringColumns = []string{"drug_a_id", "drug_b_id", "drug_a_name", "drug_b_name", "cell_line", "score"}

// FloatColumns are the float columns of a prediction table; lower and upper
// only with an interval.
func FloatColumns(interval bool) []string {
	c := []string{"mu", "sigma_total", "sigma_epistemic", "sigma_aleatoric"}
	if interval {
		c = append(c, "lower", "upper")
	}
	return c
}

// IsColumn reports whether name is a column every prediction table has
// (with an interval), which a pairs file's extra column may not repeat.
func IsColumn(name string) bool {
	return slices.Contains(FloatColumns(true), name) || slices.Contains(StringColumns, name) || name == "measured" || name == "measured_mean"
}

// Schema is the prediction table's schema: the string columns, the float
// columns, measured and measured_mean, then the extra columns.
func Schema(interval bool, extra []string) *arrow.Schema {
	var fields []arrow.Field
	for _, c := range StringColumns {
		fields = append(fields, arrow.Field{Name: c, Type: arrow.BinaryTypes.String})
	}
	for _, c := range FloatColumns(interval) {
		fields = append(fields, arrow.Field{Name: c, Type: arrow.PrimitiveTypes.Float64})
	}
	fields = append(fields, arrow.Field{Name: "measured", Type: arrow.FixedWidthTypes.Boolean},
		arrow.Field{Name: "measured_mean", Type: arrow.PrimitiveTypes.Float64, Nullable: true})
	for _, c := range extra {
		fields = append(fields, arrow.Field{Name: c, Type: arrow.BinaryTypes.String})
	}
	return arrow.NewSchema(fields, nil)
}

// Drugs are the scored drugs by feature row: the rows kept of a drug list
// (features.BuildLenient's kept).
type Drugs struct {
	IDs, Names, SMILES []string
	CIDs               []int64        // PubChem CIDs (0: none)
	Row                map[string]int // feature row by drug id
}

// KeptDrugs returns the drugs of the feature rows kept (indices into drugs).
func KeptDrugs(drugs []drugcomb.Drug, kept []int) Drugs {
	d := Drugs{IDs: make([]string, len(kept)), Names: make([]string, len(kept)), SMILES: make([]string, len(kept)), CIDs: make([]int64, len(kept)), Row: make(map[string]int, len(kept))}
	for r, i := range kept {
		d.IDs[r], d.Names[r], d.SMILES[r], d.CIDs[r] = drugs[i].ID, drugs[i].OwnName(), drugs[i].SMILES, drugs[i].PubChemCID
		d.Row[drugs[i].ID] = r
	}
	return d
}

// LinesError is a spec of cell lines Lines refuses: a model of one cell
// line asked for another (Unknown ""), or a panel model asked for a line it
// does not know (Unknown, with its lines Known).
type LinesError struct {
	Spec    string
	Unknown string
	Known   []string
}

func (e *LinesError) Error() string {
	if e.Unknown == "" {
		return fmt.Sprintf("cell lines %s: the model was trained on one cell line", e.Spec)
	}
	return fmt.Sprintf("cell lines: the model knows no cell line %q (it has %s)", e.Unknown, strings.Join(e.Known, ", "))
}

// Lines returns the cell lines (indices of names, a model's cell-line
// embedding) to score each pair on, given spec: "" or "all" (every line) or
// A,B,… (each under drugcomb's selection rule, IndexName). A model of fewer than two lines (names) scores on
// line 0, and takes only "", "all" or its own line (one) as spec.
func Lines(names []string, one, spec string) ([]int, error) {
	if len(names) < 2 {
		if spec != "" && spec != "all" && !strings.EqualFold(spec, one) {
			return nil, &LinesError{Spec: spec, Known: names}
		}
		return []int{0}, nil
	}
	if spec == "" || spec == "all" {
		out := make([]int, len(names))
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	var out []int
	for _, n := range strings.Split(spec, ",") {
		n = strings.TrimSpace(n)
		i := drugcomb.IndexName(names, n)
		if i < 0 {
			return nil, &LinesError{Spec: spec, Unknown: n, Known: names}
		}
		out = append(out, i)
	}
	return out, nil
}

// Table is what the rows of a prediction table carry besides the
// prediction.
type Table struct {
	Drugs    Drugs
	Lines    []string // cell_line by model.PairRef.Line
	Score    string
	Measured []map[drugcomb.PairKey]float64 // by model.PairRef.Line; nil: nothing measured
	// ScreenIDs are, by feature row, the ids of the same drugs in the
	// screen Measured comes from (MatchScreen; "": not in it); nil: the
	// rows' own ids.
	ScreenIDs []string
	Cal       *uq.Calibrator // nil: no interval columns
	Coverage  float64
	Extra     []string // a pairs file's other columns
}

// Measured returns the measured means of score in sc on each of lines
// (drugcomb.Screen.MeasuredMeans), for Table.Measured.
func Measured(sc *drugcomb.Screen, lines []string, score string) []map[drugcomb.PairKey]float64 {
	out := make([]map[drugcomb.PairKey]float64, len(lines))
	for i, name := range lines {
		out[i] = sc.MeasuredMeans(name, score)
	}
	return out
}

// Writer writes prediction rows through the one table writer (CSV, Arrow
// IPC or Parquet), or into a hive part, under a temporary name until
// Commit.
type Writer struct {
	t       *Table
	file    *tabular.File
	part    *scores.Parts
	builder *array.RecordBuilder
	vals    []float64
}

// Create starts the prediction table at path, in the format of its
// extension; the float columns other than measured_mean are written to CSV
// with 7 significant digits.
func Create(path string, t *Table) (*Writer, error) {
	digits := map[string]int{}
	for _, c := range FloatColumns(t.Cal != nil) {
		digits[c] = 7 // measured_mean keeps every digit: it is a measurement
	}
	schema := Schema(t.Cal != nil, t.Extra)
	f, err := tabular.Create(path, schema, tabular.Options{Mem: memory.DefaultAllocator, Digits: digits})
	if err != nil {
		return nil, err
	}
	return &Writer{t: t, file: f, builder: array.NewRecordBuilder(memory.DefaultAllocator, schema)}, nil
}

// CreatePart starts the hive parts of the prediction table, one per cell
// line of lines (scores.CreateParts: id with each line's name); each row
// goes to its line's part.
func CreatePart(dir string, id scores.Identity, lines []string, t *Table) (*Writer, error) {
	schema := Schema(t.Cal != nil, t.Extra)
	p, err := scores.CreateParts(dir, id, lines, schema)
	if err != nil {
		return nil, err
	}
	return &Writer{t: t, part: p, builder: array.NewRecordBuilder(memory.DefaultAllocator, schema)}, nil
}

// Path is where the table will be once committed.
func (w *Writer) Path() string {
	if w.part != nil {
		return strings.Join(w.part.Paths(), ", ")
	}
	return w.file.Path()
}

// row returns the float columns of one prediction (with its interval when
// the table has a calibration).
func (w *Writer) row(p model.PairRef, pr model.Prediction) ([]float64, error) {
	w.vals = append(w.vals[:0], pr.Mu, pr.SigmaTotal, pr.SigmaEpistemic, pr.SigmaAleatoric)
	if w.t.Cal != nil {
		lo, hi, err := w.t.Cal.Interval(pr.Mu, pr.SigmaTotal, w.t.Coverage)
		if err != nil {
			return nil, fmt.Errorf("pair %s, %s: %w", w.t.Drugs.IDs[p.A], w.t.Drugs.IDs[p.B], err)
		}
		w.vals = append(w.vals, lo, hi)
	}
	return w.vals, nil
}

// Write writes pairs and their predictions; extra holds, per pair, the
// values of the extra columns (nil without extra columns).
func (w *Writer) Write(pairs []model.PairRef, pred []model.Prediction, extra [][]string) error {
	b, t := w.builder, w.t
	ns, nf := len(StringColumns), len(FloatColumns(t.Cal != nil))
	strs := make([]*array.StringBuilder, ns)
	for k := range strs {
		strs[k] = b.Field(k).(*array.StringBuilder)
	}
	cols := make([]*array.Float64Builder, nf)
	for k := range cols {
		cols[k] = b.Field(ns + k).(*array.Float64Builder)
		cols[k].Reserve(len(pairs))
	}
	mb := b.Field(ns + nf).(*array.BooleanBuilder)
	mm := b.Field(ns + nf + 1).(*array.Float64Builder)
	ids, names := t.Drugs.IDs, t.Drugs.Names
	for i, p := range pairs {
		vals, err := w.row(p, pred[i])
		if err != nil {
			return err
		}
		for k, s := range []string{ids[p.A], ids[p.B], names[p.A], names[p.B], t.Lines[p.Line], t.Score} {
			strs[k].Append(s)
		}
		for k, v := range vals {
			cols[k].UnsafeAppend(v)
		}
		var y float64
		ok := false
		if p.Line < len(t.Measured) {
			a, b := ids[p.A], ids[p.B]
			if t.ScreenIDs != nil {
				a, b = t.ScreenIDs[p.A], t.ScreenIDs[p.B]
			}
			if a != "" && b != "" {
				y, ok = t.Measured[p.Line][drugcomb.NewPairKey(a, b)]
			}
		}
		if ok {
			mb.Append(true)
			mm.Append(y)
		} else {
			mb.Append(false)
			mm.AppendNull()
		}
		for k := range t.Extra {
			b.Field(ns + nf + 2 + k).(*array.StringBuilder).Append(extra[i][k])
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	if w.part != nil {
		return w.part.Write(rec)
	}
	return w.file.Write(rec)
}

// Commit puts the complete table in place.
func (w *Writer) Commit() error {
	w.builder.Release()
	if w.part != nil {
		return w.part.Commit()
	}
	return w.file.Commit()
}

// Abort removes the partial table.
func (w *Writer) Abort() {
	w.builder.Release()
	if w.part != nil {
		w.part.Abort()
		return
	}
	w.file.Abort()
}

// Predictor is the part of a trained model that Run uses.
type Predictor interface {
	Predict(f *model.Features, pairs []model.PairRef) ([]model.Prediction, error)
}

// Job is what Run scores: rows [Lo, Hi) of every unordered pair of the
// feature rows in id order (Pairs nil: scores.Pairs over scores.SortedByID)
// or of Pairs' rows, each on every line of Lines, row-major (a hive
// output: line after line); a pairs file with its own lines
// (Pairs.OwnLines) has each row on its own line alone, and Lines are the
// lines of its rows.
type Job struct {
	Pairs  *Pairs // nil: all pairs
	Lo, Hi int
	Lines  []int
}

// Rows is the number of (pair, line) rows the job writes.
func (job Job) Rows() int {
	if job.Pairs != nil && job.Pairs.OwnLines {
		return job.Hi - job.Lo
	}
	return (job.Hi - job.Lo) * len(job.Lines)
}

// Total is the number of rows a job takes its shard [Lo, Hi) of: the pairs
// of n drugs, or the pairs file's rows.
func Total(p *Pairs, n int) int {
	if p != nil {
		return len(p.Pairs)
	}
	return scores.PairCount(n)
}

// Chunk is how many (pair, line) rows Run predicts and writes at once.
const Chunk = 1 << 16

// Run predicts job's rows with m on features f in chunks of Chunk rows
// (model.PredictPairs) and writes them to w, calling progress with the rows
// done after each chunk; it commits w when every row is written and aborts
// it on an error or when ctx ends. It returns the rows written.
func Run(ctx context.Context, m Predictor, f *model.Features, job Job, w *Writer, progress func(int)) (int, error) {
	var src []int // job.Pairs: the file row of each pair not yet written
	var ex [][]string
	done := 0
	emit := func(pairs []model.PairRef, pred []model.Prediction) error {
		var rowEx [][]string
		if job.Pairs != nil {
			ex = ex[:0]
			for _, k := range src {
				ex = append(ex, job.Pairs.Extra[k])
			}
			src = src[:0]
			rowEx = ex
		}
		if err := w.Write(pairs, pred, rowEx); err != nil {
			return err
		}
		done += len(pairs)
		progress(done)
		return nil
	}
	// A file holds each pair's lines together; hive parts get the lines
	// one after the other, so each line's part has its pairs in order in
	// long row groups.
	runs := [][]int{job.Lines}
	if w.part != nil {
		runs = nil
		for _, l := range job.Lines {
			runs = append(runs, []int{l})
		}
	}
	own := job.Pairs != nil && job.Pairs.OwnLines
	seq := func(yield func(model.PairRef) bool) {
		for _, lines := range runs {
			for p, row := range job.rows(f) {
				if own {
					// The row's own line, in the run of that line.
					if !slices.Contains(lines, p.Line) {
						continue
					}
					src = append(src, row)
					if !yield(p) {
						return
					}
					continue
				}
				for _, l := range lines {
					p.Line = l
					if job.Pairs != nil {
						src = append(src, row) // read by emit, which runs inside yield
					}
					if !yield(p) {
						return
					}
				}
			}
		}
	}
	err := model.PredictPairs(ctx, m.Predict, f, seq, Chunk, emit)
	if err == nil {
		err = ctx.Err() // cancelled during the last chunk: no file either
	}
	if err != nil {
		w.Abort()
		return done, err
	}
	return done, w.Commit()
}

// rows yields the job's pairs (Line unset, but for a pairs file with its
// own lines), each with its pairs-file row.
func (job Job) rows(f *model.Features) iter.Seq2[model.PairRef, int] {
	return func(yield func(model.PairRef, int) bool) {
		if job.Pairs != nil {
			for k, p := range job.Pairs.Pairs[job.Lo:job.Hi] {
				if !yield(p, job.Lo+k) {
					return
				}
			}
			return
		}
		order := scores.SortedByID(f.IDs)
		for a, b := range scores.Pairs(f.NumDrugs(), job.Lo, job.Hi) {
			if !yield(model.PairRef{A: order[a], B: order[b]}, 0) {
				return
			}
		}
	}
}
