// Package buildinfo describes how the binary was built: its version, VCS
// commit and Go version, from the build information the go command
// records and a stamp set at build time (-ldflags -X).
package buildinfo

import "runtime/debug"

// Stamp is a version and commit given at build time (empty: none).
type Stamp struct {
	Version, Commit string
}

// Line describes the build: the main module's version ("(devel)"
// for a build from a checkout), and the VCS commit, its time and whether
// the tree had changes, when the go command recorded them. The stamp's
// version stands in for "(devel)" or a missing one, and its commit for a
// missing VCS revision.
func Line(bi *debug.BuildInfo, ok bool, st Stamp) string {
	if !ok || bi == nil {
		bi = &debug.BuildInfo{}
		if st == (Stamp{}) {
			return "deup (no build information)"
		}
	}
	v := bi.Main.Version
	if (v == "" || v == "(devel)") && st.Version != "" {
		v = st.Version
	}
	if v == "" {
		v = "(devel)"
	}
	line := "deup " + v
	var rev, when, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		rev = st.Commit
	}
	if rev != "" {
		line += " commit " + rev
		if when != "" {
			line += " (" + when + ")"
		}
		if modified == "true" {
			line += " with local changes"
		}
	} else {
		line += " commit unknown"
	}
	if bi.GoVersion != "" {
		line += ", " + bi.GoVersion
	}
	return line
}
