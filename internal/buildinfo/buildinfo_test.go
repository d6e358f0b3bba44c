package buildinfo

import (
	"runtime/debug"
	"testing"
)

// TestLine: the version line of builds from a release, a checkout with
// and without changes, without VCS stamping, and stamped by -ldflags -X
// (the README's packaging command), with the go command's build settings.
func TestLine(t *testing.T) {
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
			if got := Line(tc.bi, tc.ok, tc.st); got != tc.want {
				t.Errorf("Line = %q, want %q", got, tc.want)
			}
		})
	}
}
