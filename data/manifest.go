package data

import (
	"fmt"
	"io"
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

// WriteList writes the sources as deup data fetch --list prints them: name,
// group and file (marked when fetched only when named), then the address
// and the description, indented, on lines of their own.
func WriteList(w io.Writer, sources []Source) error {
	for _, s := range sources {
		def := ""
		if !s.Default {
			def = " (only when named)"
		}
		if _, err := fmt.Fprintf(w, "%-26s %-9s %s%s\n    %s\n    %s\n", s.Name, s.Group, s.File, def, s.URL, s.Description); err != nil {
			return err
		}
	}
	return nil
}
