//go:build unix

package rusage

import (
	"runtime"
	"syscall"
	"time"
)

// Self returns the CPU time (user + system, all threads) of the process
// so far and its peak resident set size in bytes (ok false when the system
// does not report them).
func Self() (cpu time.Duration, peakRSS int64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, false
	}
	rss := int64(ru.Maxrss) // kilobytes on Linux and the BSDs, bytes on macOS
	if runtime.GOOS != "darwin" {
		rss *= 1024
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), rss, true
}
