// Package parquetfile writes an Arrow record as a Parquet file: the one
// writer the commands' tabular outputs share (Snappy compression, the Arrow
// schema stored in the file so that readers recover the exact types).
package parquetfile

import (
	"fmt"
	"io"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// Write writes rec to w as one Parquet row group, using mem for buffers.
// w stays the caller's: it is not closed.
func Write(w io.Writer, rec arrow.Record, mem memory.Allocator) error {
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithAllocator(mem))
	// pqarrow closes its sink if it can: hide Close.
	fw, err := pqarrow.NewFileWriter(rec.Schema(), struct{ io.Writer }{w}, props, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem), pqarrow.WithStoreSchema()))
	if err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	if err := fw.Write(rec); err != nil {
		fw.Close()
		return fmt.Errorf("parquet: %w", err)
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}
