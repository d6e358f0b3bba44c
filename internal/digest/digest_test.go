package digest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFile: the SHA-256 of "abc" and of the empty file (FIPS 180-2's test
// vector; sha256sum of an empty file).
func TestFile(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	} {
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := File(p); err != nil || got != c.want {
			t.Errorf("File(%q) = %s, %v; want %s", c.text, got, err, c.want)
		}
	}
	if _, err := File(filepath.Join(dir, "missing")); err == nil {
		t.Error("no error for a missing file")
	}
}
