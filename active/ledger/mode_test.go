package ledger

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEventFilesWorldReadable: the ledger holds no secret; its event files
// are 0644 like every other output (os.CreateTemp alone would make them
// 0600).
func TestEventFilesWorldReadable(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ev := sampleEvents()[0]
	if err := l.Append(&ev); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.arrow"))
	if err != nil || len(files) != 1 {
		t.Fatalf("event files %v, %v", files, err)
	}
	fi, err := os.Stat(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("%s: mode %v, want 0644", files[0], fi.Mode().Perm())
	}
}
