package ledger

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

var nan = math.NaN()

func sampleEvents() []Event {
	return []Event{
		{Kind: "init", Round: 0, Extra: `{"batch":2}`, Records: []Record{
			{A: 0, B: 1, Y: 12.5, Mu: nan, SigmaTotal: nan, SigmaEpistemic: nan, SigmaAleatoric: nan, Score: nan},
			{A: 1, B: 2, CellLine: 3, Candidate: true, Y: nan, Mu: nan, SigmaTotal: nan, SigmaEpistemic: nan, SigmaAleatoric: nan, Score: nan},
		}},
		{Kind: "suggest", Round: 1, ModelVersion: "bayes-ridge/r1/abc", Records: []Record{
			{A: 1, B: 2, CellLine: 3, Y: nan, Mu: 4, SigmaTotal: 5, SigmaEpistemic: 3, SigmaAleatoric: 4, Score: 10, Rank: 1, Reason: "ucb 10 = mu 4 + 2*sigma 3", Phi: []float64{-1.5, 0.25, 0}},
			{A: 0, B: 2, Y: nan, Mu: -2, SigmaTotal: 1, SigmaEpistemic: 0, SigmaAleatoric: 1, Score: -2, Rank: 2, Reason: "ünïcode, commas", Phi: []float64{}},
		}},
		{Kind: "measure", Round: 1, Records: []Record{
			{A: 1, B: 2, CellLine: 3, Y: -7, Mu: nan, SigmaTotal: nan, SigmaEpistemic: nan, SigmaAleatoric: nan, Score: nan},
		}},
		{Kind: "empty", Round: 2},
	}
}

