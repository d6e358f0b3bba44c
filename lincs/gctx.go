package lincs

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/scigolib/hdf5"
)

// GCTX dataset paths (cmapPy's write_gctx and the LINCS GEO releases).
const (
	gctxMatrix  = "/0/DATA/0/matrix"
	gctxRowMeta = "/0/META/ROW/"
	gctxColMeta = "/0/META/COL/"
)

// ReadMatrixFile reads a signature matrix, choosing the format by the file
// name: ".gctx" is GCTX (HDF5), anything else GCT text (".gz" allowed).
func ReadMatrixFile(path string) (*Matrix, error) {
	if strings.HasSuffix(strings.ToLower(path), ".gctx") {
		return ReadGCTXFile(path)
	}
	return ReadGCTFile(path)
}

// ReadGCTXFile reads a GCTX file, the HDF5 form of GCT: the float32
// dataset /0/DATA/0/matrix stored transposed (HDF5 shape columns x rows,
// as cmapPy writes it), the row and column ids in /0/META/ROW/id and
// /0/META/COL/id, and any other datasets of those two groups as metadata
// fields (in name order; numbers formatted with strconv 'g'). The result has
// Version "1.3". The whole matrix is read into memory (8 bytes a value while
// reading, 4 after).
//
// HDF5 parsing is done by github.com/scigolib/hdf5 v0.14.0 (pure Go), which
// trusts the sizes a file declares: a corrupt GCTX file can make it
// allocate without bound and crash the process (fuzzing found a single
// flipped byte in a local heap header asking for 280 TB). ReadGCTXFile
// turns the library's ordinary panics into errors but cannot catch that:
// read GCTX files only from trusted sources (LINCS/GEO releases), and prefer
// GCT text, whose reader is fuzzed, for anything else.
func ReadGCTXFile(path string) (m *Matrix, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("lincs: %s: gctx: corrupt HDF5 file (reader panicked: %v)", path, r)
		}
	}()
	f, err := hdf5.Open(path)
	if err != nil {
		return nil, fmt.Errorf("lincs: %s: gctx: %w", path, err)
	}
	defer f.Close()
	sets := map[string]*hdf5.Dataset{}
	f.Walk(func(p string, obj hdf5.Object) {
		if ds, ok := obj.(*hdf5.Dataset); ok {
			sets[p] = ds
		}
	})
	fail := func(format string, args ...any) error {
		return fmt.Errorf("lincs: %s: gctx: "+format, append([]any{path}, args...)...)
	}
	need := func(p string) (*hdf5.Dataset, error) {
		ds := sets[p]
		if ds == nil {
			return nil, fail("no dataset %s (is this a GCTX file?)", p)
		}
		return ds, nil
	}
	m = &Matrix{Version: "1.3", RowMeta: []Field{}, ColMeta: []Field{}}
	for _, g := range []struct {
		prefix string
		ids    *[]string
		meta   *[]Field
	}{{gctxRowMeta, &m.Rows, &m.RowMeta}, {gctxColMeta, &m.Cols, &m.ColMeta}} {
		ds, err := need(g.prefix + "id")
		if err != nil {
			return nil, err
		}
		if *g.ids, err = gctxStrings(ds); err != nil {
			return nil, fail("%sid: %v", g.prefix, err)
		}
		var names []string
		for p := range sets {
			if strings.HasPrefix(p, g.prefix) && p != g.prefix+"id" && !strings.Contains(p[len(g.prefix):], "/") {
				names = append(names, p)
			}
		}
		sort.Strings(names)
		for _, p := range names {
			vals, err := gctxStrings(sets[p])
			if err != nil {
				return nil, fail("%s: %v", p, err)
			}
			if len(vals) != len(*g.ids) {
				return nil, fail("%s has %d values for %d ids", p, len(vals), len(*g.ids))
			}
			*g.meta = append(*g.meta, Field{Name: p[len(g.prefix):], Values: vals})
		}
	}
	ds, err := need(gctxMatrix)
	if err != nil {
		return nil, err
	}
	data, err := ds.Read()
	if err != nil {
		return nil, fail("%s: %v", gctxMatrix, err)
	}
	nr, nc := len(m.Rows), len(m.Cols)
	if len(data) != nr*nc {
		return nil, fail("%s has %d values for %d rows x %d columns", gctxMatrix, len(data), nr, nc)
	}
	m.Values = make([]float32, nr*nc)
	for j := 0; j < nc; j++ {
		for i := 0; i < nr; i++ {
			m.Values[i*nc+j] = float32(data[j*nr+i])
		}
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return m, nil
}

// gctxStrings reads a 1-D dataset of fixed- or variable-length strings, or
// of numbers (formatted with strconv 'g').
func gctxStrings(ds *hdf5.Dataset) ([]string, error) {
	if s, err := ds.ReadStrings(); err == nil {
		for i := range s {
			s[i] = strings.TrimRight(s[i], "\x00")
		}
		return s, nil
	}
	if b, err := ds.ReadVLenBytes(); err == nil {
		s := make([]string, len(b))
		for i := range b {
			s[i] = strings.TrimRight(string(b[i]), "\x00")
		}
		return s, nil
	}
	v, err := ds.Read()
	if err != nil {
		return nil, fmt.Errorf("neither strings nor numbers: %w", err)
	}
	s := make([]string, len(v))
	for i, x := range v {
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			s[i] = strconv.FormatInt(int64(x), 10)
		} else {
			s[i] = strconv.FormatFloat(x, 'g', -1, 64)
		}
	}
	return s, nil
}
