package drugcomb

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// checkIPCStream walks the messages of an Arrow IPC stream and checks the
// parts of their flatbuffer metadata that arrow-go v15 trusts blindly: the
// lengths of the vectors it allocates slices for (schema fields and their
// children, metadata, union type ids; record batch nodes and buffers) and
// the bounds of the message bodies and of the buffers within them. A
// corrupt length would otherwise make the reader allocate terabytes, a
// fatal error no recover can catch. It does not check what arrow-go checks
// itself.
func checkIPCStream(b []byte) error {
	pos := 0
	for n := 0; pos < len(b); n++ {
		if len(b)-pos < 4 {
			return fmt.Errorf("arrow ipc: message %d: truncated header", n)
		}
		ml := int64(binary.LittleEndian.Uint32(b[pos:]))
		pos += 4
		if ml == 0xffffffff {
			if len(b)-pos < 4 {
				return fmt.Errorf("arrow ipc: message %d: truncated header", n)
			}
			ml = int64(int32(binary.LittleEndian.Uint32(b[pos:])))
			pos += 4
		}
		if ml == 0 {
			return nil // end of stream
		}
		if ml < 0 || ml > int64(len(b)-pos) {
			return fmt.Errorf("arrow ipc: message %d: metadata length %d beyond the %d bytes left", n, ml, len(b)-pos)
		}
		fb := fbuf(b[pos : pos+int(ml)])
		pos += int(ml)
		body, err := fb.checkMessage()
		if err != nil {
			return fmt.Errorf("arrow ipc: message %d: %w", n, err)
		}
		if body < 0 || body > int64(len(b)-pos) {
			return fmt.Errorf("arrow ipc: message %d: body of %d bytes beyond the %d bytes left", n, body, len(b)-pos)
		}
		pos += int(body)
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
	vt := t - int(int32(so))
	vsize, ok := f.u16(vt)
	if !ok || vt < 0 {
		return 0, errFB
	}
	if 4+2*i+2 > int(vsize) {
		return 0, nil
	}
	off, ok := f.u16(vt + 4 + 2*i)
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

// checkMessage checks a Message table and returns its body length.
func (f fbuf) checkMessage() (int64, error) {
	m, err := f.root()
	if err != nil {
		return 0, err
	}
	var body int64
	if p, err := f.field(m, 3); err != nil {
		return 0, err
	} else if p != 0 {
		if p+8 > len(f) {
			return 0, errFB
		}
		body = int64(binary.LittleEndian.Uint64(f[p:]))
	}
	if err := f.tables(m, 4, f.checkKeyValue); err != nil {
		return 0, err
	}
	tp, err := f.field(m, 1)
	if err != nil {
		return 0, err
	}
	htype := 0
	if tp != 0 {
		htype = int(f[tp])
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
			return body, f.checkRecordBatch(rb, body)
		}
	case 3: // RecordBatch
		return body, f.checkRecordBatch(h, body)
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
	tp, err := f.field(fl, 2)
	if err != nil {
		return err
	}
	typ, err := f.table(fl, 3)
	if err != nil {
		return err
	}
	if tp != 0 && f[tp] == 14 && typ != 0 { // Union: typeIds
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

func (f fbuf) checkRecordBatch(rb int, body int64) error {
	if _, _, err := f.vector(rb, 1, 16); err != nil { // nodes
		return err
	}
	start, n, err := f.vector(rb, 2, 16) // buffers: (offset, length) int64 pairs
	if err != nil {
		return err
	}
	for k := 0; k < n; k++ {
		p := start + 16*k
		off := int64(binary.LittleEndian.Uint64(f[p:]))
		ln := int64(binary.LittleEndian.Uint64(f[p+8:]))
		if off < 0 || ln < 0 || off > body || ln > body-off {
			return fmt.Errorf("%w: buffer %d at %d+%d outside the %d-byte body", errFB, k, off, ln, body)
		}
	}
	if _, err := f.table(rb, 3); err != nil {
		return err
	}
	_, _, err = f.vector(rb, 4, 8)
	return err
}
