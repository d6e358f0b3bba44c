package arrowguard

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// ipcMagic starts and ends an Arrow IPC file.
const ipcMagic = "ARROW1"

// CheckIPC checks the Arrow IPC file or stream of size bytes in r: an IPC
// file (starting with "ARROW1") is checked message by message along its
// stream part and along the blocks its footer lists; anything else as a
// stream. See the package documentation for what is checked.
func CheckIPC(r io.ReaderAt, size int64) error {
	c := &ipcChecker{r: r, size: size}
	head := make([]byte, min(size, 8))
	if _, err := r.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if !bytes.HasPrefix(head, []byte(ipcMagic)) {
		_, err := c.stream(0, size)
		return err
	}
	if size < 8+10 {
		return errors.New("arrow ipc: truncated file (no footer)")
	}
	tail, err := c.read(size-10, 10)
	if err != nil {
		return err
	}
	if string(tail[4:]) != ipcMagic {
		return errors.New("arrow ipc: truncated file (no closing magic)")
	}
	flen := int64(binary.LittleEndian.Uint32(tail))
	end := size - 10 - flen
	if flen <= 0 || end < 8 {
		return fmt.Errorf("arrow ipc: footer length %d in a %d-byte file", flen, size)
	}
	if _, err := c.stream(8, end); err != nil {
		return err
	}
	footer, err := c.read(end, flen)
	if err != nil {
		return err
	}
	if err := c.checkFooter(fbuf(footer)); err != nil {
		return fmt.Errorf("arrow ipc: footer: %w", err)
	}
	return nil
}

type ipcChecker struct {
	r    io.ReaderAt
	size int64
	// inflated sums the declared uncompressed sizes of compressed buffers.
	inflated int64
}

// read returns n bytes at off, which the caller has checked lie in the file.
func (c *ipcChecker) read(off, n int64) ([]byte, error) {
	if off < 0 || n < 0 || n > c.size-off {
		return nil, fmt.Errorf("arrow ipc: %d bytes at %d beyond the %d-byte file", n, off, c.size)
	}
	b := make([]byte, n)
	if _, err := c.r.ReadAt(b, off); err != nil && !(errors.Is(err, io.EOF) && n == 0) {
		return nil, fmt.Errorf("arrow ipc: %w", err)
	}
	return b, nil
}

// stream walks the messages of the stream in [pos, end) and returns the
// position after the last one read.
func (c *ipcChecker) stream(pos, end int64) (int64, error) {
	for n := 0; pos < end; n++ {
		next, eos, err := c.message(pos, end)
		if err != nil {
			return 0, fmt.Errorf("arrow ipc: message %d at byte %d: %w", n, pos, err)
		}
		if eos {
			return next, nil
		}
		pos = next
	}
	return pos, nil
}

// message checks the encapsulated message at pos (continuation marker,
// metadata length, flatbuffer, body) and returns the position after it.
func (c *ipcChecker) message(pos, end int64) (next int64, eos bool, err error) {
	if end-pos < 4 {
		return 0, false, errors.New("truncated header")
	}
	h, err := c.read(pos, min(8, end-pos))
	if err != nil {
		return 0, false, err
	}
	ml := int64(binary.LittleEndian.Uint32(h))
	pos += 4
	if ml == 0xffffffff {
		if len(h) < 8 {
			return 0, false, errors.New("truncated header")
		}
		ml = int64(int32(binary.LittleEndian.Uint32(h[4:])))
		pos += 4
	}
	if ml == 0 {
		return pos, true, nil // end of stream
	}
	if ml < 0 || ml > end-pos {
		return 0, false, fmt.Errorf("metadata length %d beyond the %d bytes left", ml, end-pos)
	}
	meta, err := c.read(pos, ml)
	if err != nil {
		return 0, false, err
	}
	pos += ml
	body, err := c.checkMessage(fbuf(meta), pos, end)
	if err != nil {
		return 0, false, err
	}
	return pos + body, false, nil
}

// checkFooter checks the footer of an IPC file: its schema, and each block
// (offset int64, metadata length int32, padding, body length int64) of
// dictionaries and record batches as a message lying where it says.
func (c *ipcChecker) checkFooter(f fbuf) error {
	ft, err := f.root()
	if err != nil {
		return err
	}
	s, err := f.table(ft, 1)
	if err != nil {
		return err
	}
	if s != 0 {
		if err := f.checkSchema(s); err != nil {
			return err
		}
	}
	if err := f.tables(ft, 4, f.checkKeyValue); err != nil {
		return err
	}
	for _, field := range []int{2, 3} {
		start, n, err := f.vector(ft, field, 24)
		if err != nil {
			return err
		}
		for k := 0; k < n; k++ {
			p := start + 24*k
			off := int64(binary.LittleEndian.Uint64(f[p:]))
			ml := int64(int32(binary.LittleEndian.Uint32(f[p+8:])))
			bl := int64(binary.LittleEndian.Uint64(f[p+16:]))
			if off < 8 || ml < 8 || bl < 0 || off > c.size || ml > c.size-off || bl > c.size-off-ml {
				return fmt.Errorf("block %d at %d (metadata %d, body %d bytes) outside the %d-byte file", k, off, ml, bl, c.size)
			}
			next, eos, err := c.message(off, off+ml+bl)
			if err != nil {
				return fmt.Errorf("block %d at byte %d: %w", k, off, err)
			}
			if eos || next > off+ml+bl {
				return fmt.Errorf("block %d at byte %d: message does not fit its block", k, off)
			}
		}
	}
	return nil
}

