package arrowguard

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// Size returns the size of r by seeking to its end, and seeks back to the
// start.
func Size(r io.Seeker) (int64, error) {
	n, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return 0, err
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	return n, nil
}

// ReadIPC checks the Arrow IPC file or stream of size bytes in r with
// CheckIPC and reads all its record batches, in the calling goroutine,
// holding at most Budget(size) bytes of buffers from mem (nil: the default
// allocator). Of a file only the stream part is read, with the stream
// reader: the footer repeats the schema and indexes the batches, and
// arrow-go v15's FileReader never releases the dictionaries it reads.
// The table's schema carries the schema metadata; the caller releases the
// table. Errors do not name the file: callers add the name.
func ReadIPC(r io.ReaderAt, size int64, mem memory.Allocator) (t arrow.Table, err error) {
	if err := CheckIPC(r, size); err != nil {
		return nil, err
	}
	lim := Allocator(mem, size)
	start, end := int64(0), size
	head := make([]byte, min(size, 8))
	r.ReadAt(head, 0) // CheckIPC has read it
	if bytes.HasPrefix(head, []byte(ipcMagic)) {
		var tail [10]byte
		r.ReadAt(tail[:], size-10)
		start, end = 8, size-10-int64(binary.LittleEndian.Uint32(tail[:]))
	}
	var recs []arrow.Record
	defer func() {
		for _, rec := range recs {
			rec.Release()
		}
	}()
	defer Recover(&err, "arrow ipc")
	rd, err := ipc.NewReader(io.NewSectionReader(r, start, end-start), ipc.WithAllocator(lim))
	if err != nil {
		return nil, err
	}
	defer rd.Release()
	for rd.Next() {
		rec := rd.Record()
		rec.Retain()
		recs = append(recs, rec)
	}
	if err := rd.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return array.NewTableFromRecords(rd.Schema(), recs), nil
}

// ReadParquet checks the Parquet file of size bytes in r with CheckParquet
// and reads it whole, in the calling goroutine (pqarrow's ReadTable reads
// in goroutines of its own, where a panic on a corrupt file could not be
// recovered), holding at most Budget(size) bytes of buffers from mem (nil:
// the default allocator). The table's schema carries the file's key-value
// metadata; the caller releases the table. Errors do not name the file.
func ReadParquet(r parquet.ReaderAtSeeker, size int64, mem memory.Allocator) (t arrow.Table, err error) {
	if err := CheckParquet(r, size); err != nil {
		return nil, err
	}
	lim := Allocator(mem, size)
	defer Recover(&err, "parquet")
	pf, err := file.NewParquetReader(r, file.WithReadProps(parquet.NewReaderProperties(lim)))
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, lim)
	if err != nil {
		return nil, err
	}
	sc, err := fr.Schema()
	if err != nil {
		return nil, err
	}
	// Column by column with GetFieldReader: GetFieldReaders and
	// GetRecordReader start goroutines (errgroup) even when not parallel.
	included := make(map[int]bool)
	for i := 0; i < pf.MetaData().Schema.NumColumns(); i++ {
		included[i] = true
	}
	groups := make([]int, pf.NumRowGroups())
	for i := range groups {
		groups[i] = i
	}
	var cols []arrow.Column
	defer func() {
		for j := range cols {
			cols[j].Release()
		}
	}()
	rows := pf.NumRows()
	for i := 0; i < sc.NumFields(); i++ {
		rd, err := fr.GetFieldReader(context.Background(), i, included, groups)
		if err != nil {
			return nil, err
		}
		if rd == nil {
			return nil, fmt.Errorf("parquet: no reader for column %q", sc.Field(i).Name)
		}
		ch, err := fr.ReadColumn(groups, rd)
		rd.Release()
		if err != nil {
			return nil, fmt.Errorf("parquet: column %q: %w", sc.Field(i).Name, err)
		}
		col := arrow.NewColumn(sc.Field(i), ch)
		ch.Release()
		cols = append(cols, *col)
		if int64(col.Len()) != rows {
			return nil, fmt.Errorf("parquet: column %q has %d rows, the footer declares %d", sc.Field(i).Name, col.Len(), rows)
		}
	}
	return array.NewTable(sc, cols, rows), nil
}
