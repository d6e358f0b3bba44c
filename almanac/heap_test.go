package almanac

import "runtime"

// heapInuse is the heap in use now (runtime.MemStats.HeapInuse).
func heapInuse() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}
