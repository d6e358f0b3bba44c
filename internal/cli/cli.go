// Package cli is the command tree of the deup tool. cmd/deup/main.go only
// wires the process to Main, so every command can be tested without a process.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Env is what a command may touch of the outside world.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Command is one subcommand (or a group of subcommands when Subs is set).
type Command struct {
	Name  string
	Short string // one line for the parent's help
	// Run executes the command with the arguments after its name.
	Run  func(ctx context.Context, env Env, args []string) error
	Subs []*Command
}

// ErrUsage marks an error caused by bad command-line usage (exit status 2).
var ErrUsage = errors.New("usage")

// exitError carries a specific exit status without a message (for example a
// command that wrote per-item errors to stderr and must exit 1).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// commands lists the top-level subcommands. Each lives in its own file.
func commands() []*Command {
	return []*Command{
		dataCommand(),
		smoCommand(),
		fingerprintCommand(),
		trainCommand(),
		predictCommand(),
		benchCommand(),
		tuiCommand(),
		campaignCommand(),
		suggestCommand(),
	}
}

// Main runs the tool with args (without the program name) and returns the
// process exit status.
func Main(ctx context.Context, args []string, env Env) int {
	root := &Command{Name: "deup", Short: "drug-combination synergy with direct epistemic uncertainty prediction", Subs: commands()}
	err := dispatch(ctx, env, root, args)
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, ErrUsage):
		fmt.Fprintf(env.Stderr, "deup: %v\n", err)
		return 2
	default:
		fmt.Fprintf(env.Stderr, "deup: %v\n", err)
		return 1
	}
}

func dispatch(ctx context.Context, env Env, c *Command, args []string) error {
	if c.Run != nil {
		return c.Run(ctx, env, args)
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printGroupHelp(env.Stderr, c)
		if len(args) == 0 {
			return fmt.Errorf("%w: %s needs a subcommand", ErrUsage, c.Name)
		}
		return flag.ErrHelp
	}
	for _, s := range c.Subs {
		if s.Name == args[0] {
			return dispatch(ctx, env, s, args[1:])
		}
	}
	printGroupHelp(env.Stderr, c)
	return fmt.Errorf("%w: unknown subcommand %q of %s", ErrUsage, args[0], c.Name)
}

func printGroupHelp(w io.Writer, c *Command) {
	fmt.Fprintf(w, "%s: %s\n\nSubcommands:\n", c.Name, c.Short)
	subs := append([]*Command(nil), c.Subs...)
	sort.Slice(subs, func(i, j int) bool { return subs[i].Name < subs[j].Name })
	for _, s := range subs {
		fmt.Fprintf(w, "  %-16s %s\n", s.Name, s.Short)
	}
	fmt.Fprintf(w, "\nRun '%s SUBCOMMAND -h' for the help of one.\n", c.Name)
}

// newFlagSet returns a flag set that writes its usage to env.Stderr with the
// given usage line and description.
func newFlagSet(env Env, name, usage, desc string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "usage: %s\n\n%s\n\nFlags:\n", usage, strings.TrimSpace(desc))
		fs.PrintDefaults()
	}
	return fs
}

// parseArgs parses flags that may appear before, between or after positional
// arguments (as in `deup data import --format drugcomb FILE --out DIR`) and
// returns the positional arguments in order. A lone "--" ends flag parsing.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %v", ErrUsage, err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// wantArgs checks the number of positional arguments.
func wantArgs(fs *flag.FlagSet, pos []string, min, max int) error {
	if len(pos) < min || (max >= 0 && len(pos) > max) {
		fs.Usage()
		switch {
		case len(pos) < min:
			return fmt.Errorf("%w: %s: missing argument", ErrUsage, fs.Name())
		default:
			return fmt.Errorf("%w: %s: unexpected argument %q", ErrUsage, fs.Name(), pos[max])
		}
	}
	return nil
}
