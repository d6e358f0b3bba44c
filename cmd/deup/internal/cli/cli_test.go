package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	out, serr, code := run(t, "--version")
	if code != 0 || serr != "" || !strings.HasPrefix(out, "deup ") || !strings.Contains(out, "commit ") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, serr)
	}
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		ok   bool
		st   Stamp
		want string
	}{
		{"no build info", nil, false, Stamp{}, "deup (no build information)"},
		{"release with commit", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/deup-screening/deup", Version: "v0.3.0"},
			Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "ce2cee8f"}, {Key: "vcs.time", Value: "2026-11-24T18:00:00Z"}, {Key: "vcs.modified", Value: "false"}}},
			true, Stamp{Version: "v9", Commit: "ffff"}, "deup v0.3.0 commit ce2cee8f (2026-11-24T18:00:00Z), go1.26.8"},
		{"checkout with changes", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}},
			true, Stamp{}, "deup (devel) commit abc with local changes, go1.26.8"},
		{"built without VCS stamping", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, Stamp{}, "deup (devel) commit unknown"},
		// go build -buildvcs=false -ldflags "-X main.version=v0.4.0 -X main.commit=354b88a" (README, packagers)
		{"stamped with -ldflags -X", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, true,
			Stamp{Version: "v0.4.0", Commit: "354b88a"}, "deup v0.4.0 commit 354b88a, go1.26.8"},
		{"stamped, no build info", nil, false, Stamp{Version: "v0.4.0", Commit: "354b88a"}, "deup v0.4.0 commit 354b88a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := versionLine(tc.bi, tc.ok, tc.st); got != tc.want {
				t.Errorf("versionLine = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestEveryHelpEndsWithNext: the help of every command (issue 30) ends with
// a "Next:" paragraph after its flag list, and a "Flags:" heading is never
// left empty (a command without flags has none).
func TestEveryHelpEndsWithNext(t *testing.T) {
	var walk func(path []string, cs []*Command)
	n := 0
	walk = func(path []string, cs []*Command) {
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
	walk(nil, commands())
	if n < 15 {
		t.Errorf("checked %d commands; want every leaf command", n)
	}
}
