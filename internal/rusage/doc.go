// Package rusage reads the resources the process has used so far (CPU
// time and peak resident memory), for the timing lines the commands
// print; on a system without getrusage it reports nothing.
package rusage
