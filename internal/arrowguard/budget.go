package arrowguard

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// Budget is the most bytes of Arrow buffers a reader may hold at once for
// a file of size bytes: 64 MiB plus 64 times the size. It leaves room for
// decompression (zstd and Snappy on real tables stay well under 64×) and
// keeps a corrupt 1 MB file under about 130 MB.
func Budget(size int64) int64 {
	if size < 0 {
		size = 0
	}
	const fixed = 64 << 20
	if size > (1<<62-fixed)/64 {
		return 1 << 62
	}
	return fixed + 64*size
}

// BudgetError is the panic value of an Allocator asked for more than its
// budget, and the error Recover returns for it.
type BudgetError struct {
	Want, Used, Max int64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("the file asks for %d more bytes of buffers beyond the %d already held; the budget for its size is %d bytes (corrupt, or not what it claims)", e.Want, e.Used, e.Max)
}

// Limited is an allocator that holds at most Max bytes outstanding. It is
// not safe for concurrent use: readers using it must read in one goroutine.
type Limited struct {
	memory.Allocator
	Max  int64
	used int64
}

// Allocator returns mem limited to Budget(size) outstanding bytes.
func Allocator(mem memory.Allocator, size int64) *Limited {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	return &Limited{Allocator: mem, Max: Budget(size)}
}

func (l *Limited) check(more int64) {
	if more > 0 && (more > l.Max || l.used+more > l.Max) {
		panic(&BudgetError{Want: more, Used: l.used, Max: l.Max})
	}
	l.used += more
}

// Allocate panics with a *BudgetError beyond the budget.
func (l *Limited) Allocate(size int) []byte {
	l.check(int64(size))
	return l.Allocator.Allocate(size)
}

// Reallocate panics with a *BudgetError beyond the budget.
func (l *Limited) Reallocate(size int, b []byte) []byte {
	l.check(int64(size) - int64(len(b)))
	return l.Allocator.Reallocate(size, b)
}

// Free returns b to the underlying allocator.
func (l *Limited) Free(b []byte) {
	l.used -= int64(len(b))
	l.Allocator.Free(b)
}

// Recover, deferred in the function that reads with arrow-go, turns a
// panic (a *BudgetError, or arrow-go's own on inconsistent input) into an
// error in *err naming what was read:
//
//	defer arrowguard.Recover(&err, path)
func Recover(err *error, name string) {
	p := recover()
	if p == nil {
		return
	}
	if be, ok := p.(*BudgetError); ok {
		*err = fmt.Errorf("%s: %w", name, be)
		return
	}
	*err = fmt.Errorf("%s: corrupt file: %v", name, p)
}
