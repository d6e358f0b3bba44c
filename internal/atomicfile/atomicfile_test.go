package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	tests := []struct {
		name     string
		previous string // "" means no previous file
		write    func(io.Writer) error
		wantErr  bool
		want     string // content under the final name after Write; "" means absent
	}{
		{"new file", "", func(w io.Writer) error { _, err := io.WriteString(w, "a,b\n1,2\n"); return err }, false, "a,b\n1,2\n"},
		{"replaces previous", "old\n", func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }, false, "new\n"},
		{"failure keeps previous", "old\n", func(w io.Writer) error { io.WriteString(w, "partial"); return errors.New("boom") }, true, "old\n"},
		{"failure leaves none", "", func(w io.Writer) error { io.WriteString(w, "partial"); return errors.New("boom") }, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.csv")
			if tt.previous != "" {
				if err := os.WriteFile(path, []byte(tt.previous), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			err := Write(path, tt.write)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Write error = %v, want error %v", err, tt.wantErr)
			}
			got, rerr := os.ReadFile(path)
			if tt.want == "" {
				if !os.IsNotExist(rerr) {
					t.Fatalf("final file exists (%q, %v), want none", got, rerr)
				}
			} else if string(got) != tt.want {
				t.Fatalf("final file = %q, want %q", got, tt.want)
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if e.Name() != "out.csv" {
					t.Errorf("left behind %s", e.Name())
				}
			}
			if tt.want != "" && !tt.wantErr {
				st, _ := os.Stat(path)
				if st.Mode().Perm() != Perm {
					t.Errorf("mode %v, want %v", st.Mode().Perm(), os.FileMode(Perm))
				}
			}
		})
	}
}

// TestUncommittedIsInvisible: until Commit, the final name does not exist,
// whatever was written; Abort after Commit is a no-op.
func TestUncommittedIsInvisible(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.parquet")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	if _, err := f.WriteString("data"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("final name visible before Commit: %v", err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort()
	if b, err := os.ReadFile(path); err != nil || string(b) != "data" {
		t.Fatalf("after Commit: %q, %v", b, err)
	}
	if err := f.Commit(); err == nil {
		t.Fatal("second Commit succeeded")
	}
}

func TestCreateInMissingDir(t *testing.T) {
	_, err := Create(filepath.Join(t.TempDir(), "no", "such", "out.csv"))
	if err == nil {
		t.Fatal("Create in a missing directory succeeded")
	}
}

func TestDir(t *testing.T) {
	tests := []struct {
		name   string
		commit bool
		want   []string // files under the final path; nil means absent
	}{
		{"committed", true, []string{"a.arrow", "meta.json"}},
		{"aborted", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			path := filepath.Join(parent, "screen")
			d, err := CreateDir(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []string{"a.arrow", "meta.json"} {
				if err := d.WriteFile(n, []byte(n)); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Fatalf("%s exists before Commit (%v)", path, err)
			}
			if tt.commit {
				if err := d.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			d.Abort()
			ents, err := os.ReadDir(path)
			if tt.want == nil {
				if !os.IsNotExist(err) {
					t.Fatalf("after Abort %s: %v, %v; want absent", path, ents, err)
				}
			} else {
				var got []string
				for _, e := range ents {
					got = append(got, e.Name())
				}
				if strings.Join(got, ",") != strings.Join(tt.want, ",") {
					t.Fatalf("%s holds %v, want %v", path, got, tt.want)
				}
			}
			if ents, _ := os.ReadDir(parent); len(ents) != len(tt.want)/2 {
				t.Errorf("parent holds %v: a temporary directory was left", ents)
			}
		})
	}
}

// TestWriteNamed: an error of write gets the path in front once; an error
// that names the path already (Create's) is returned as it is.
func TestWriteNamed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	for _, c := range []struct {
		name, path string
		write      func(io.Writer) error
		want       string
	}{
		{"write fails", path, func(io.Writer) error { return errors.New("json: unsupported value: NaN") }, "write " + path + ": json: unsupported value: NaN"},
		{"names the path", path, func(io.Writer) error { return errors.New("bad " + path) }, "bad " + path},
		{"no directory", filepath.Join(dir, "no", "r.json"), func(io.Writer) error { return nil }, "create " + filepath.Join(dir, "no", "r.json") + ": "},
	} {
		err := WriteNamed(c.path, c.write)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Count(err.Error(), c.path) != 1 {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if err := WriteNamed(path, func(w io.Writer) error { _, err := io.WriteString(w, "{}"); return err }); err != nil {
		t.Fatal(err)
	}
}

// TestSync checks SyncDir and SyncFile (the ledger's and the download's
// sync): nil for what they can open and sync, the open error otherwise
// (a missing path; a directory cannot be opened for writing).
func TestSync(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	for _, tc := range []struct {
		name string
		sync func(string) error
		path string
		ok   bool
	}{
		{"dir", SyncDir, dir, true},
		{"file", SyncFile, file, true},
		{"missing dir", SyncDir, missing, false},
		{"missing file", SyncFile, missing, false},
		{"dir as file", SyncFile, dir, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.sync(tc.path); (err == nil) != tc.ok {
				t.Errorf("sync %s: %v, want ok=%v", tc.path, err, tc.ok)
			}
		})
	}
}
