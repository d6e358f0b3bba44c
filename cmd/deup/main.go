// Command deup predicts the synergy of drug pairs with Direct Epistemic
// Uncertainty Prediction (DEUP). Run `deup -h` for the subcommands.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/deup-screening/deup/cmd/deup/internal/cli"
	"github.com/deup-screening/deup/internal/sandbox"
)

// gcPercent is the garbage collector's target (GOGC) unless the
// environment sets GOGC: the heap of a training is mostly large
// pointer-free float tensors, cheap to mark, and gorgonia allocates fresh
// tensors for many nodes at every step, so with Go's default of 100 the
// heap grows to twice the live data before each collection. At 50 the
// peak is about 1.5× the live data (deup bench on PC-3: see the README).
const gcPercent = 50

// version and commit are set at build time where the go command records no
// VCS information (-buildvcs=false, a source archive), for --version:
//
//	go build -ldflags "-X main.version=v0.4.0 -X main.commit=$(git rev-parse --short HEAD)" ./cmd/deup
//
// Package-level so that the linker can set them; nothing else writes them.
var version, commit string

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	// A child started by sandbox.Run caps itself here, before any work.
	capped, err := sandbox.Apply(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "deup:", err)
		os.Exit(1)
	}
	env := cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Stamp: cli.Stamp{Version: version, Commit: commit}}
	if exe, err := os.Executable(); err == nil && sandbox.Supported && !capped {
		env.Sandbox = func(ctx context.Context, args []string, limit int64) error {
			return sandbox.Run(ctx, exe, args, sandbox.Config{Limit: limit, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], env)
	stop()
	os.Exit(code)
}
