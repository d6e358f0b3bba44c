// Package shareddata locates the real public data that tests and benchmarks
// read (NCI-ALMANAC PC-3, the DrugComb catalogue, LINCS signatures, RDKit
// reference fingerprints). The data is never copied into the project: it
// lives in a directory beside it, ../shared/data from the module root, or
// wherever the DEUP_DATA environment variable points (a directory laid out
// like ../shared/data: almanac/, drugcomb/, fingerprints/, lincs/).
//
// Without that directory a test that needs it is skipped with one line
// naming the missing file and how to provide it, so `go test ./...` passes on
// a fresh clone. When DEUP_REQUIRE_DATA=1 (CI sets it) the skip becomes a
// failure, so on machines that have the data every real-data test runs.
package shareddata

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvVar names the directory of the real data (default: ../shared/data from
// the module root).
const EnvVar = "DEUP_DATA"

// RequireVar, set to 1, turns a missing real-data skip into a failure.
const RequireVar = "DEUP_REQUIRE_DATA"

// Dir returns the real-data directory: $DEUP_DATA if set, otherwise
// ../shared/data relative to the directory holding go.mod, found by walking up
// from the working directory. It fails when the directory does not exist.
func Dir() (string, error) {
	if d := os.Getenv(EnvVar); d != "" {
		if _, err := os.Stat(d); err != nil {
			return "", fmt.Errorf("shareddata: %s=%s: %w", EnvVar, d, err)
		}
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
				return "", fmt.Errorf("shareddata: %s: %w", filepath.Clean(dd), err)
			}
			return filepath.Clean(dd), nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("shareddata: no go.mod above the working directory")
		}
	}
}

// Required reports whether missing real data must fail the test
// (DEUP_REQUIRE_DATA=1).
func Required() bool { return os.Getenv(RequireVar) == "1" }

// Path returns the path of a file under the real-data directory. When the
// file is missing, it skips the test with one line saying what is missing and
// how to provide it, or fails it when DEUP_REQUIRE_DATA=1.
func Path(tb testing.TB, rel ...string) string {
	tb.Helper()
	p, err := path(rel...)
	if err != nil {
		Missing(tb, err)
	}
	return p
}

// Optional returns the path of a file under the real-data directory and
// whether it exists, for tests that only add real inputs to generated ones
// (fuzz seeds). With DEUP_REQUIRE_DATA=1 a missing file fails the test.
func Optional(tb testing.TB, rel ...string) (string, bool) {
	tb.Helper()
	p, err := path(rel...)
	if err != nil {
		if Required() {
			Missing(tb, err)
		}
		return "", false
	}
	return p, true
}

func path(rel ...string) (string, error) {
	d, err := Dir()
	if err != nil {
		return "", err
	}
	p := filepath.Join(append([]string{d}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("shareddata: %w", err)
	}
	return p, nil
}

// Missing skips (or, with DEUP_REQUIRE_DATA=1, fails) tb because real data is
// missing, with err naming what.
func Missing(tb testing.TB, err error) {
	tb.Helper()
	msg := fmt.Sprintf("real data missing (%v): put the project's data directory at ../shared/data beside the checkout or set %s=DIR", err, EnvVar)
	if Required() {
		tb.Fatalf("%s; %s=1 makes this a failure", msg, RequireVar)
		return
	}
	tb.Skip(msg)
}
