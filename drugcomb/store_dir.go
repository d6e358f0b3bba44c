package drugcomb

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// IsScreenDir reports whether dir holds a screen (its MetaFile).
func IsScreenDir(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, MetaFile))
	return err == nil
}

// OtherFiles lists the files in a screen directory that are not the
// screen's own (for example signatures added by deup data signatures), in
// directory order; nil when dir cannot be read.
func OtherFiles(dir string) []string {
	own := map[string]bool{MetaFile: true, ReportFile: true, DrugsArrowFile: true, DrugsParquetFile: true, PairsArrowFile: true, PairsParquetFile: true}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !own[e.Name()] {
			out = append(out, e.Name())
		}
	}
	return out
}

// ParseDelimiter reads a text table's field delimiter as a person names
// it: "" (sniff it from the header, 0), one character, or tab (also
// `\t`), comma, semicolon, pipe or space, ignoring case. A quote or a line
// break cannot delimit.
func ParseDelimiter(s string) (rune, error) {
	switch strings.ToLower(s) {
	case "":
		return 0, nil
	case "tab", `\t`:
		return '\t', nil
	case "comma":
		return ',', nil
	case "semicolon":
		return ';', nil
	case "pipe":
		return '|', nil
	case "space":
		return ' ', nil
	}
	r, n := utf8.DecodeRuneInString(s)
	if n != len(s) || r == utf8.RuneError || r == '"' || r == '\n' || r == '\r' {
		return 0, fmt.Errorf("%q: want one character, or tab, comma, semicolon, pipe, space", s)
	}
	return r, nil
}
