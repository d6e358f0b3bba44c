package drugcomb

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOpenDir: a saved screen opens as with Open; each way a path is not a
// screen directory gets the error that says what to do (the texts deup's
// first errors show, cmd/deup's TestFirstErrors and script tests).
func TestOpenDir(t *testing.T) {
	root := t.TempDir()
	saved := filepath.Join(root, "saved")
	if err := Save(saved, testScreen(false)); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(root, "empty")
	file := filepath.Join(root, "file.csv")
	broken := filepath.Join(root, "broken")
	for _, d := range []string{empty, broken} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(file, []byte("a,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, MetaFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(root, "missing")
	for _, tc := range []struct {
		name, dir string
		drugs     int    // drugs of the screen opened
		err       string // "": opens
	}{
		{"saved", saved, 3, ""}, // testScreen's three drugs
		{"missing", missing, 0, "screen directory " + missing + " does not exist: create it with deup data import --out " + missing + " (or leave out --screen for the synthetic default)"},
		{"no meta.json", empty, 0, empty + " is not a screen directory (no meta.json): screen directories are written by deup data import --out DIR"},
		{"a file", file, 0, file + " is a file, not a screen directory: give the directory deup data import --out wrote (the one holding meta.json)"},
		// Open's own error, then what to do.
		{"unreadable", broken, 0, "drugcomb: open: " + filepath.Join(broken, MetaFile) + ": unexpected end of JSON input (the screen in " + broken + " cannot be read: import it again with deup data import --out " + broken + ")"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := OpenDir(tc.dir)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("err %v", err)
			case tc.err == "" && len(sc.Drugs) != tc.drugs:
				t.Errorf("%d drugs, want %d", len(sc.Drugs), tc.drugs)
			case tc.err != "" && (err == nil || err.Error() != tc.err):
				t.Errorf("err %v\nwant %s", err, tc.err)
			}
		})
	}
}
