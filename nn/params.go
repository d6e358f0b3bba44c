package nn

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// Param is one named float32 tensor of a network (row-major Data).
type Param struct {
	Name  string
	Shape []int
	Data  []float32
}

// Params is an ordered set of named float32 tensors.
type Params []*Param

// paramsMagic starts the binary format of Params.Save.
const paramsMagic = "DEUPNN1\n"

// Limits of a parameter file, checked before anything is allocated.
const (
	maxParams    = 1 << 16
	maxNameLen   = 1 << 10
	maxDims      = 8
	maxParamSize = 1 << 31 // elements
)

// Save writes the parameters in the project's one binary format for
// network parameters (little-endian):
//
//	"DEUPNN1\n", uint32 count, then per parameter: uint32 name length,
//	name bytes, uint32 number of dims, uint64 each dim, float32 values.
func (p Params) Save(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(paramsMagic)
	var buf [8]byte
	u32 := func(v uint32) { binary.LittleEndian.PutUint32(buf[:4], v); bw.Write(buf[:4]) }
	u32(uint32(len(p)))
	for _, q := range p {
		if err := q.check(); err != nil {
			return err
		}
		u32(uint32(len(q.Name)))
		bw.WriteString(q.Name)
		u32(uint32(len(q.Shape)))
		for _, d := range q.Shape {
			binary.LittleEndian.PutUint64(buf[:], uint64(d))
			bw.Write(buf[:])
		}
		for _, v := range q.Data {
			u32(math.Float32bits(v))
		}
	}
	return bw.Flush()
}

// size is the number of elements of the shape.
func size(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func (q *Param) check() error {
	if len(q.Name) == 0 || len(q.Name) > maxNameLen || len(q.Shape) > maxDims || size(q.Shape) != len(q.Data) {
		return fmt.Errorf("nn: parameter %q: shape %v with %d values", q.Name, q.Shape, len(q.Data))
	}
	return nil
}

// Load reads parameters written by Save into p's tensors: the file must
// hold exactly p's names and shapes, in order (checked before each
// tensor's values are read; nothing is allocated from sizes in the file).
// Errors name the parameter and the byte offset; on error p is unchanged.
func (p Params) Load(r io.Reader) error {
	cr := &countReader{r: bufio.NewReader(r)}
	fail := func(format string, a ...any) error {
		return fmt.Errorf("nn: parameters: byte %d: %s", cr.n, fmt.Sprintf(format, a...))
	}
	var buf [8]byte
	read := func(k int) error {
		_, err := io.ReadFull(cr, buf[:k])
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	var staged [][]float32
	magic := make([]byte, len(paramsMagic))
	if _, err := io.ReadFull(cr, magic); err != nil || string(magic) != paramsMagic {
		return fail("not a parameter file (want header %q)", paramsMagic)
	}
	if err := read(4); err != nil {
		return fail("%v", err)
	}
	if n := binary.LittleEndian.Uint32(buf[:4]); int64(n) != int64(len(p)) {
		return fail("%d parameters, want %d", n, len(p))
	}
	for _, q := range p {
		if err := read(4); err != nil {
			return fail("%s: %v", q.Name, err)
		}
		nl := binary.LittleEndian.Uint32(buf[:4])
		if int64(nl) != int64(len(q.Name)) {
			return fail("name of length %d, want %q", nl, q.Name)
		}
		name := make([]byte, nl)
		if _, err := io.ReadFull(cr, name); err != nil {
			return fail("%s: %v", q.Name, io.ErrUnexpectedEOF)
		}
		if string(name) != q.Name {
			return fail("parameter %q, want %q", name, q.Name)
		}
		if err := read(4); err != nil {
			return fail("%s: %v", q.Name, err)
		}
		if nd := binary.LittleEndian.Uint32(buf[:4]); int64(nd) != int64(len(q.Shape)) {
			return fail("%s: %d dimensions, want %d", q.Name, nd, len(q.Shape))
		}
		for i, d := range q.Shape {
			if err := read(8); err != nil {
				return fail("%s: %v", q.Name, err)
			}
			if v := binary.LittleEndian.Uint64(buf[:]); v != uint64(d) {
				return fail("%s: dimension %d is %d, want %d", q.Name, i, v, d)
			}
		}
		if len(q.Data) != size(q.Shape) {
			return fmt.Errorf("nn: parameter %s: %d values for shape %v", q.Name, len(q.Data), q.Shape)
		}
		v := make([]float32, len(q.Data)) // sized from p, not from the file
		for i := range v {
			if err := read(4); err != nil {
				return fail("%s: %v", q.Name, err)
			}
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(buf[:4]))
		}
		staged = append(staged, v)
	}
	if _, err := cr.Read(buf[:1]); err != io.EOF {
		return fail("data after the last parameter")
	}
	for i, q := range p {
		copy(q.Data, staged[i])
	}
	return nil
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}
