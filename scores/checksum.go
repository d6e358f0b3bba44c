package scores

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// Checksum is an order-independent digest of rows: their count and two
// 64-bit lanes, each the sum modulo 2^64 of a part of the SHA-256 of each
// row's canonical bytes. Sums of parts add up to the sum of the whole.
// The zero value is the checksum of no rows.
type Checksum struct {
	Rows int64
	Sum  [2]uint64
}

// Add adds the checksum of other rows.
func (c *Checksum) Add(o Checksum) {
	c.Rows += o.Rows
	c.Sum[0] += o.Sum[0]
	c.Sum[1] += o.Sum[1]
}

// String is "rows:lane0:lane1", the lanes in hex.
func (c Checksum) String() string { return fmt.Sprintf("%d:%016x:%016x", c.Rows, c.Sum[0], c.Sum[1]) }

// AddRecord adds the rows of rec, each prefixed by cellLine. Columns may
// be strings, float64s, int64s or booleans (nullable); others are an error.
func (c *Checksum) AddRecord(cellLine string, rec arrow.Record) error {
	cols := rec.Columns()
	for i, col := range cols {
		switch col.(type) {
		case *array.String, *array.Float64, *array.Int64, *array.Boolean:
		default:
			return fmt.Errorf("column %s: type %s not supported by the checksum", rec.ColumnName(i), col.DataType())
		}
	}
	var buf []byte
	appendStr := func(s string) {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	for r := 0; r < int(rec.NumRows()); r++ {
		buf = buf[:0]
		appendStr(cellLine)
		for _, col := range cols {
			if col.IsNull(r) {
				buf = append(buf, 0)
				continue
			}
			buf = append(buf, 1)
			switch a := col.(type) {
			case *array.String:
				appendStr(a.Value(r))
			case *array.Float64:
				buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(a.Value(r)))
			case *array.Int64:
				buf = binary.LittleEndian.AppendUint64(buf, uint64(a.Value(r)))
			case *array.Boolean:
				b := byte(0)
				if a.Value(r) {
					b = 1
				}
				buf = append(buf, b)
			}
		}
		h := sha256.Sum256(buf)
		c.Sum[0] += binary.LittleEndian.Uint64(h[0:8])
		c.Sum[1] += binary.LittleEndian.Uint64(h[8:16])
		c.Rows++
	}
	return nil
}
