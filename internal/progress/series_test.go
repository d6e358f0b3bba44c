package progress

import (
	"bytes"
	"strings"
	"testing"
)

// TestSeries: each stage gets its own bar, ended at the units it reached
// (3 of 10: the bar ends "100% 3/3"), and Finish without a bar draws
// nothing.
func TestSeries(t *testing.T) {
	tests := []struct {
		name     string
		stages   [][2]int // total, units done
		wantEnds []string
	}{
		{name: "none", wantEnds: nil},
		{name: "one full", stages: [][2]int{{4, 4}}, wantEnds: []string{"a0 [", "100% 4/4"}},
		{name: "early stop then full", stages: [][2]int{{10, 3}, {2, 2}}, wantEnds: []string{"a0 [", "100% 3/3", "a1 [", "100% 2/2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			s := NewSeries(&buf)
			s.Finish()
			for i, st := range tc.stages {
				s.Next("a"+string(rune('0'+i)), st[0])
				if !s.Active() {
					t.Fatal("no bar after Next")
				}
				for d := 1; d <= st[1]; d++ {
					s.Set(d)
				}
			}
			s.Finish()
			if s.Active() {
				t.Error("a bar after Finish")
			}
			out := buf.String()
			if len(tc.wantEnds) == 0 && out != "" {
				t.Errorf("drew %q", out)
			}
			// The last line of each bar starts with its label and ends at 100 %.
			var lasts []string
			for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
				if strings.Contains(l, "100%") {
					lasts = append(lasts, l)
				}
			}
			for i := 0; i+1 < len(tc.wantEnds); i += 2 {
				l := lasts[i/2]
				if !strings.HasPrefix(l, tc.wantEnds[i]) || !strings.Contains(l, tc.wantEnds[i+1]) {
					t.Errorf("bar %d ends %q, want %q ... %q", i/2, l, tc.wantEnds[i], tc.wantEnds[i+1])
				}
			}
			if len(lasts) != len(tc.wantEnds)/2 {
				t.Errorf("%d finished bars, want %d:\n%s", len(lasts), len(tc.wantEnds)/2, out)
			}
		})
	}
}
