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
	"github.com/deup-screening/deup/methods"
)

// Env is what a command may touch of the outside world (cmdline.Env).
type Env = cmdline.Env

// Stamp is a version and commit given at build time (empty: none).
type Stamp = buildinfo.Stamp

// commands lists the top-level subcommands. Each lives in its own file.
func commands(reg *methods.Registry) []*cmdline.Command {
	return []*cmdline.Command{
		dataCommand(),
		smoCommand(),
		rlCommand(),
		fingerprintCommand(),
		trainCommand(reg),
		predictCommand(reg),
		benchCommand(reg),
		oodCommand(reg),
		tuiCommand(reg),
		campaignCommand(reg),
		suggestCommand(reg),
		scoresCommand(),
		plateCommand(),
	}
}

// Main runs the tool with the built-in methods (methods.Default): MainWith.
func Main(ctx context.Context, args []string, env Env) int {
	return MainWith(ctx, args, env, methods.Default())
}

// MainWith runs the tool with args (without the program name) and returns the
// process exit status: 0, 1 for a failure, 2 for a usage error
// (cmdline.Main). "deup --version" prints the module version and VCS commit
// the binary was built from.
// The commands that train, load or benchmark a method know the methods
// of reg.
func MainWith(ctx context.Context, args []string, env Env, reg *methods.Registry) int {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-version" || args[0] == "version") {
		bi, ok := debug.ReadBuildInfo()
		fmt.Fprintln(env.Stdout, buildinfo.Line(bi, ok, env.Stamp))
		return 0
	}
	root := withHints(&cmdline.Command{Name: "deup", Short: "drug-combination synergy with direct epistemic uncertainty prediction", Subs: commands(reg)})
	return cmdline.Main(ctx, root, args, env)
}

// withMethods binds the registry reg to the run function of a command
// that trains, loads or benchmarks methods.
func withMethods(reg *methods.Registry, run func(context.Context, Env, *methods.Registry, []string) error) func(context.Context, Env, []string) error {
	return func(ctx context.Context, env Env, args []string) error { return run(ctx, env, reg, args) }
}

// newFlagSet is cmdline.NewFlagSet with {{structures}} in the description
// standing for the one structure rule (help/structures.txt) and the
// synergy-score placeholders filled from doseresp's table (scoreHelp).
func newFlagSet(env Env, name, usage, desc string) *flag.FlagSet {
	return cmdline.NewFlagSet(env, name, usage, strings.ReplaceAll(scoreHelp(desc), "{{structures}}", structureRule))
}