var errFB = errors.New("corrupt flatbuffer metadata")

// fbuf is a flatbuffer with bounds-checked accessors.
type fbuf []byte

func (f fbuf) u32(p int) (uint32, bool) {
	if p < 0 || p+4 > len(f) {
		return 0, false
	}
	return binary.LittleEndian.Uint32(f[p:]), true
}

func (f fbuf) u16(p int) (uint16, bool) {
	if p < 0 || p+2 > len(f) {
		return 0, false
	}
	return binary.LittleEndian.Uint16(f[p:]), true
}

func (f fbuf) i64(p int) (int64, bool) {
	if p < 0 || p+8 > len(f) {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint64(f[p:])), true
}

// root returns the position of the root table.
func (f fbuf) root() (int, error) {
	off, ok := f.u32(0)
	if !ok || int64(off) >= int64(len(f)) {
		return 0, errFB
	}
	return int(off), nil
}

// field returns the position of field i of the table at t, 0 if absent.
func (f fbuf) field(t, i int) (int, error) {
	so, ok := f.u32(t)
	if !ok {
		return 0, errFB
	}
	vt := int64(t) - int64(int32(so))
	if vt < 0 || vt > int64(len(f)) {
		return 0, errFB
	}
	vsize, ok := f.u16(int(vt))
	if !ok {
		return 0, errFB
	}
	if 4+2*i >= int(vsize) { // as flatbuffers' Table.Offset reads it
		return 0, nil
	}
	off, ok := f.u16(int(vt) + 4 + 2*i)
	if !ok {
		return 0, errFB
	}
	if off == 0 {
		return 0, nil
	}
	p := t + int(off)
	if p >= len(f) {
		return 0, errFB
	}
	return p, nil
}

// scalar returns the int64 (or narrower, sign-extended from n bytes) in
// field i of table t, def if absent.
func (f fbuf) scalar(t, i, n int, def int64) (int64, error) {
	p, err := f.field(t, i)
	if err != nil || p == 0 {
		return def, err
	}
	if p+n > len(f) {
		return 0, errFB
	}
	switch n {
	case 1:
		return int64(int8(f[p])), nil
	case 2:
		return int64(int16(binary.LittleEndian.Uint16(f[p:]))), nil
	case 4:
		return int64(int32(binary.LittleEndian.Uint32(f[p:]))), nil
	}
	return int64(binary.LittleEndian.Uint64(f[p:])), nil
}

// deref follows the uoffset at p.
func (f fbuf) deref(p int) (int, error) {
	off, ok := f.u32(p)
	if !ok || int64(p)+int64(off) >= int64(len(f)) {
		return 0, errFB
	}
	return p + int(off), nil
}

// table returns the table referenced by field i of table t, 0 if absent.
func (f fbuf) table(t, i int) (int, error) {
	p, err := f.field(t, i)
	if err != nil || p == 0 {
		return 0, err
	}
	return f.deref(p)
}

// vector returns the position of the first element and the length of the
// vector in field i of table t, checking that length*elem bytes fit.
func (f fbuf) vector(t, i, elem int) (start, n int, err error) {
	p, err := f.field(t, i)
	if err != nil || p == 0 {
		return 0, 0, err
	}
	v, err := f.deref(p)
	if err != nil {
		return 0, 0, err
	}
	ln, ok := f.u32(v)
	if !ok || int64(ln)*int64(elem) > int64(len(f)-v-4) {
		return 0, 0, fmt.Errorf("%w: a vector of %d elements in a %d-byte message", errFB, ln, len(f))
	}
	return v + 4, int(ln), nil
}

