package lincs

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
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
	if IsGCTX(path) {
		return ReadGCTXFile(path)
	}
	return ReadGCTFile(path)
}

// IsGCTX says whether path names a GCTX file (".gctx", any case).
func IsGCTX(path string) bool { return strings.HasSuffix(strings.ToLower(path), ".gctx") }

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
// GCT text, whose reader is fuzzed, for anything else. The deup command
// reads GCTX in a child process whose address space is capped
// (internal/sandbox), where such a file ends in an error.
func ReadGCTXFile(path string) (m *Matrix, err error) {
	defer recoverGCTX(path, &err)
	g, err := openGCTX(path)
	if err != nil {
		return nil, err
	}
	defer g.f.Close()
	m = g.m
	data, err := g.matrix.Read()
	if err != nil {
		return nil, g.fail("%s: %v", gctxMatrix, err)
	}
	nr, nc := len(m.Rows), len(m.Cols)
	if len(data) != nr*nc {
		return nil, g.fail("%s has %d values for %d rows x %d columns", gctxMatrix, len(data), nr, nc)
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

// MatchGCTXFile matches drugs to the signatures of a GCTX file as
// MatchDrugs does (on pert_iname when the file has that column metadata),
// but reads only the ids, the metadata and the matched columns, so that a
// LINCS level-5 file of hundreds of thousands of signatures needs memory
// for the matched ones only. It also returns the number of signatures in
// the file. The caveat of ReadGCTXFile on corrupt files applies.
func MatchGCTXFile(path string, info *PertInfo, drugs []drugcomb.Drug) (s *Signatures, rep Report, nSignatures int, err error) {
	defer recoverGCTX(path, &err)
	g, err := openGCTX(path)
	if err != nil {
		return nil, Report{}, 0, err
	}
	defer g.f.Close()
	m := g.m
	for _, ids := range []struct {
		what string
		ids  []string
	}{{"row", m.Rows}, {"column", m.Cols}} {
		if i, j := firstDuplicate(ids.ids); j >= 0 {
			return nil, Report{}, 0, g.fail("duplicate %s id %q (%ss %d and %d)", ids.what, ids.ids[j], ids.what, i+1, j+1)
		}
	}
	nr := len(m.Rows)
	s, rep, err = matchOn(m.Rows, m.Cols, m.ColMeta, defaultMatchField(m.ColMeta), info, drugs, func(j int) ([]float32, error) {
		raw, err := g.matrix.ReadSlice([]uint64{uint64(j), 0}, []uint64{1, uint64(nr)})
		if err != nil {
			return nil, g.fail("%s: column %d (%s): %v", gctxMatrix, j, m.Cols[j], err)
		}
		var col []float32
		switch v := raw.(type) {
		case []float64:
			col = make([]float32, len(v))
			for i, x := range v {
				col[i] = float32(x)
			}
		case []float32:
			col = append([]float32(nil), v...)
		default:
			return nil, g.fail("%s: values of type %T, want float32", gctxMatrix, raw)
		}
		if len(col) != nr {
			return nil, g.fail("%s: column %d has %d values for %d rows", gctxMatrix, j, len(col), nr)
		}
		return col, nil
	})
	if err != nil {
		return nil, Report{}, 0, err
	}
	return s, rep, len(m.Cols), nil
}

func recoverGCTX(path string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("lincs: %s: gctx: corrupt HDF5 file (reader panicked: %v)", path, r)
	}
}

// gctxFile is an open GCTX file with its ids and metadata read (m.Values
// is nil) and its matrix dataset found.
type gctxFile struct {
	f      *hdf5.File
	path   string
	m      *Matrix
	matrix *hdf5.Dataset
}

func (g *gctxFile) fail(format string, args ...any) error {
	return fmt.Errorf("lincs: %s: gctx: "+format, append([]any{g.path}, args...)...)
}

// openGCTX opens path and reads its ids and metadata. On success the caller
// closes g.f.
func openGCTX(path string) (g *gctxFile, err error) {
	f, err := hdf5.Open(path)
	if err != nil {
		return nil, fmt.Errorf("lincs: %s: gctx: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	g = &gctxFile{f: f, path: path}
	sets := map[string]*hdf5.Dataset{}
	f.Walk(func(p string, obj hdf5.Object) {
		if ds, ok := obj.(*hdf5.Dataset); ok {
			sets[p] = ds
		}
	})
	need := func(p string) (*hdf5.Dataset, error) {
		ds := sets[p]
		if ds == nil {
			return nil, g.fail("no dataset %s (is this a GCTX file?)", p)
		}
		return ds, nil
	}
	m := &Matrix{Version: "1.3", RowMeta: []Field{}, ColMeta: []Field{}}
	for _, grp := range []struct {
		prefix string
		ids    *[]string
		meta   *[]Field
	}{{gctxRowMeta, &m.Rows, &m.RowMeta}, {gctxColMeta, &m.Cols, &m.ColMeta}} {
		ds, err := need(grp.prefix + "id")
		if err != nil {
			return nil, err
		}
		if *grp.ids, err = gctxStrings(ds); err != nil {
			return nil, g.fail("%sid: %v", grp.prefix, err)
		}
		var names []string
		for p := range sets {
			if strings.HasPrefix(p, grp.prefix) && p != grp.prefix+"id" && !strings.Contains(p[len(grp.prefix):], "/") {
				names = append(names, p)
			}
		}
		sort.Strings(names)
		for _, p := range names {
			vals, err := gctxStrings(sets[p])
			if err != nil {
				return nil, g.fail("%s: %v", p, err)
			}
			if len(vals) != len(*grp.ids) {
				return nil, g.fail("%s has %d values for %d ids", p, len(vals), len(*grp.ids))
			}
			*grp.meta = append(*grp.meta, Field{Name: p[len(grp.prefix):], Values: vals})
		}
	}
	if g.matrix, err = need(gctxMatrix); err != nil {
		return nil, err
	}
	g.m = m
	return g, nil
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
