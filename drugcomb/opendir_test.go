package drugcomb

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenDir: a saved screen opens as with Open; each way a path is not a
// screen directory gets a *DirError that says what is wrong (the command
// layer adds what to do: cmd/deup's TestFirstErrors and script tests).
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
		drugs     int        // drugs of the screen opened
		problem   DirProblem // 0: opens
		err       string
	}{
		{"saved", saved, 3, 0, ""}, // testScreen's three drugs
		{"missing", missing, 0, DirMissing, "screen directory " + missing + " does not exist"},
		{"no meta.json", empty, 0, DirNoMeta, empty + " is not a screen directory (no meta.json)"},
		{"a file", file, 0, DirIsFile, file + " is a file, not a screen directory"},
		// Open's own error, then which screen.
		{"unreadable", broken, 0, DirUnreadable, "drugcomb: open: " + filepath.Join(broken, MetaFile) + ": unexpected end of JSON input (the screen in " + broken + " cannot be read)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := OpenDir(tc.dir)
			var de *DirError
			switch {
			case tc.problem != 0 && (!errors.As(err, &de) || de.Problem != tc.problem || de.Dir != tc.dir):
				t.Errorf("err %#v, want a *DirError %d on %s", err, tc.problem, tc.dir)
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
