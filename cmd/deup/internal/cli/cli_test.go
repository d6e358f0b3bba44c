package cli

import (
	"strings"
	"testing"

	"github.com/deup-screening/deup/methods"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
)

func TestVersion(t *testing.T) {
	out, serr, code := run(t, "--version")
	if code != 0 || serr != "" || !strings.HasPrefix(out, "deup ") || !strings.Contains(out, "commit ") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, serr)
	}

}

// TestEveryHelpEndsWithNext: the help of every command (issue 30) ends with
// a "Next:" paragraph after its flag list, and a "Flags:" heading is never
// left empty (a command without flags has none).
func TestEveryHelpEndsWithNext(t *testing.T) {
	var walk func(path []string, cs []*cmdline.Command)
	n := 0
	walk = func(path []string, cs []*cmdline.Command) {
		for _, c := range cs {
			p := append(append([]string(nil), path...), c.Name)
			if len(c.Subs) > 0 {
				walk(p, c.Subs)
				continue
			}
			n++
			out, _, code := run(t, append(p, "-h")...)
			name := strings.Join(p, " ")
			if code != 0 {
				t.Errorf("deup %s -h: exit %d", name, code)
				continue
			}
			paras := strings.Split(strings.TrimSpace(out), "\n\n")
			if last := paras[len(paras)-1]; !strings.HasPrefix(last, "Next:") {
				t.Errorf("deup %s -h ends with %q, want a Next: paragraph", name, last)
			}
			if i := strings.Index(out, "\nFlags:\n"); i >= 0 && !strings.HasPrefix(out[i+len("\nFlags:\n"):], "  -") {
				t.Errorf("deup %s -h has an empty Flags: section", name)
			}
		}
	}
	walk(nil, commands(methods.Default()))
	if n < 15 {
		t.Errorf("checked %d commands; want every leaf command", n)
	}
}
