package ledger

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/deup-screening/deup/internal/arrowguard"
	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/tabular"
)

// Version is the ledger format version written in every event. Version 2
// renamed the row-number columns drug_a, drug_b, cell_line (positions in
// the campaign's drug and cell-line lists) to drug_a_row, drug_b_row,
// cell_line_row, so that drug_a... and cell_line mean one thing in every
// file (docs/vocabulary.md); events of version 1 still read, and a ledger
// may hold both.
const Version = "2"

// ErrLocked is returned by Open when another process holds the ledger.
var ErrLocked = errors.New("ledger: in use by another process")

// Kind is the kind of an event. The package does not interpret kinds beyond
// requiring a lower-case word; the campaign defines their meaning.
type Kind string

// Record is one pair in an event.
type Record struct {
	A, B, CellLine int
	Candidate      bool    // in an init event: a candidate, not a measured pair
	Y              float64 // measured score; NaN if none
	Mu             float64 // predicted mean; NaN if none
	SigmaTotal     float64
	SigmaEpistemic float64
	SigmaAleatoric float64
	Score          float64 // acquisition score; NaN if none
	Rank           int     // 1-based rank in the batch; 0 if none
	Reason         string
	Phi            []float64 // stationarizing features; nil if none
}

// Event is one durable entry of the ledger.
type Event struct {
	Seq          int // assigned by Append: 1, 2, ...
	Kind         Kind
	Round        int
	ModelVersion string
	Extra        string // free text, e.g. a JSON document
	Records      []Record
}

// Ledger is an open ledger directory holding its lock.
type Ledger struct {
	dir    string
	lock   *os.File
	events []Event
	mem    memory.Allocator
}

var nameRE = regexp.MustCompile(`^([0-9]{8})-([a-z][a-z0-9_]*)\.arrow$`)
var kindRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// Open opens (creating it if needed) the ledger in dir, takes its lock,
// removes temporary files left by a crash, and reads every event.
func Open(dir string) (*Ledger, error) { return OpenAllocator(dir, memory.DefaultAllocator) }

// OpenAllocator is Open with an explicit Arrow allocator (tests use a checked one).
func OpenAllocator(dir string, mem memory.Allocator) (*Ledger, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	l := &Ledger{dir: dir, lock: lock, mem: mem}
	if err := l.load(); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// Close releases the lock. The events stay valid.
func (l *Ledger) Close() error {
	if l.lock == nil {
		return nil
	}
	err := unlockDir(l.lock)
	l.lock = nil
	return err
}

// Dir is the ledger directory.
func (l *Ledger) Dir() string { return l.dir }

// Events returns the events in sequence order. The slice is owned by the
// ledger and valid until the next Append; do not modify it.
func (l *Ledger) Events() []Event { return l.events }

func (l *Ledger) load() error {
	ents, err := os.ReadDir(l.dir)
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	type file struct {
		seq  int
		kind Kind
		name string
	}
	var files []file
	for _, e := range ents {
		name := e.Name()
		switch {
		case name == lockName:
			continue
		case strings.HasPrefix(name, ".tmp-"):
			// A write that never completed: it was never part of the ledger.
			if err := os.Remove(filepath.Join(l.dir, name)); err != nil {
				return fmt.Errorf("ledger: removing leftover %s: %w", name, err)
			}
			continue
		}
		m := nameRE.FindStringSubmatch(name)
		if m == nil {
			return fmt.Errorf("ledger: %s: unexpected file %q (want NNNNNNNN-kind.arrow)", l.dir, name)
		}
		seq, _ := strconv.Atoi(m[1])
		files = append(files, file{seq, Kind(m[2]), name})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].seq < files[j].seq })
	for i, f := range files {
		if f.seq != i+1 {
			return fmt.Errorf("ledger: %s: event %d missing (found %s)", l.dir, i+1, f.name)
		}
		ev, err := readEvent(filepath.Join(l.dir, f.name), l.mem)
		if err != nil {
			return err
		}
		if ev.Seq != f.seq || ev.Kind != f.kind {
			return fmt.Errorf("ledger: %s: header says event %d of kind %q", f.name, ev.Seq, ev.Kind)
		}
		l.events = append(l.events, ev)
	}
	return nil
}

