package almanac

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// chunkSize is how many bytes of whole lines the reading goroutine parses
// at a time.
const chunkSize = 1 << 20

// batch is a chunk of whole lines and the wells parsed from it (their byte
// fields point into buf).
type batch struct {
	buf   []byte
	wells []Well
	err   error
}

// stream reads the rest of wr's input (after the header) and calls fn for
// each well, in file order, on the calling goroutine, while another
// goroutine reads and parses the next chunks: reading and parsing overlap
// with fn's work. The *Well is valid only during the call. It returns the
// first error (a *ParseError, or a read error naming the line), after fn
// saw every well before it.
func (wr *wellReader) stream(fn func(*Well)) error {
	const nBatches = 4
	free := make(chan *batch, nBatches)
	full := make(chan *batch, nBatches)
	done := make(chan struct{})
	for range nBatches {
		free <- &batch{buf: make([]byte, 0, 64<<10)} // grown to chunkSize on large inputs
	}
	go wr.produce(free, full, done)
	for b := range full {
		for i := range b.wells {
			fn(&b.wells[i])
		}
		if b.err != nil {
			close(done)
			return b.err
		}
		free <- b
	}
	return nil
}

// produce fills batches from free with parsed wells and sends them on full
// until the input ends, an error, or done is closed.
func (wr *wellReader) produce(free <-chan *batch, full chan<- *batch, done <-chan struct{}) {
	defer close(full)
	var carry []byte
	line := wr.line
	eof := false
	for !eof {
		var b *batch
		select {
		case b = <-free:
		case <-done:
			return
		}
		b.buf = append(b.buf[:0], carry...)
		b.wells, b.err = b.wells[:0], nil
		// read until the chunk is full and holds a line end, or the input ends
		for !eof && (len(b.buf) < chunkSize || bytes.LastIndexByte(b.buf, '\n') < 0) {
			if len(b.buf) == cap(b.buf) {
				if len(b.buf) > 16<<20 {
					b.err = &ParseError{File: wr.name, Line: line + 1, Err: fmt.Errorf("%w: a line longer than 16 MiB", ErrFormat)}
					break
				}
				b.buf = append(b.buf, 0)[:len(b.buf)]
			}
			n, err := wr.r.Read(b.buf[len(b.buf):cap(b.buf)])
			b.buf = b.buf[:len(b.buf)+n]
			if errors.Is(err, io.EOF) {
				eof = true
			} else if err != nil {
				b.err = fmt.Errorf("%s:%d: %w", wr.name, line+1, err)
				break
			}
		}
		data := b.buf
		if !eof && b.err == nil {
			k := bytes.LastIndexByte(data, '\n')
			carry = append(carry[:0], data[k+1:]...)
			data = data[:k+1]
		}
		for len(data) > 0 && b.err == nil {
			k := bytes.IndexByte(data, '\n')
			var l []byte
			if k < 0 {
				l, data = data, nil
			} else {
				l, data = data[:k], data[k+1:]
			}
			line++
			if len(l) > 0 && l[len(l)-1] == '\r' {
				l = l[:len(l)-1]
			}
			if len(trimSpace(l)) == 0 {
				continue
			}
			b.wells = append(b.wells, Well{})
			if err := wr.parse(l, line, &b.wells[len(b.wells)-1]); err != nil {
				b.wells = b.wells[:len(b.wells)-1]
				b.err = err
			}
		}
		select {
		case full <- b:
		case <-done:
			return
		}
		if b.err != nil {
			return
		}
	}
}
