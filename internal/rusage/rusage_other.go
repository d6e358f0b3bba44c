//go:build !unix

package rusage

import "time"

// Self is not available on this system.
func Self() (cpu time.Duration, peakRSS int64, ok bool) { return 0, 0, false }
