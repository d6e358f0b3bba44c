package drugcomb

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSaveModes: a saved screen directory is 0755 and its files 0644
// (os.MkdirTemp alone would make the directory 0700), and so are the files
// of a screen rewritten in place (os.CreateTemp: 0600).
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
	for pass := range 2 { // 0: a new directory, 1: rewritten in place
		if pass == 1 {
			if err := Save(dir, b.Screen("s")); err != nil {
				t.Fatal(err)
			}
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if fi, err := e.Info(); err != nil {
				t.Error(err)
			} else if fi.Mode().Perm() != 0o644 {
				t.Errorf("pass %d: %s mode %v, want 0644", pass, e.Name(), fi.Mode().Perm())
			}
		}
	}
}
