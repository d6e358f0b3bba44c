// Package cli is the command tree of the deup tool: each command parses its
// flags, calls a domain package and prints. Its plumbing (dispatch, flag
// sets, usage errors, file checks) is package cmdline. cmd/deup/main.go
// only wires the process to Main, so every command can be tested without a
// process.
package cli

import (
	"context"
	"flag"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/internal/buildinfo"
)

// Env is what a command may touch of the outside world (cmdline.Env).
type Env = cmdline.Env

// Stamp is a version and commit given at build time (empty: none).
type Stamp = buildinfo.Stamp

// commands lists the top-level subcommands. Each lives in its own file.
func commands() []*cmdline.Command {
	return []*cmdline.Command{
		dataCommand(),
		smoCommand(),
		rlCommand(),
		fingerprintCommand(),
		trainCommand(),
		predictCommand(),
		benchCommand(),
		oodCommand(),
		tuiCommand(),
		campaignCommand(),
		suggestCommand(),
		scoresCommand(),
	}
}

// Main runs the tool with args (without the program name) and returns the
// process exit status: 0, 1 for a failure, 2 for a usage error
// (cmdline.Main). "deup --version" prints the module version and VCS commit
// the binary was built from.
func Main(ctx context.Context, args []string, env Env) int {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-version" || args[0] == "version") {
		bi, ok := debug.ReadBuildInfo()
		fmt.Fprintln(env.Stdout, buildinfo.Line(bi, ok, env.Stamp))
		return 0
	}
	root := &cmdline.Command{Name: "deup", Short: "drug-combination synergy with direct epistemic uncertainty prediction", Subs: withActiveHints(commands())}
	return cmdline.Main(ctx, root, args, env)
}

// newFlagSet is cmdline.NewFlagSet with {{structures}} in the description
// standing for the one structure rule (help/structures.txt).
func newFlagSet(env Env, name, usage, desc string) *flag.FlagSet {
	return cmdline.NewFlagSet(env, name, usage, strings.ReplaceAll(desc, "{{structures}}", structureRule))
}
