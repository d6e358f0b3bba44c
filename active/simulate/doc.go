// Package simulate runs retrospective active-learning campaigns: on a screen
// already measured (an active.TableOracle, the oracle), every Strategy (a
// surrogate and an acquisition function, ParseStrategy) runs for every
// seed from the same initial sets, each run an in-memory campaign of
// package active (Run). A Trace records each run round by round (pairs
// measured, best score, share of the top pairs found, test error of the
// model, pairs of new chemistry); Summarize gives the per-round mean and
// standard error over seeds. Package active/simreport writes the report.
//
// Runs are independent, run in parallel on the project's worker pool, and
// each is deterministic given its seed. Errors keep the "active: " prefix
// of the messages the commands have always printed.
package simulate