// same compares events treating NaN as equal to NaN.
func same(a, b []Event) bool {
	norm := func(es []Event) []Event {
		out := make([]Event, len(es))
		for i, e := range es {
			e.Records = append([]Record(nil), e.Records...)
			for j := range e.Records {
				r := &e.Records[j]
				for _, p := range []*float64{&r.Y, &r.Mu, &r.SigmaTotal, &r.SigmaEpistemic, &r.SigmaAleatoric, &r.Score} {
					if math.IsNaN(*p) {
						*p = -12345.678
					}
				}
			}
			if len(e.Records) == 0 {
				e.Records = nil
			}
			out[i] = e
		}
		return out
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

func TestAppendReopen(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	l, err := OpenAllocator(dir, mem)
	if err != nil {
		t.Fatal(err)
	}
	want := sampleEvents()
	for i := range want {
		if err := l.Append(&want[i]); err != nil {
			t.Fatal(err)
		}
		if want[i].Seq != i+1 {
			t.Fatalf("event %d got seq %d", i, want[i].Seq)
		}
	}
	if !same(l.Events(), want) {
		t.Errorf("in-memory events differ:\n got %+v\nwant %+v", l.Events(), want)
	}
	l.Close()
	l2, err := OpenAllocator(dir, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if !same(l2.Events(), want) {
		t.Errorf("reopened events differ:\n got %+v\nwant %+v", l2.Events(), want)
	}
	if got := l2.Events()[1].Records[1].Phi; got == nil || len(got) != 0 {
		t.Errorf("empty phi read back as %#v, want empty non-nil", got)
	}
	if got := l2.Events()[0].Records[0].Phi; got != nil {
		t.Errorf("nil phi read back as %#v", got)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.arrow"))
	wantNames := []string{"00000001-init.arrow", "00000002-suggest.arrow", "00000003-measure.arrow", "00000004-empty.arrow"}
	for i := range names {
		names[i] = filepath.Base(names[i])
	}
	if !reflect.DeepEqual(names, wantNames) {
		t.Errorf("files %v, want %v", names, wantNames)
	}
}

func TestOpenErrors(t *testing.T) {
	write := func(t *testing.T) string {
		dir := t.TempDir()
		l, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		evs := sampleEvents()
		for i := range evs {
			if err := l.Append(&evs[i]); err != nil {
				t.Fatal(err)
			}
		}
		l.Close()
		return dir
	}
	cases := []struct {
		name    string
		damage  func(dir string) error
		wantErr string
	}{
		{"gap", func(d string) error { return os.Remove(filepath.Join(d, "00000002-suggest.arrow")) }, "event 2 missing"},
		{"stray file", func(d string) error { return os.WriteFile(filepath.Join(d, "notes.txt"), nil, 0o644) }, "unexpected file"},
		{"truncated", func(d string) error { return os.Truncate(filepath.Join(d, "00000003-measure.arrow"), 40) }, "00000003-measure.arrow"},
		{"renamed kind", func(d string) error {
			return os.Rename(filepath.Join(d, "00000004-empty.arrow"), filepath.Join(d, "00000004-other.arrow"))
		}, "header says"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := write(t)
			if err := c.damage(dir); err != nil {
				t.Fatal(err)
			}
			_, err := Open(dir)
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("Open: err = %v, want one containing %q", err, c.wantErr)
			}
		})
	}
}

func TestLeftoverTempRemoved(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ev := sampleEvents()[0]
	if err := l.Append(&ev); err != nil {
		t.Fatal(err)
	}
	l.Close()
	// What a kill between CreateTemp and link leaves behind.
	tmp := filepath.Join(dir, ".tmp-123456")
	if err := os.WriteFile(tmp, []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if len(l.Events()) != 1 {
		t.Errorf("%d events, want 1", len(l.Events()))
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("leftover temp file still there: %v", err)
	}
}

func TestLocked(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); !errors.Is(err, ErrLocked) {
		t.Errorf("second Open: err = %v, want ErrLocked", err)
	}
	l.Close()
	l2, err := Open(dir)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	l2.Close()
	ev := Event{Kind: "x"}
	if err := l2.Append(&ev); err == nil {
		t.Error("Append on a closed ledger: want an error")
	}
}

// TestCloseRemovesLock: a closed ledger leaves no LOCK file (issue 43: a
// stopped campaign step left one); a LOCK left by a killed process (no
// holder) does not keep the next Open out; while a ledger is open, a
// second Open is refused even after the first removed and re-created the
// file.
func TestCloseRemovesLock(t *testing.T) {
	dir := t.TempDir()
	lock := filepath.Join(dir, lockName)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lock); err != nil {
		t.Fatalf("open ledger: %v, want a LOCK file", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Fatalf("after Close: stat LOCK = %v, want no file", err)
	}
	if err := os.WriteFile(lock, nil, 0o644); err != nil { // left by a SIGKILL
		t.Fatal(err)
	}
	l, err = Open(dir)
	if err != nil {
		t.Fatalf("Open over a stale LOCK: %v", err)
	}
	if _, err := Open(dir); !errors.Is(err, ErrLocked) {
		t.Errorf("second Open: err = %v, want ErrLocked", err)
	}
	l.Close()
	for i := 0; i < 3; i++ {
		l, err := Open(dir)
		if err != nil {
			t.Fatalf("Open %d: %v", i, err)
		}
		if _, err := Open(dir); !errors.Is(err, ErrLocked) {
			t.Errorf("Open %d: second Open: err = %v, want ErrLocked", i, err)
		}
		l.Close()
	}
}

func TestBadKind(t *testing.T) {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, k := range []Kind{"", "Init", "a-b", "../x", "9x"} {
		ev := Event{Kind: k}
		if err := l.Append(&ev); err == nil {
			t.Errorf("kind %q: want an error", k)
		}
	}
	if len(l.Events()) != 0 {
		t.Errorf("failed appends left %d events", len(l.Events()))
	}
}

// FuzzReadEvent checks that a damaged event file is an error, never a panic.
func FuzzReadEvent(f *testing.F) {
	dir := f.TempDir()
	l, err := Open(dir)
	if err != nil {
		f.Fatal(err)
	}
	evs := sampleEvents()
	for i := range evs {
		if err := l.Append(&evs[i]); err != nil {
			f.Fatal(err)
		}
	}
	l.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "*.arrow"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "00000001-init.arrow")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		readEvent(p, memory.NewGoAllocator())
	})
}

// BenchmarkAppend appends a 30-suggestion event durably (write, fsync,
// link, directory fsync).
func BenchmarkAppend(b *testing.B) {
	l, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	ev := sampleEvents()[1]
	for len(ev.Records) < 30 {
		ev.Records = append(ev.Records, ev.Records[0])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e := ev
		if err := l.Append(&e); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadVersion1: a ledger whose first events were written by version 1
// (row numbers named drug_a, drug_b, cell_line) opens with them, and new
// events appended to it are version 2; an unknown version is refused.
func TestReadVersion1(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	evs := sampleEvents()
	for i := range evs[:2] {
		evs[i].Seq = i + 1
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%08d-%s.arrow", i+1, evs[i].Kind)))
		if err != nil {
			t.Fatal(err)
		}
		if err := writeEventAs(f, evs[i], mem, schemaV1, "1"); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	l, err := OpenAllocator(dir, mem)
	if err != nil {
		t.Fatal(err)
	}
	for i := range evs[2:] {
		if err := l.Append(&evs[2+i]); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	l, err = OpenAllocator(dir, mem)
	if err != nil {
		t.Fatal(err)
	}
	got := l.Events()
	l.Close()
	if !same(got, evs) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, evs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "00000003-measure.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "drug_a_row") {
		t.Error("an event appended to a version 1 ledger does not use version 2's column names")
	}
}
