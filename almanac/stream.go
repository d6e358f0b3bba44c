package almanac

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
)

// chunkSize is how many bytes of whole lines one batch holds.
const chunkSize = 1 << 20

// batch is a chunk of whole lines and the wells parsed from it (their byte
// fields point into buf).
type batch struct {
	seq   int    // order in the file
	line0 int    // line number of buf's first line, minus one
	buf   []byte // whole lines
	wells []Well
	err   error // the first error in or after buf (reading or parsing)
}

// splitter is one parsing goroutine's scratch space.
type splitter struct {
	fields [][]byte
}

// stream reads the rest of wr's input (after the header) and calls fn for
// each well, in file order, on the calling goroutine. One goroutine reads
// chunks of whole lines and up to two parse them, so that reading and
// parsing overlap with fn's work. The *Well is valid only during the call.
// It returns the first error (a *ParseError, or a read error naming the
// line), after fn saw every well before it.
func (wr *wellReader) stream(fn func(*Well)) error {
	parsers := min(2, runtime.GOMAXPROCS(0))
	nBatches := 2*parsers + 2
	free := make(chan *batch, nBatches)
	raw := make(chan *batch, nBatches)
	parsed := make(chan *batch, nBatches)
	done := make(chan struct{})
	defer close(done)
	for range nBatches {
		free <- &batch{buf: make([]byte, 0, 64<<10)} // grown to chunkSize on large inputs
	}
	go wr.read(free, raw, done)
	var wg sync.WaitGroup
	for range parsers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sp splitter
			for b := range raw {
				wr.parseBatch(&sp, b)
				select {
				case parsed <- b:
				case <-done:
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(parsed) }()
	pending := map[int]*batch{}
	next := 0
	for b := range parsed {
		pending[b.seq] = b
		for {
			b, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			for i := range b.wells {
				fn(&b.wells[i])
			}
			if b.err != nil {
				return b.err
			}
			free <- b
		}
	}
	return nil
}

// read fills batches from free with whole lines of the input and sends
// them on raw, in order, until the input ends, a read error, or done.
func (wr *wellReader) read(free <-chan *batch, raw chan<- *batch, done <-chan struct{}) {
	defer close(raw)
	var carry []byte
	line := wr.line
	eof := false
	for seq := 0; !eof; seq++ {
		var b *batch
		select {
		case b = <-free:
		case <-done:
			return
		}
		b.seq, b.line0, b.err = seq, line, nil
		b.buf = append(b.buf[:0], carry...)
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
				b.err = fmt.Errorf("%s:%d: %w", wr.name, line+1+bytes.Count(b.buf, []byte{'\n'}), err)
				break
			}
		}
		if !eof && b.err == nil {
			k := bytes.LastIndexByte(b.buf, '\n')
			carry = append(carry[:0], b.buf[k+1:]...)
			b.buf = b.buf[:k+1]
		}
		line += bytes.Count(b.buf, []byte{'\n'})
		stop := b.err != nil // b belongs to a parser once sent
		select {
		case raw <- b:
		case <-done:
			return
		}
		if stop {
			return
		}
	}
}

// parseBatch parses the lines of b into b.wells, stopping at the first
// malformed line (b.err; a read error already in b.err comes after the
// lines).
func (wr *wellReader) parseBatch(sp *splitter, b *batch) {
	b.wells = b.wells[:0]
	data := b.buf
	line := b.line0
	for len(data) > 0 {
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
		if err := wr.parse(sp, l, line, &b.wells[len(b.wells)-1]); err != nil {
			b.wells = b.wells[:len(b.wells)-1]
			b.err = err
			return
		}
	}
}
