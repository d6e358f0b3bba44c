package progress

import (
	"bytes"
	"strings"
	"testing"
)

// TestNetworks checks that a bar starts per ensemble member and that each
// ends at the last epoch recorded (the non-terminal writer prints the
// final line of each bar with its total).
func TestNetworks(t *testing.T) {
	tests := []struct {
		name    string
		members int
		epochs  []int // epochs run by each member, of at most 10
		want    []string
	}{
		{"one network stopped early", 1, []int{4}, []string{"train [", "4/4"}},
		{"two members", 2, []int{3, 5}, []string{"train member 1/2 [", "3/3", "train member 2/2 [", "5/5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			n := NewNetworks(&buf, MemberLabel("train"))
			for m, e := range tc.epochs {
				for epoch := 1; epoch <= e; epoch++ {
					n.Epoch(m, tc.members, epoch, 10, "detail")
				}
			}
			n.Finish()
			n.Finish() // a second Finish draws nothing more
			out := buf.String()
			pos := 0
			for _, w := range tc.want {
				i := strings.Index(out[pos:], w)
				if i < 0 {
					t.Fatalf("%q not found in order in\n%s", w, out)
				}
				pos += i + len(w)
			}
			if got := strings.Count(out, "100%"); got != len(tc.epochs) {
				t.Errorf("%d bars ended at 100%%, want %d:\n%s", got, len(tc.epochs), out)
			}
		})
	}
}

// The labels of a training run's bars (MemberLabel) and of a series of
// trainings (NetworkLabel): an ensemble's members alike in both.
func TestLabels(t *testing.T) {
	for _, c := range []struct {
		label                    func(network, member, members int) string
		network, member, members int
		want                     string
	}{
		{MemberLabel("train deup"), 1, 0, 1, "train deup"},
		{MemberLabel("train ensemble"), 2, 1, 3, "train ensemble member 2/3"},
		{NetworkLabel("round 4"), 3, 0, 1, "round 4 network 3"},
		{NetworkLabel("round 4"), 1, 2, 3, "round 4 member 3/3"},
	} {
		if got := c.label(c.network, c.member, c.members); got != c.want {
			t.Errorf("label(%d, %d, %d) = %q, want %q", c.network, c.member, c.members, got, c.want)
		}
	}
}
