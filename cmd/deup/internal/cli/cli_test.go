package cli

import (
	"flag"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

var updateUsage = flag.Bool("update-usage", false, "rewrite testdata/usage_*.stderr")

// TestHelpOnStdout: help asked for goes to stdout (so that `deup train -h |
// head` shows it), with exit status 0 and nothing on stderr.
func TestHelpOnStdout(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		start string
	}{
		{[]string{"train", "-h"}, "usage: deup train "},
		{[]string{"train", "--help"}, "usage: deup train "},
		{[]string{"data", "import", "-h"}, "usage: deup data import "},
		{[]string{"-h"}, "deup: "},
		{[]string{"help"}, "deup: "},
		{[]string{"campaign", "--help"}, "campaign: "},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, serr, code := runCLI(t, tc.args...)
			if code != 0 || serr != "" || !strings.HasPrefix(out, tc.start) {
				t.Errorf("exit %d, stderr %q, stdout starts %q; want 0, empty, %q", code, serr, out[:min(len(out), 40)], tc.start)
			}
		})
	}
}

// TestUsageErrorIsShort: a usage error prints the error, the usage line and
// where the help is, on stderr (golden files), never the whole help; exit 2.
func TestUsageErrorIsShort(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"usage_unknown_flag.stderr", []string{"train", "--nosuch"}},
		{"usage_missing_flag.stderr", []string{"train"}},
		{"usage_bad_value.stderr", []string{"train", "--seed", "x", "--out", "m"}},
		{"usage_no_subcommand.stderr", []string{"campaign"}},
		{"usage_unknown_subcommand.stderr", []string{"nosuch"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			out, serr, code := runCLI(t, tc.args...)
			if code != 2 || out != "" {
				t.Errorf("exit %d, stdout %q; want 2, empty", code, out)
			}
			if strings.Contains(serr, "Flags:") || strings.Count(serr, "\n") > 5 {
				t.Errorf("usage error prints the whole help:\n%s", serr)
			}
			p := filepath.Join("testdata", tc.golden)
			if *updateUsage {
				if err := os.WriteFile(p, []byte(serr), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(p)
			if err != nil {
				t.Fatalf("%v (run with -update-usage to create)", err)
			}
			if serr != string(want) {
				t.Errorf("stderr:\n%s\nwant (%s):\n%s", serr, p, want)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	out, serr, code := runCLI(t, "--version")
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
			out, _, code := runCLI(t, append(p, "-h")...)
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
