package data

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// LoadManifest: "" is the built-in Manifest; a file is read by
// ReadManifest; a missing file is the open error.
func TestLoadManifest(t *testing.T) {
	got, err := LoadManifest("")
	if err != nil || !reflect.DeepEqual(got, Manifest()) {
		t.Errorf("built-in: %d sources, %v", len(got), err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	if err := os.WriteFile(path, []byte(`{"sources":[{"name":"x","group":"g","url":"http://h/x","file":"x.csv","default":true,"description":"d"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = LoadManifest(path)
	if want := []Source{{Name: "x", Group: "g", URL: "http://h/x", File: "x.csv", Default: true, Description: "d"}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("file: %+v, %v; want %+v", got, err, want)
	}
	if _, err := LoadManifest(filepath.Join(dir, "none.json")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}

func TestResultHow(t *testing.T) {
	for _, c := range []struct {
		r    Result
		want string
	}{
		{Result{}, "downloaded"},
		{Result{Cached: true}, "cached"},
		{Result{Resumed: 4096}, "resumed from byte 4096"},
	} {
		if got := c.r.How(); got != c.want {
			t.Errorf("%+v.How() = %q, want %q", c.r, got, c.want)
		}
	}
}

// WriteList: name padded to 26, group to 9, the file, " (only when named)"
// for a source not fetched by default, then URL and description indented by
// four spaces.
func TestWriteList(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  Source
		want string
	}{
		{"default", Source{Name: "x", Group: "g", File: "x.csv", URL: "http://h/x", Default: true, Description: "d"},
			"x                          g         x.csv\n    http://h/x\n    d\n"},
		{"named only", Source{Name: "lincs-big", Group: "lincs", File: "big.gctx", URL: "u", Description: "big"},
			"lincs-big                  lincs     big.gctx (only when named)\n    u\n    big\n"},
	} {
		var buf bytes.Buffer
		if err := WriteList(&buf, []Source{tc.src}); err != nil {
			t.Fatal(err)
		}
		if buf.String() != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, buf.String(), tc.want)
		}
	}
}
