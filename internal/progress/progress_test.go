package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// fakeClock advances by step on every call.
func fakeClock(step time.Duration) func() time.Time {
	t := time.Unix(0, 0)
	return func() time.Time { t = t.Add(step); return t }
}

func TestBarNonTerminal(t *testing.T) {
	tests := []struct {
		name      string
		total     int
		steps     int
		wantLines int // one line per 10 % step crossed (0 %..100 %), the final one included
		wantLast  string
	}{
		{name: "hundred steps", total: 100, steps: 100, wantLines: 11, wantLast: "100% 100/100"},
		{name: "three steps", total: 3, steps: 3, wantLines: 4, wantLast: "100% 3/3"},
		{name: "finish early fills the bar", total: 10, steps: 5, wantLines: 7, wantLast: "100% 10/10"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			b := New(&buf, "train", tc.total)
			b.now = fakeClock(time.Second)
			b.start = time.Unix(0, 0)
			b.Set(0)
			for i := 0; i < tc.steps; i++ {
				b.Add(1)
			}
			b.Finish()
			lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
			if len(lines) != tc.wantLines {
				t.Fatalf("got %d lines, want %d:\n%s", len(lines), tc.wantLines, buf.String())
			}
			last := lines[len(lines)-1]
			if !strings.HasPrefix(last, "train [") || !strings.Contains(last, tc.wantLast) {
				t.Errorf("last line %q, want prefix %q and %q", last, "train [", tc.wantLast)
			}
		})
	}
}

func TestBarDetailAndETA(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, "bench", 4)
	b.now = fakeClock(time.Second)
	b.start = time.Unix(0, 0)
	b.Set(1, "epoch 3", "loss 0.5")
	got := strings.TrimSpace(buf.String())
	// One unit done after 1 s (the clock ticks once in Set): 3 units left at 1 s each.
	want := "bench [======                  ]  25% 1/4 eta 3s 1s epoch 3 loss 0.5"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestBarUnknownTotal(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, "fetch", 0)
	b.now = fakeClock(time.Second)
	b.start = time.Unix(0, 0)
	b.Set(42)
	if d := b.Finish(); d != 2*time.Second {
		t.Errorf("elapsed %v, want 2s", d)
	}
	if !strings.Contains(buf.String(), "fetch 42 1s") {
		t.Errorf("output %q lacks the count", buf.String())
	}
}

// A nil Bar (a bar never started) finishes without drawing.
func TestNilBarFinish(t *testing.T) {
	var b *Bar
	if d := b.Finish(); d != 0 {
		t.Errorf("nil Finish = %v, want 0", d)
	}
}

// A Lazy bar never called draws nothing; once called it draws label, count
// and unit.
func TestLazy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		calls []int
		want  string // substring of the output; "" means no output at all
	}{
		{"never called", nil, ""},
		{"called", []int{5, 42}, "import 42"},
	} {
		var buf bytes.Buffer
		set, finish := Lazy(&buf, "import", "rows")
		for _, n := range tc.calls {
			set(n)
		}
		finish()
		got := buf.String()
		if tc.want == "" && got != "" || tc.want != "" && (!strings.Contains(got, tc.want) || !strings.Contains(got, "rows")) {
			t.Errorf("%s: output %q, want %q", tc.name, got, tc.want)
		}
	}
}
