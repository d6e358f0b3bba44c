package data

import (
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
