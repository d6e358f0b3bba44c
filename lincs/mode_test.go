package lincs

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSignatureFilesMode: the stored signatures are 0644 (os.CreateTemp
// alone would make them 0600).
func TestSignatureFilesMode(t *testing.T) {
	dir := t.TempDir()
	s := &Signatures{Genes: []string{"g"}, DrugIDs: []string{"d"}, Vectors: [][]float32{{1}}, Columns: []string{"c"}, By: []Method{ByParentName}}
	if err := WriteSignatures(dir, s); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"signatures.parquet", "signatures.arrow"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want 0644", name, fi.Mode().Perm())
		}
	}
	back, err := LoadSignatures(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.By[0] != ByParentName {
		t.Errorf("matched_by read back as %q", back.By[0])
	}
}
