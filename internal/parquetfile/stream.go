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

// Writer streams records of one schema into a Parquet file, one row group
// per Write, with the settings of Write (Snappy, the Arrow schema stored).
// The schema's metadata becomes the file's key-value metadata. Use it for
// tables too large to hold as one record.
type Writer struct {
	fw *pqarrow.FileWriter
}

// NewWriter starts a Parquet file of schema on w, using mem for buffers.
// w stays the caller's: Close does not close it.
func NewWriter(w io.Writer, schema *arrow.Schema, mem memory.Allocator) (*Writer, error) {
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithAllocator(mem))
	fw, err := pqarrow.NewFileWriter(schema, struct{ io.Writer }{w}, props, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem), pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	return &Writer{fw: fw}, nil
}

// Write writes rec (of the writer's schema) as one row group.
func (w *Writer) Write(rec arrow.Record) error {
	if err := w.fw.Write(rec); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}

// Close writes the file's footer. The writer is unusable afterwards.
func (w *Writer) Close() error {
	if err := w.fw.Close(); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}
