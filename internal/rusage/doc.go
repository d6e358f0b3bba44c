// Package rusage reads the resources the process has used so far (CPU
// time and peak resident memory), for the timing lines the commands
// print; on a system without getrusage it reports nothing.
package rusage

import "fmt"

// Note is ", CPU time … s, peak resident memory … MB" for the process so
// far (Self), or "" where the system does not report it: the tail of the
// commands' "total wall time" lines.
func Note() string {
	cpu, rss, ok := Self()
	if !ok {
		return ""
	}
	return fmt.Sprintf(", CPU time %.1f s, peak resident memory %d MB", cpu.Seconds(), rss>>20)
}
