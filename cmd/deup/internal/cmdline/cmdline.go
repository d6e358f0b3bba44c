package cmdline

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/deup-screening/deup/internal/buildinfo"
)

// Env is what a command may touch of the outside world.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	// Sandbox, when set, runs `deup ARGS` in a child process whose address
	// space is capped at limit bytes, with the same standard streams, and
	// returns how it ended (internal/sandbox's errors). A command that
	// hands a file to a reader that cannot bound its own memory (GCTX
	// through scigolib/hdf5) runs itself through it (Env.Sandboxed); when
	// nil (tests, a platform without the cap, or the child itself) it runs
	// in-process.
	Sandbox func(ctx context.Context, args []string, limit int64) error

	// Stamp is the version and commit set at build time (cmd/deup's
	// -ldflags -X main.version=… -X main.commit=…), used by --version
	// where the build information has none (a build with -buildvcs=false,
	// or from a source archive without .git).
	Stamp buildinfo.Stamp

	// Now is the clock every command reads its start and elapsed times
	// from (nil: time.Now). Tests fix it so that the timing lines a
	// command prints compare exactly.
	Now func() time.Time

	// usage is set by Main: the command being run records in it how to
	// print its help and its usage line (NewFlagSet), and Main prints them
	// after the command returns (help on stdout for -h; the error, the
	// usage line and a pointer to -h on stderr for a usage error).
	usage *usageState
}

// Time reads the environment's clock.
func (e Env) Time() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// Since is the time elapsed on the environment's clock since t.
func (e Env) Since(t time.Time) time.Duration { return e.Time().Sub(t) }

// usageState is what a running command's flag set tells Main.
type usageState struct {
	path     string // "deup train"
	synopsis string // the usage line(s) without "usage: "
	help     func(w io.Writer)
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

// ExitError carries a specific exit status without a message (for example
// a command that wrote per-item errors to stderr and must exit 1).
type ExitError struct{ Code int }

func (e ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// Main runs the command tree root with args (without the program name)
// and returns the process exit status: 0, 1 for a failure, 2 for a usage
// error.
//
// Help asked for (-h, --help, or "help" for a group) goes to stdout; a usage
// error prints, on stderr, the error, the command's usage line and "run
// 'deup CMD -h' for help" (never the whole help); any other error is
// printed as "deup: " and its UserMessage.
func Main(ctx context.Context, root *Command, args []string, env Env) int {
	st := &usageState{path: root.Name}
	env.usage = st
	err := dispatch(ctx, env, root, args, true)
	var ee ExitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		if st.help != nil {
			st.help(env.Stdout)
		}
		return 0
	case errors.As(err, &ee):
		return ee.Code
	case errors.Is(err, ErrUsage):
		// "usage: deup train: --out is required" → "deup train: --out is
		// required"; a message without the command's name gets it.
		msg := strings.TrimPrefix(UserMessage(err), ErrUsage.Error()+": ")
		if !strings.HasPrefix(msg, root.Name) {
			msg = st.path + ": " + msg
		}
		fmt.Fprintln(env.Stderr, msg)
		if st.synopsis != "" {
			fmt.Fprintf(env.Stderr, "usage: %s\n", st.synopsis)
		}
		fmt.Fprintf(env.Stderr, "run '%s -h' for help\n", st.path)
		return 2
	default:
		fmt.Fprintf(env.Stderr, "%s: %s\n", root.Name, UserMessage(err))
		return 1
	}
}

func dispatch(ctx context.Context, env Env, c *Command, args []string, root bool) error {
	if env.usage != nil && !root {
		env.usage.path += " " + c.Name
		env.usage.synopsis, env.usage.help = "", nil
	}
	if c.Run != nil {
		return c.Run(ctx, env, args)
	}
	if env.usage != nil {
		env.usage.synopsis = env.usage.path + " SUBCOMMAND [flags]"
		env.usage.help = func(w io.Writer) { printGroupHelp(w, env.usage.path, c) }
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: missing subcommand", ErrUsage)
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help" {
		if env.usage == nil {
			printGroupHelp(env.Stderr, c.Name, c)
		}
		return flag.ErrHelp
	}
	for _, s := range c.Subs {
		if s.Name == args[0] {
			return dispatch(ctx, env, s, args[1:], false)
		}
	}
	return fmt.Errorf("%w: unknown subcommand %q", ErrUsage, args[0])
}

func printGroupHelp(w io.Writer, path string, c *Command) {
	fmt.Fprintf(w, "%s: %s\n\nSubcommands:\n", c.Name, c.Short)
	subs := append([]*Command(nil), c.Subs...)
	sort.Slice(subs, func(i, j int) bool { return subs[i].Name < subs[j].Name })
	for _, s := range subs {
		fmt.Fprintf(w, "  %-16s %s\n", s.Name, s.Short)
	}
	fmt.Fprintf(w, "\nRun '%s SUBCOMMAND -h' for the help of one.\n", path)
}
