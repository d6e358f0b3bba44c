package drugcomb

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSaveModes: a saved screen directory is 0755 and its files 0644
// (os.MkdirTemp alone would make the directory 0700), and so is a file
// written by WriteFileAtomic (os.CreateTemp: 0600).
func TestSaveModes(t *testing.T) {
	b := NewBuilder("score")
	if err := b.Measure(b.Drug(Drug{ID: "a"}), b.Drug(Drug{ID: "b"}), b.CellLine("c"), []float64{1}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "screen")
	if err := Save(dir, b.Screen("s")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o755 {
		t.Errorf("screen directory mode %v, want 0755", fi.Mode().Perm())
	}
	p := filepath.Join(t.TempDir(), "x.json")
	if err := WriteFileAtomic(p, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p); err != nil {
		t.Error(err)
	} else if fi.Mode().Perm() != 0o644 {
		t.Errorf("WriteFileAtomic: mode %v, want 0644", fi.Mode().Perm())
	}
}
