package chem

// zeroed returns s resized to n zero values: in place when its capacity
// allows, else in a new array. The scratch slices that a Mol or a
// morganWork keeps across molecules are reused with it.
func zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// arena hands out zeroed slices of one backing array, a parse's scratch
// memory (Mol.ints, Mol.bools, Mol.bits); reset makes all of it available
// again. When the array runs out, a new one of at least twice its length
// (at least minLen) replaces it; slices handed out before keep the old one.
type arena[T any] struct {
	buf  []T
	used int
}

// take returns a zeroed slice of length and capacity n.
func (a *arena[T]) take(n, minLen int) []T {
	if a.used+n > len(a.buf) {
		a.buf = make([]T, max(2*len(a.buf), n, minLen))
		a.used = 0
	}
	s := a.buf[a.used : a.used+n : a.used+n]
	a.used += n
	clear(s)
	return s
}

func (a *arena[T]) reset() { a.used = 0 }
