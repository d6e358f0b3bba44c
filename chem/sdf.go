package chem

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// SDField is one data item of an SD file record: "> <Name>" and the lines
// of its value (joined with "\n", without the blank line that ends them).
type SDField struct {
	Name  string
	Value string
}

// SDRecord is one record of an SD file: a molfile and its data items.
type SDRecord struct {
	Title  string    // the molfile's first line, trimmed
	Line   int       // line number of the title in the file (1-based)
	Fields []SDField // data items in file order
	Mol    *Mol      // the perceived molecule; nil when Err is set
	// Err is why the structure was refused (a *MolfileError, lines counted
	// in the whole file): the record, its title and fields are still read
	// and the reader goes on with the next one, as RDKit's SDMolSupplier
	// gives None for the molecule and goes on.
	Err error
}

// Field returns the value of the first data item called name.
func (r *SDRecord) Field(name string) (string, bool) {
	for _, f := range r.Fields {
		if f.Name == name {
			return f.Value, true
		}
	}
	return "", false
}

// SDReader reads the records of an SD file (V2000 molfiles, each followed
// by data items, records ending with "$$$$") one at a time.
type SDReader struct {
	r    *bufio.Reader
	line int // lines read so far
	name string
}

// NewSDReader returns a reader of the SD file r; name (a file name, or ""
// ) prefixes its I/O errors.
func NewSDReader(r io.Reader, name string) *SDReader {
	return &SDReader{r: bufio.NewReaderSize(r, 1<<16), name: name}
}

// readLine returns the next line without its end of line, and false at the
// end of input.
func (s *SDReader) readLine() (string, bool, error) {
	l, err := s.r.ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", false, err
	}
	if l == "" && err != nil {
		return "", false, nil
	}
	s.line++
	l = strings.TrimSuffix(l, "\n")
	return strings.TrimSuffix(l, "\r"), true, nil
}

// Read returns the next record, or io.EOF after the last one. A structure
// that cannot be read or perceived does not stop the reader: the record
// comes back with Err set. Other errors (I/O) are returned as such.
func (s *SDReader) Read() (*SDRecord, error) {
	var lines []string
	first := s.line + 1
	for {
		l, ok, err := s.readLine()
		if err != nil {
			return nil, fmt.Errorf("chem: %s: line %d: %w", s.name, s.line+1, err)
		}
		if !ok {
			if allBlank(lines) {
				return nil, io.EOF
			}
			break
		}
		if strings.HasPrefix(l, "$$$$") {
			if allBlank(lines) {
				// an empty record: skipped, as RDKit's SDMolSupplier does
				lines, first = lines[:0], s.line+1
				continue
			}
			break
		}
		lines = append(lines, l)
	}
	rec := &SDRecord{Title: strings.TrimSpace(lines[0]), Line: first}
	end := len(lines)
	for i, l := range lines {
		if strings.HasPrefix(l, "M  END") {
			end = i + 1
			break
		}
	}
	for i := end; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, ">") {
			continue
		}
		lt := strings.IndexByte(l, '<')
		gt := strings.LastIndexByte(l, '>')
		if lt < 0 || gt < lt {
			continue // a data header without a <name>: RDKit skips it too
		}
		f := SDField{Name: l[lt+1 : gt]}
		var vals []string
		for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
			i++
			vals = append(vals, lines[i])
		}
		f.Value = strings.Join(vals, "\n")
		rec.Fields = append(rec.Fields, f)
	}
	m := new(Mol)
	if err := m.parseMolfile(lines[:end], first); err != nil {
		rec.Err = err
		return rec, nil
	}
	rec.Mol = m
	return rec, nil
}

func allBlank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}