// Append writes e durably as the next event and sets e.Seq. On error the
// ledger is unchanged (a temporary file may remain until the next Open).
func (l *Ledger) Append(e *Event) error {
	if l.lock == nil {
		return errors.New("ledger: append on a closed ledger")
	}
	if !kindRE.MatchString(string(e.Kind)) {
		return fmt.Errorf("ledger: invalid event kind %q", e.Kind)
	}
	seq := len(l.events) + 1
	final := filepath.Join(l.dir, fmt.Sprintf("%08d-%s.arrow", seq, e.Kind))
	tmp, err := os.CreateTemp(l.dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	if err := tmp.Chmod(0o644); err != nil { // CreateTemp makes 0600; the ledger holds no secret
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("ledger: %w", err)
	}
	tmpName := tmp.Name()
	e.Seq = seq
	crash := crashPoint(seq)
	err = writeEvent(tmp, *e, l.mem)
	crash("before-sync")
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	crash("before-link")
	if err == nil {
		err = os.Link(tmpName, final)
	}
	crash("after-link")
	os.Remove(tmpName)
	if err == nil {
		err = atomicfile.SyncDir(l.dir)
	}
	crash("after-sync")
	if err != nil {
		e.Seq = 0
		return fmt.Errorf("ledger: appending event %d: %w", seq, err)
	}
	ev := *e
	ev.Records = append([]Record(nil), e.Records...)
	l.events = append(l.events, ev)
	return nil
}

// CrashEnv names the environment variable of the crash test hook: when it
// holds "SEQ:STAGE", the process kills itself with SIGKILL while appending
// event SEQ, at STAGE: before-sync (event written to the temporary file,
// not synced), before-link (synced, not yet under its name), after-link
// (under its name, temporary name not removed, directory not synced) or
// after-sync (complete). Tests use it to kill a campaign at exact points.
const CrashEnv = "DEUP_LEDGER_CRASH"

func crashPoint(seq int) func(stage string) {
	want := os.Getenv(CrashEnv)
	if want == "" {
		return func(string) {}
	}
	return func(stage string) {
		if want == strconv.Itoa(seq)+":"+stage {
			killSelf()
		}
	}
}

// Schema is the Arrow schema of every event file (without its metadata).
var Schema = arrow.NewSchema(schemaFields("drug_a_row", "drug_b_row", "cell_line_row"), nil)

// schemaV1 is the schema of version 1 events.
var schemaV1 = arrow.NewSchema(schemaFields("drug_a", "drug_b", "cell_line"), nil)

// schemaFields are the event columns, with the row-number columns named a,
// b, c.
func schemaFields(a, b, c string) []arrow.Field {
	return []arrow.Field{
		{Name: a, Type: arrow.PrimitiveTypes.Int32},
		{Name: b, Type: arrow.PrimitiveTypes.Int32},
		{Name: c, Type: arrow.PrimitiveTypes.Int32},
		{Name: "candidate", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "y", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "mu", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "sigma_total", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "sigma_epistemic", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "sigma_aleatoric", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "rank", Type: arrow.PrimitiveTypes.Int32},
		{Name: "reason", Type: arrow.BinaryTypes.String},
		{Name: "phi", Type: arrow.ListOf(arrow.PrimitiveTypes.Float64), Nullable: true},
	}
}

func writeEvent(f *os.File, e Event, mem memory.Allocator) error {
	return writeEventAs(f, e, mem, Schema, Version)
}

// writeEventAs writes e with the given schema and version (tests write
// version 1 events with it).
func writeEventAs(f *os.File, e Event, mem memory.Allocator, s *arrow.Schema, version string) error {
	md := arrow.NewMetadata(
		[]string{"ledger_version", "seq", "kind", "round", "model_version", "extra"},
		[]string{version, strconv.Itoa(e.Seq), string(e.Kind), strconv.Itoa(e.Round), e.ModelVersion, e.Extra},
	)
	schema := arrow.NewSchema(s.Fields(), &md)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	i32 := func(i int) *array.Int32Builder { return b.Field(i).(*array.Int32Builder) }
	f64 := func(i int, v float64) {
		fb := b.Field(i).(*array.Float64Builder)
		if math.IsNaN(v) {
			fb.AppendNull()
		} else {
			fb.Append(v)
		}
	}
	lb := b.Field(12).(*array.ListBuilder)
	vb := lb.ValueBuilder().(*array.Float64Builder)
	for _, r := range e.Records {
		for _, v := range []int{r.A, r.B, r.CellLine, r.Rank} {
			if v < math.MinInt32 || v > math.MaxInt32 {
				return fmt.Errorf("index %d out of int32 range", v)
			}
		}
		i32(0).Append(int32(r.A))
		i32(1).Append(int32(r.B))
		i32(2).Append(int32(r.CellLine))
		b.Field(3).(*array.BooleanBuilder).Append(r.Candidate)
		f64(4, r.Y)
		f64(5, r.Mu)
		f64(6, r.SigmaTotal)
		f64(7, r.SigmaEpistemic)
		f64(8, r.SigmaAleatoric)
		f64(9, r.Score)
		i32(10).Append(int32(r.Rank))
		b.Field(11).(*array.StringBuilder).Append(r.Reason)
		if r.Phi == nil {
			lb.AppendNull()
		} else {
			lb.Append(true)
			vb.AppendValues(r.Phi, nil)
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	return tabular.Encode(f, tabular.Arrow, rec, tabular.Options{Mem: mem})
}

func readEvent(path string, mem memory.Allocator) (ev Event, err error) {
	name := filepath.Base(path)
	defer func() {
		// The Arrow IPC reader may panic on a damaged file; a ledger
		// file is input, and input never panics.
		if r := recover(); r != nil {
			err = fmt.Errorf("ledger: %s: damaged event file: %v", name, r)
		}
	}()
	f, err := os.Open(path)
	if err != nil {
		return Event{}, fmt.Errorf("ledger: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Event{}, fmt.Errorf("ledger: %w", err)
	}
	// Checked, and its memory bounded, by arrowguard.
	tbl, err := arrowguard.ReadIPC(f, st.Size(), mem)
	if err != nil {
		return Event{}, fmt.Errorf("ledger: %s: %w", name, err)
	}
	defer tbl.Release()
	md := tbl.Schema().Metadata()
	get := func(k string) string {
		if i := md.FindKey(k); i >= 0 {
			return md.Values()[i]
		}
		return ""
	}
	want := Schema
	switch v := get("ledger_version"); v {
	case Version:
	case "1":
		want = schemaV1
	default:
		return Event{}, fmt.Errorf("ledger: %s: format version %q, this program reads versions 1 to %s (a newer deup wrote it?)", name, v, Version)
	}
	if !tbl.Schema().Equal(want) {
		return Event{}, fmt.Errorf("ledger: %s: unexpected schema %v", name, tbl.Schema())
	}
	ev.Kind = Kind(get("kind"))
	ev.ModelVersion = get("model_version")
	ev.Extra = get("extra")
	if ev.Seq, err = strconv.Atoi(get("seq")); err != nil {
		return Event{}, fmt.Errorf("ledger: %s: bad seq: %w", name, err)
	}
	if ev.Round, err = strconv.Atoi(get("round")); err != nil {
		return Event{}, fmt.Errorf("ledger: %s: bad round: %w", name, err)
	}
	tr := array.NewTableReader(tbl, 0)
	defer tr.Release()
	for tr.Next() {
		recs, err := decode(tr.Record())
		if err != nil {
			return Event{}, fmt.Errorf("ledger: %s: %w", name, err)
		}
		ev.Records = append(ev.Records, recs...)
	}
	return ev, nil
}

func decode(rec arrow.Record) ([]Record, error) {
	n := int(rec.NumRows())
	out := make([]Record, n)
	i32 := func(c int) *array.Int32 { return rec.Column(c).(*array.Int32) }
	f64 := func(c, i int) float64 {
		a := rec.Column(c).(*array.Float64)
		if a.IsNull(i) {
			return math.NaN()
		}
		return a.Value(i)
	}
	phi := rec.Column(12).(*array.List)
	vals := phi.ListValues().(*array.Float64)
	for i := range out {
		r := &out[i]
		r.A = int(i32(0).Value(i))
		r.B = int(i32(1).Value(i))
		r.CellLine = int(i32(2).Value(i))
		r.Candidate = rec.Column(3).(*array.Boolean).Value(i)
		r.Y = f64(4, i)
		r.Mu = f64(5, i)
		r.SigmaTotal = f64(6, i)
		r.SigmaEpistemic = f64(7, i)
		r.SigmaAleatoric = f64(8, i)
		r.Score = f64(9, i)
		r.Rank = int(i32(10).Value(i))
		r.Reason = rec.Column(11).(*array.String).Value(i)
		if !phi.IsNull(i) {
			s, e := phi.ValueOffsets(i)
			if s < 0 || s > e || e > int64(vals.Len()) {
				return nil, fmt.Errorf("row %d: phi offsets %d..%d outside the %d values", i, s, e, vals.Len())
			}
			r.Phi = make([]float64, e-s)
			for j := s; j < e; j++ {
				r.Phi[j-s] = vals.Value(int(j))
			}
		}
	}
	return out, nil
}
