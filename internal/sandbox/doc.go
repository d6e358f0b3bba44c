// Package sandbox runs one command of this program in a child process
// whose address space is capped, so that a reader that trusts the sizes a
// file declares can fail by running out of memory without taking the
// calling process, or the machine, down with it.
//
// The project's own readers bound every allocation by the size of their
// input (see docs/fuzzing.md). One reader cannot: GCTX files are parsed by
// github.com/scigolib/hdf5, which allocates whatever a damaged header asks
// for (single-byte changes of a 17 KB test file ask for up to 280 TB), and
// the Go runtime ends a process that cannot get memory without a way to
// recover. `deup data signatures` therefore reads a GCTX file in a child:
//
//	parent: Run(ctx, exe, args, cfg)  ──exec──▶  child: Apply(getenv) caps RLIMIT_AS
//	        ◀── exit status, stderr ──            runs the same command
//
// Run passes the child's standard streams through, holding back the Go
// runtime's crash report (a fatal error and its goroutine dump), and turns
// the child's end into an error: nil on success, an *ExitError for an
// ordinary failure (the child has printed its message), an error wrapping
// ErrMemory when the child ran out of its cap, and a crash error with the
// runtime's first line otherwise.
//
// The cap is on virtual address space (setrlimit RLIMIT_AS), which Linux
// enforces at every mmap; the child also sets Go's soft memory limit to
// half of it, so the collector works harder before the cap is reached.
// Other platforms have no such limit here: Supported is false there and
// callers run the command in-process.
package sandbox