// tables checks a vector of tables and calls fn on each.
func (f fbuf) tables(t, i int, fn func(int) error) error {
	start, n, err := f.vector(t, i, 4)
	if err != nil {
		return err
	}
	for k := 0; k < n; k++ {
		e, err := f.deref(start + 4*k)
		if err != nil {
			return err
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// checkMessage checks a Message table whose body starts at bodyAt and
// must end by end, and returns the body length.
func (c *ipcChecker) checkMessage(f fbuf, bodyAt, end int64) (int64, error) {
	m, err := f.root()
	if err != nil {
		return 0, err
	}
	body, err := f.scalar(m, 3, 8, 0)
	if err != nil {
		return 0, err
	}
	if body < 0 || body > end-bodyAt {
		return 0, fmt.Errorf("body of %d bytes beyond the %d bytes left", body, end-bodyAt)
	}
	if err := f.tables(m, 4, f.checkKeyValue); err != nil {
		return 0, err
	}
	htype, err := f.scalar(m, 1, 1, 0)
	if err != nil {
		return 0, err
	}
	h, err := f.table(m, 2)
	if err != nil {
		return 0, err
	}
	if h == 0 {
		return body, nil
	}
	switch htype {
	case 1: // Schema
		return body, f.checkSchema(h)
	case 2: // DictionaryBatch
		rb, err := f.table(h, 1)
		if err != nil {
			return 0, err
		}
		if rb != 0 {
			return body, c.checkRecordBatch(f, rb, bodyAt, body)
		}
	case 3: // RecordBatch
		return body, c.checkRecordBatch(f, h, bodyAt, body)
	}
	return body, nil
}

func (f fbuf) checkKeyValue(kv int) error {
	for i := 0; i < 2; i++ {
		if _, _, err := f.vector(kv, i, 1); err != nil {
			return err
		}
	}
	return nil
}

func (f fbuf) checkSchema(s int) error {
	if err := f.tables(s, 1, func(fl int) error { return f.checkField(fl, 0) }); err != nil {
		return err
	}
	if err := f.tables(s, 2, f.checkKeyValue); err != nil {
		return err
	}
	_, _, err := f.vector(s, 3, 8)
	return err
}

func (f fbuf) checkField(fl, depth int) error {
	if depth > 64 {
		return fmt.Errorf("%w: fields nested more than 64 deep", errFB)
	}
	if _, _, err := f.vector(fl, 0, 1); err != nil { // name
		return err
	}
	tp, err := f.scalar(fl, 2, 1, 0)
	if err != nil {
		return err
	}
	typ, err := f.table(fl, 3)
	if err != nil {
		return err
	}
	if tp == 14 && typ != 0 { // Union: typeIds
		if _, _, err := f.vector(typ, 1, 4); err != nil {
			return err
		}
	}
	if _, err := f.table(fl, 4); err != nil { // dictionary encoding
		return err
	}
	if err := f.tables(fl, 5, func(c int) error { return f.checkField(c, depth+1) }); err != nil {
		return err
	}
	return f.tables(fl, 6, f.checkKeyValue)
}

// checkRecordBatch checks a RecordBatch table (length, nodes, buffers,
// compression, variadic buffer counts) against its body of body bytes at
// bodyAt.
func (c *ipcChecker) checkRecordBatch(f fbuf, rb int, bodyAt, body int64) error {
	start, nbuf, err := f.vector(rb, 2, 16) // buffers: (offset, length) int64 pairs
	if err != nil {
		return err
	}
	comp, err := f.table(rb, 3)
	if err != nil {
		return err
	}
	inflated := int64(0) // the body's size once decompressed
	for k := 0; k < nbuf; k++ {
		p := start + 16*k
		off, _ := f.i64(p)
		ln, _ := f.i64(p + 8)
		if off < 0 || ln < 0 || off > body || ln > body-off {
			return fmt.Errorf("%w: buffer %d at %d+%d outside the %d-byte body", errFB, k, off, ln, body)
		}
		if comp == 0 || ln == 0 {
			inflated += ln
			continue
		}
		if ln < 8 {
			return fmt.Errorf("%w: compressed buffer %d of %d bytes has no length prefix", errFB, k, ln)
		}
		pre, err := c.read(bodyAt+off, 8)
		if err != nil {
			return err
		}
		u := int64(binary.LittleEndian.Uint64(pre))
		if u == -1 {
			u = ln - 8
		}
		if u < 0 || u > Budget(c.size)-c.inflated {
			return fmt.Errorf("compressed buffer %d declares %d bytes uncompressed, beyond the budget of %d for a %d-byte file", k, u, Budget(c.size), c.size)
		}
		c.inflated += u
		inflated += u
	}
	maxRows := 8*inflated + 1024
	length, err := f.scalar(rb, 0, 8, 0)
	if err != nil {
		return err
	}
	if length < 0 || length > maxRows {
		return fmt.Errorf("a record batch of %d rows with a %d-byte body (at most %d rows)", length, inflated, maxRows)
	}
	nstart, nnodes, err := f.vector(rb, 1, 16) // nodes: (length, null count) int64 pairs
	if err != nil {
		return err
	}
	for k := 0; k < nnodes; k++ {
		ln, _ := f.i64(nstart + 16*k)
		nulls, _ := f.i64(nstart + 16*k + 8)
		if ln < 0 || ln > maxRows || nulls < 0 || nulls > ln {
			return fmt.Errorf("array %d of %d rows, %d nulls, with a %d-byte body (at most %d rows)", k, ln, nulls, inflated, maxRows)
		}
	}
	vstart, nv, err := f.vector(rb, 4, 8)
	if err != nil {
		return err
	}
	for k := 0; k < nv; k++ {
		v, _ := f.i64(vstart + 8*k)
		if v < 0 || v > int64(nbuf) {
			return fmt.Errorf("variadic buffer count %d of %d: the batch has %d buffers", k, v, nbuf)
		}
	}
	return nil
}
