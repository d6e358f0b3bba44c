package arrowguard

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// CheckParquet checks the footer of the Parquet file of size bytes in r:
// the magic at both ends, the footer length, and every length in the
// footer's Thrift (compact protocol) metadata: each string and list fits
// in the bytes left, structs nest at most 64 deep, and the counts, sizes
// and offsets arrow-go trusts are in range (see checkInt; row counts are
// at most 8 × Budget(size): a row of any column takes at least a bit in
// Arrow). Encrypted footers ("PARE") are refused.
func CheckParquet(r io.ReaderAt, size int64) error {
	if size < 12 {
		return fmt.Errorf("parquet: a %d-byte file is too small", size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	switch string(tail[4:]) {
	case "PAR1":
	case "PARE":
		return errors.New("parquet: encrypted footer: not supported")
	default:
		return errors.New("parquet: no closing magic (truncated?)")
	}
	n := int64(binary.LittleEndian.Uint32(tail[:]))
	if n <= 0 || n > size-12 {
		return fmt.Errorf("parquet: footer length %d in a %d-byte file", n, size)
	}
	meta := make([]byte, n)
	if _, err := r.ReadAt(meta, size-8-n); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	w := &thriftWalker{b: meta, size: size, budget: Budget(size), maxRows: 8 * Budget(size)}
	if err := w.structure(0, nil); err != nil {
		return fmt.Errorf("parquet: footer byte %d: %w", w.pos, err)
	}
	return checkPages(r, size, w.chunks)
}

// thriftWalker reads Thrift compact protocol without building anything.
// Walking a footer, it collects the column chunks' page ranges; walking a
// page header (page set), the header's sizes.
type thriftWalker struct {
	b       []byte
	pos     int
	size    int64 // of the file
	budget  int64 // Budget(size)
	maxRows int64

	chunks []chunkRange // footer: one per ColumnMetaData
	page   *pageHeader  // page header: its fields
}

var errThriftEOF = errors.New("truncated metadata")

func (w *thriftWalker) byte1() (byte, error) {
	if w.pos >= len(w.b) {
		return 0, errThriftEOF
	}
	c := w.b[w.pos]
	w.pos++
	return c, nil
}

func (w *thriftWalker) uvarint() (uint64, error) {
	v, n := binary.Uvarint(w.b[w.pos:])
	if n <= 0 {
		return 0, errThriftEOF
	}
	w.pos += n
	return v, nil
}

func (w *thriftWalker) varint() (int64, error) {
	u, err := w.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

// length reads a collection or string length, which must fit in the
// bytes left at minElem bytes per element.
func (w *thriftWalker) length(n int64, minElem int) (int, error) {
	if n < 0 || n*int64(minElem) > int64(len(w.b)-w.pos) {
		return 0, fmt.Errorf("a length of %d in %d bytes left", n, len(w.b)-w.pos)
	}
	return int(n), nil
}

// Compact protocol types.
const (
	tStop, tTrue, tFalse, tByte, tI16, tI32, tI64, tDouble, tBinary, tList, tSet, tMap, tStruct = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
)

// structure walks a struct; path holds the field ids that lead to it.
func (w *thriftWalker) structure(depth int, path []int16) error {
	if depth > 64 {
		return errors.New("structs nested more than 64 deep")
	}
	id := int16(0)
	for {
		h, err := w.byte1()
		if err != nil {
			return err
		}
		typ := h & 0x0f
		if typ == tStop {
			return nil
		}
		if d := h >> 4; d != 0 {
			id += int16(d)
		} else {
			v, err := w.varint()
			if err != nil {
				return err
			}
			id = int16(v)
		}
		if err := w.value(typ, depth, append(path, id)); err != nil {
			return err
		}
	}
}

// value walks one value of compact type typ.
func (w *thriftWalker) value(typ byte, depth int, path []int16) error {
	switch typ {
	case tTrue, tFalse:
		return nil
	case tByte:
		_, err := w.byte1()
		return err
	case tI16, tI32, tI64:
		v, err := w.varint()
		if err != nil {
			return err
		}
		return w.checkInt(path, v)
	case tDouble:
		if _, err := w.length(8, 1); err != nil {
			return err
		}
		w.pos += 8
		return nil
	case tBinary:
		n, err := w.uvarint()
		if err != nil {
			return err
		}
		if n > 1<<31 {
			return fmt.Errorf("a string of %d bytes", n)
		}
		ln, err := w.length(int64(n), 1)
		if err != nil {
			return err
		}
		w.pos += ln
		return nil
	case tList, tSet:
		h, err := w.byte1()
		if err != nil {
			return err
		}
		n := int64(h >> 4)
		if n == 15 {
			u, err := w.uvarint()
			if err != nil {
				return err
			}
			if u > 1<<31 {
				return fmt.Errorf("a list of %d elements", u)
			}
			n = int64(u)
		}
		et := h & 0x0f
		cnt, err := w.length(n, 1)
		if err != nil {
			return err
		}
		for i := 0; i < cnt; i++ {
			if et == tTrue || et == tFalse { // a bool in a list takes a byte
				if _, err := w.byte1(); err != nil {
					return err
				}
				continue
			}
			if err := w.value(et, depth+1, path); err != nil {
				return err
			}
		}
		return nil
	case tMap:
		u, err := w.uvarint()
		if err != nil {
			return err
		}
		if u > 1<<31 {
			return fmt.Errorf("a map of %d entries", u)
		}
		if u == 0 {
			return nil
		}
		kv, err := w.byte1()
		if err != nil {
			return err
		}
		cnt, err := w.length(int64(u), 2)
		if err != nil {
			return err
		}
		for i := 0; i < cnt; i++ {
			if err := w.value(kv>>4, depth+1, nil); err != nil {
				return err
			}
			if err := w.value(kv&0x0f, depth+1, nil); err != nil {
				return err
			}
		}
		return nil
	case tStruct:
		// A ColumnChunk's meta_data (FileMetaData 4 → RowGroup 1 →
		// ColumnChunk 3): collect its page range.
		if w.page == nil && len(path) == 3 && path[0] == 4 && path[1] == 1 && path[2] == 3 {
			w.chunks = append(w.chunks, chunkRange{})
			defer func() { w.chunks[len(w.chunks)-1].done = true }()
		}
		return w.structure(depth+1, path)
	}
	return fmt.Errorf("unknown Thrift type %d", typ)
}

// checkInt checks the integers of the footer that arrow-go allocates or
// seeks by (field ids from parquet.thrift):
//
//	FileMetaData.num_rows (3), RowGroup.num_rows (4.3),
//	ColumnMetaData.num_values (4.1.3.5)                       0..8×Budget
//	ColumnMetaData.total_uncompressed_size (4.1.3.6)          0..Budget
//	ColumnMetaData.total_compressed_size (4.1.3.7) and the
//	data, index and dictionary page offsets (4.1.3.9-11)      0..size
//	SchemaElement.type_length (2.2)                           0..size
//	SchemaElement.num_children (2.5)                          0..footer size
//
// (arrow-go reads a column chunk with make([]byte, total_compressed_size)
// outside any allocator, and seeks to the page offsets).
func (w *thriftWalker) checkInt(path []int16, v int64) error {
	if w.page != nil {
		return w.page.set(path, v, w.budget, w.maxRows)
	}
	if n := len(w.chunks); n > 0 && !w.chunks[n-1].done && len(path) == 4 && path[0] == 4 && path[1] == 1 && path[2] == 3 {
		w.chunks[n-1].set(path[3], v)
	}
	var max int64 = -1
	name := ""
	switch {
	case len(path) == 1 && path[0] == 3, len(path) == 2 && path[0] == 4 && path[1] == 3:
		max, name = w.maxRows, "rows"
	case len(path) == 4 && path[0] == 4 && path[1] == 1 && path[2] == 3:
		switch path[3] {
		case 5:
			max, name = w.maxRows, "values in a column chunk"
		case 6:
			max, name = w.budget, "uncompressed bytes in a column chunk"
		case 7:
			max, name = w.size, "compressed bytes in a column chunk"
		case 9, 10, 11:
			max, name = w.size, "as a page offset"
		}
	case len(path) == 2 && path[0] == 2 && path[1] == 2:
		max, name = w.size, "as a fixed type length"
	case len(path) == 2 && path[0] == 2 && path[1] == 5:
		max, name = int64(len(w.b)), "as a child count"
	}
	if max >= 0 && (v < 0 || v > max) {
		return fmt.Errorf("%d %s (at most %d for the file's size)", v, name, max)
	}
	return nil
}
