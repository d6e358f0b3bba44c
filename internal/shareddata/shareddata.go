// Package shareddata locates the real public data that lives beside the
// project (../shared/data from the module root) for tests and benchmarks.
// The data is never copied into the project.
package shareddata

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvVar overrides the location of the shared data directory.
const EnvVar = "DEUP_SHARED_DATA"

// Dir returns the shared data directory: $DEUP_SHARED_DATA if set, otherwise
// ../shared/data relative to the directory holding go.mod, found by walking up
// from the working directory.
func Dir() (string, error) {
	if d := os.Getenv(EnvVar); d != "" {
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			dd := filepath.Join(d, "..", "shared", "data")
			if _, err := os.Stat(dd); err != nil {
				return "", fmt.Errorf("shareddata: %s: %w", dd, err)
			}
			return filepath.Clean(dd), nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("shareddata: no go.mod above the working directory")
		}
	}
}

// Path returns the path of a file under the shared data directory, or fails
// the test (real data is part of every development machine and CI).
func Path(tb testing.TB, rel ...string) string {
	tb.Helper()
	d, err := Dir()
	if err != nil {
		tb.Fatalf("shared data: %v", err)
	}
	p := filepath.Join(append([]string{d}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("shared data: %v", err)
	}
	return p
}
