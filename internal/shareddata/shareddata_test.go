package shareddata

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records Skip and Fatal instead of ending
// the test.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Skip(args ...any)                  { r.skipped = fmt.Sprint(args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

// TestMissingData: without the data a test is skipped with one line naming
// the missing file and how to provide it; DEUP_REQUIRE_DATA=1 fails it; a
// present file is returned.
func TestMissingData(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "almanac"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "almanac", "drugs.csv"), []byte("name\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, data, require, file string
		wantSkip, wantFail        bool
	}{
		{"present", dir, "", "drugs.csv", false, false},
		{"present, required", dir, "1", "drugs.csv", false, false},
		{"missing file", dir, "", "nope.csv", true, false},
		{"missing file, required", dir, "1", "nope.csv", false, true},
		{"missing directory", filepath.Join(dir, "gone"), "", "drugs.csv", true, false},
		{"missing directory, required", filepath.Join(dir, "gone"), "1", "drugs.csv", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EnvVar, tc.data)
			t.Setenv(RequireVar, tc.require)
			r := &recorder{TB: t}
			p := Path(r, "almanac", tc.file)
			if (r.skipped != "") != tc.wantSkip || (r.failed != "") != tc.wantFail {
				t.Fatalf("skipped %q, failed %q", r.skipped, r.failed)
			}
			msg := r.skipped + r.failed
			if msg != "" && (!strings.Contains(msg, tc.file) && !strings.Contains(msg, "gone") || !strings.Contains(msg, "DEUP_DATA=DIR") || strings.Contains(msg, "\n")) {
				t.Errorf("message %q: want one line naming what is missing and DEUP_DATA", msg)
			}
			if tc.wantFail && !strings.Contains(msg, "DEUP_REQUIRE_DATA=1") {
				t.Errorf("failure %q does not name DEUP_REQUIRE_DATA", msg)
			}
			if !tc.wantSkip && !tc.wantFail && p != filepath.Join(dir, "almanac", tc.file) {
				t.Errorf("path %q", p)
			}
		})
	}
}
