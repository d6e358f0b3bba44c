package chem

// stdSort sorts s by less exactly as GCC's libstdc++ std::sort does
// (introsort with median-of-three pivots, insertion sort below 16
// elements), so that elements that compare equal end up in the same order
// as in RDKit, which removes extra rings after such a sort.
func stdSort[T any](s []T, less func(a, b T) bool) {
	n := len(s)
	if n < 2 {
		return
	}
	depth := 0
	for k := n; k > 1; k >>= 1 {
		depth++
	}
	introsortLoop(s, 0, n, 2*depth, less)
	if n > 16 {
		insertionSort(s, 0, 16, less)
		for i := 16; i < n; i++ {
			unguardedLinearInsert(s, i, less)
		}
	} else {
		insertionSort(s, 0, n, less)
	}
}

func introsortLoop[T any](s []T, first, last, depth int, less func(a, b T) bool) {
	for last-first > 16 {
		if depth == 0 {
			heapSort(s[first:last], less)
			return
		}
		depth--
		mid := first + (last-first)/2
		moveMedianToFirst(s, first, first+1, mid, last-1, less)
		cut := unguardedPartition(s, first+1, last, first, less)
		introsortLoop(s, cut, last, depth, less)
		last = cut
	}
}

func moveMedianToFirst[T any](s []T, result, a, b, c int, less func(a, b T) bool) {
	switch {
	case less(s[a], s[b]):
		switch {
		case less(s[b], s[c]):
			s[result], s[b] = s[b], s[result]
		case less(s[a], s[c]):
			s[result], s[c] = s[c], s[result]
		default:
			s[result], s[a] = s[a], s[result]
		}
	case less(s[a], s[c]):
		s[result], s[a] = s[a], s[result]
	case less(s[b], s[c]):
		s[result], s[c] = s[c], s[result]
	default:
		s[result], s[b] = s[b], s[result]
	}
}

func unguardedPartition[T any](s []T, first, last, pivot int, less func(a, b T) bool) int {
	for {
		for less(s[first], s[pivot]) {
			first++
		}
		last--
		for less(s[pivot], s[last]) {
			last--
		}
		if first >= last {
			return first
		}
		s[first], s[last] = s[last], s[first]
		first++
	}
}

func insertionSort[T any](s []T, first, last int, less func(a, b T) bool) {
	for i := first + 1; i < last; i++ {
		if less(s[i], s[first]) {
			v := s[i]
			copy(s[first+1:i+1], s[first:i])
			s[first] = v
		} else {
			unguardedLinearInsert(s, i, less)
		}
	}
}

func unguardedLinearInsert[T any](s []T, i int, less func(a, b T) bool) {
	v := s[i]
	j := i - 1
	for less(v, s[j]) {
		s[j+1] = s[j]
		j--
	}
	s[j+1] = v
}

// heapSort stands in for libstdc++'s partial_sort fallback, which is only
// reached after 2*log2(n) bad pivots; there the order of equal elements may
// differ from libstdc++'s.
func heapSort[T any](s []T, less func(a, b T) bool) {
	n := len(s)
	var sift func(root, end int)
	sift = func(root, end int) {
		for {
			child := 2*root + 1
			if child >= end {
				return
			}
			if child+1 < end && less(s[child], s[child+1]) {
				child++
			}
			if !less(s[root], s[child]) {
				return
			}
			s[root], s[child] = s[child], s[root]
			root = child
		}
	}
	for i := n/2 - 1; i >= 0; i-- {
		sift(i, n)
	}
	for end := n - 1; end > 0; end-- {
		s[0], s[end] = s[end], s[0]
		sift(0, end)
	}
}
