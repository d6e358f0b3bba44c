//go:build !unix

package cli

import "time"

// usage is not available on this system.
func usage() (cpu time.Duration, peakRSS int64, ok bool) { return 0, 0, false }
