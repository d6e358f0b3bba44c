// Package ledger is the crash-safe, append-only record of an active-learning
// campaign: every round's suggestions, the model version that made them, and
// the measurements that came back.
//
// # Layout
//
// A ledger is a directory of events. Event number s (1, 2, 3, ...) of kind k
// is the Arrow IPC file
//
//	DIR/%08d-k.arrow      e.g. 00000003-suggest.arrow
//
// holding one record batch with the schema of Schema (one row per pair) and
// the event's header in the schema metadata (ledger_version, seq, kind,
// round, model_version, extra). The sequence of file names is the manifest:
// a ledger is valid only when its event numbers are exactly 1..n.
//
// # Durability
//
// Append writes the event to a temporary file DIR/.tmp-*, fsyncs it, links
// it to its final name (link(2) fails if the name exists, so an event is
// never overwritten), removes the temporary name and fsyncs the directory.
// A process killed at any moment therefore leaves either the complete event
// or no event: never a partial one. Temporary files left by a kill are
// removed by the next Open. A second process opening the same ledger gets
// ErrLocked (an flock(2) on DIR/LOCK, released by the kernel when the
// holder dies, even by SIGKILL). Close removes DIR/LOCK (a killed process
// leaves it, unlocked), so a closed campaign holds no lock file.
//
// # Values
//
// Y, Mu, the sigmas and Score are NaN when an event does not set them; they
// are stored as Arrow nulls. Phi may be nil. A Ledger is not safe for
// concurrent use by several goroutines.
package ledger
