package suggest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFileMode: suggestion files are 0644 (os.CreateTemp alone would
// make them 0600).
func TestWriteFileMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "next.csv")
	if err := WriteFile(path, batch()); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
}
