package data

import (
	"fmt"
	"os"
)

// LoadManifest reads the sources from the manifest file at path
// (ReadManifest), or returns the built-in Manifest when path is "".
func LoadManifest(path string) ([]Source, error) {
	if path == "" {
		return Manifest(), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadManifest(f)
}

// How says how Fetch got the file: "cached", "resumed from byte N" or
// "downloaded".
func (r Result) How() string {
	switch {
	case r.Cached:
		return "cached"
	case r.Resumed > 0:
		return fmt.Sprintf("resumed from byte %d", r.Resumed)
	}
	return "downloaded"
}
