package arrowguard

import (
	"errors"
	"fmt"
	"io"
	"sort"
)

// The pages of every column chunk are walked before arrow-go reads them,
// because arrow-go v15's page reader trusts their headers: on a page of a
// type it does not know it loops without end (fuzzing found a 1,298-byte
// file on which it allocated a 64-byte buffer per turn, a million of them
// in 20 s, until the budget stopped it; with a page size of 0 nothing
// would have), and it allocates each page's declared uncompressed size.
//
// For each ColumnMetaData of the footer, checkPages does what arrow-go's
// GetColumnPageReader and page reader do: it starts at the dictionary
// page offset when one is set and lies before the data page offset, else
// at the data page offset, and reads page after page until the data
// pages' values reach the chunk's num_values (arrow-go's condition), or
// the bytes run out: the chunk's total_compressed_size, plus up to 100
// bytes that arrow-go adds for files of old writers. Each page header must be well-formed
// Thrift whose strings fit in the chunk's bytes, of type DATA_PAGE,
// DICTIONARY_PAGE or DATA_PAGE_V2 (INDEX_PAGE and unknown types are
// refused), with a compressed size within the chunk and an uncompressed
// size within Budget(size). Column chunks must not overlap (beyond those
// 100 bytes), so the pages walked, here and by arrow-go, total at most the
// file's size.

// chunkRange is what the footer says of one column chunk.
type chunkRange struct {
	values, compressed, dataOff, dictOff int64
	hasDict, done                        bool
}

func (c *chunkRange) set(field int16, v int64) {
	switch field {
	case 5:
		c.values = v
	case 7:
		c.compressed = v
	case 9:
		c.dataOff = v
	case 11:
		c.dictOff, c.hasDict = v, true
	}
}

// start is where arrow-go starts reading the chunk.
func (c *chunkRange) start() int64 {
	if c.hasDict && c.dictOff > 0 && c.dataOff > c.dictOff {
		return c.dictOff
	}
	return c.dataOff
}

// pageHeader holds the fields of a PageHeader that the walk needs.
type pageHeader struct {
	typ, uncompressed, compressed, values int64
	hasType, hasSizes                     int
}

// Page types (parquet.thrift).
const (
	pageData, pageIndex, pageDict, pageDataV2 = 0, 1, 2, 3
)

// set records a PageHeader integer at path: type (1), uncompressed (2) and
// compressed (3) page sizes, and the values of a data page (5.1, 8.1).
func (p *pageHeader) set(path []int16, v, budget, maxRows int64) error {
	switch {
	case len(path) == 1 && path[0] == 1:
		p.typ = v
		p.hasType++
	case len(path) == 1 && (path[0] == 2 || path[0] == 3):
		if v < 0 || v > budget {
			return fmt.Errorf("a page size of %d bytes (at most %d for the file's size)", v, budget)
		}
		if path[0] == 2 {
			p.uncompressed = v
		} else {
			p.compressed = v
		}
		p.hasSizes++
	case len(path) == 2 && (path[0] == 5 || path[0] == 8) && path[1] == 1:
		if v < 0 || v > maxRows {
			return fmt.Errorf("%d values in a page (at most %d for the file's size)", v, maxRows)
		}
		p.values = v
	}
	return nil
}

// maxHeader is the largest page header arrow-go reads (its default
// maximum, 16 MiB).
const maxHeader = 16 << 20

// oldWriterPadding is how far past a chunk's end arrow-go may read (its
// maxDictHeaderSize, for files of parquet-mr 1.2.8 and older).
const oldWriterPadding = 100

func checkPages(r io.ReaderAt, size int64, chunks []chunkRange) error {
	type span struct{ from, to int64 }
	spans := make([]span, 0, len(chunks))
	for i, c := range chunks {
		if c.values == 0 {
			continue // arrow-go reads no page of an empty chunk (its offsets may be 0)
		}
		from := c.start()
		if from < 4 || c.compressed < 0 || from+c.compressed > size-8 {
			return fmt.Errorf("parquet: column chunk %d: bytes %d to %d are not inside the file's %d bytes of data", i+1, from, from+c.compressed, size-8)
		}
		spans = append(spans, span{from, from + c.compressed})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
	for i := 1; i < len(spans); i++ {
		if spans[i].from < spans[i-1].to {
			return fmt.Errorf("parquet: column chunks overlap (bytes %d to %d and %d to %d)", spans[i-1].from, spans[i-1].to, spans[i].from, spans[i].to)
		}
	}
	var buf []byte
	for i, c := range chunks {
		if c.values == 0 {
			continue
		}
		from := c.start()
		end := from + c.compressed
		limit := min(end+oldWriterPadding, size)
		var seen int64
		for pos, n := from, 0; seen < c.values && pos < limit; n++ {
			h, hlen, err := readPageHeader(r, pos, limit, size, &buf)
			if err != nil {
				return fmt.Errorf("parquet: column chunk %d, page %d (byte %d): %w", i+1, n+1, pos, err)
			}
			pos += hlen + h.compressed
			if pos > limit {
				return fmt.Errorf("parquet: column chunk %d, page %d: its %d bytes run past the chunk's end at byte %d", i+1, n+1, h.compressed, end)
			}
			if h.typ == pageData || h.typ == pageDataV2 {
				seen += h.values
			}
		}
	}
	return nil
}

// readPageHeader walks the page header at pos (its bytes end by limit)
// and returns its fields and length. buf is reused between calls.
func readPageHeader(r io.ReaderAt, pos, limit, size int64, buf *[]byte) (*pageHeader, int64, error) {
	for window := int64(16 << 10); ; window *= 2 {
		n := min(window, limit-pos, maxHeader)
		if n <= 0 {
			return nil, 0, errors.New("no bytes left for a page header")
		}
		if int64(cap(*buf)) < n {
			*buf = make([]byte, n)
		}
		b := (*buf)[:n]
		if _, err := r.ReadAt(b, pos); err != nil && !errors.Is(err, io.EOF) {
			return nil, 0, err
		}
		w := &thriftWalker{b: b, size: size, budget: Budget(size), maxRows: 8 * Budget(size), page: &pageHeader{}}
		err := w.structure(0, nil)
		if errors.Is(err, errThriftEOF) && n < min(limit-pos, maxHeader) {
			continue // a longer header: read more, as arrow-go does
		}
		if err != nil {
			return nil, 0, err
		}
		h := w.page
		switch {
		case h.hasType != 1 || h.hasSizes != 2:
			return nil, 0, errors.New("a page header without its type or sizes")
		case h.typ != pageData && h.typ != pageDict && h.typ != pageDataV2:
			return nil, 0, fmt.Errorf("page type %d: only data and dictionary pages are read", h.typ)
		}
		return h, int64(w.pos), nil
	}
}
