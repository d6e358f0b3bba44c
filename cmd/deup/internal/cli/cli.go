// Package cli is the command tree of the deup tool. cmd/deup/main.go only
// wires the process to Main, so every command can be tested without a process.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
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
	// through scigolib/hdf5) runs itself through it; when nil (tests, a
	// platform without the cap, or the child itself) it runs in-process.
	Sandbox func(ctx context.Context, args []string, limit int64) error

	// Stamp is the version and commit set at build time (cmd/deup's
	// -ldflags -X main.version=… -X main.commit=…), used by --version
	// where the build information has none (a build with -buildvcs=false,
	// or from a source archive without .git).
	Stamp Stamp

	// Now is the clock every command reads its start and elapsed times
	// from (nil: time.Now). Tests fix it so that the timing lines a
	// command prints compare exactly.
	Now func() time.Time

	// usage is set by Main: the command being run records in it how to
	// print its help and its usage line (newFlagSet), and Main prints them
	// after the command returns (help on stdout for -h; the error, the
	// usage line and a pointer to -h on stderr for a usage error).
	usage *usageState
}

// now reads the environment's clock.
func (e Env) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// since is the time elapsed on the environment's clock since t.
func (e Env) since(t time.Time) time.Duration { return e.now().Sub(t) }

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

// exitError carries a specific exit status without a message (for example a
// command that wrote per-item errors to stderr and must exit 1).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// commands lists the top-level subcommands. Each lives in its own file.
func commands() []*Command {
	return []*Command{
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
// process exit status: 0, 1 for a failure, 2 for a usage error.
//
// Help asked for (-h, --help, or "help" for a group) goes to stdout; a usage
// error prints, on stderr, the error, the command's usage line and "run
// 'deup CMD -h' for help" (never the whole help). "deup --version" prints the
// module version and VCS commit the binary was built from.
func Main(ctx context.Context, args []string, env Env) int {
	root := &Command{Name: "deup", Short: "drug-combination synergy with direct epistemic uncertainty prediction", Subs: commands()}
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-version" || args[0] == "version") {
		bi, ok := debug.ReadBuildInfo()
		fmt.Fprintln(env.Stdout, buildinfo.Line(bi, ok, env.Stamp))
		return 0
	}
	st := &usageState{path: "deup"}
	env.usage = st
	err := dispatch(ctx, env, root, args)
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		if st.help != nil {
			st.help(env.Stdout)
		}
		return 0
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, ErrUsage):
		// "usage: deup train: --out is required" → "deup train: --out is
		// required"; a message without the command's name gets it.
		msg := strings.TrimPrefix(userMessage(err), ErrUsage.Error()+": ")
		if !strings.HasPrefix(msg, "deup") {
			msg = st.path + ": " + msg
		}
		fmt.Fprintln(env.Stderr, msg)
		if st.synopsis != "" {
			fmt.Fprintf(env.Stderr, "usage: %s\n", st.synopsis)
		}
		fmt.Fprintf(env.Stderr, "run '%s -h' for help\n", st.path)
		return 2
	default:
		fmt.Fprintf(env.Stderr, "deup: %s\n", userMessage(err))
		return 1
	}
}

// Stamp is a version and commit given at build time (empty: none).
type Stamp = buildinfo.Stamp

func dispatch(ctx context.Context, env Env, c *Command, args []string) error {
	if env.usage != nil && c.Name != "deup" {
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
			return dispatch(ctx, env, s, args[1:])
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

// newFlagSet returns a flag set for a command with the given usage line(s)
// (without "usage: ") and description. Its help (usage, description,
// flags) is what -h prints, on stdout; fs.Usage, which the flag package
// calls on a bad flag and commands call before returning an ErrUsage
// error, prints nothing itself under Main, which prints the error, the
// usage line and "run 'deup CMD -h' for help" on stderr. (Run without Main,
// fs.Usage writes the usage line to env.Stderr.) The flag package's own
// error messages are discarded: the error reaches Main.
func newFlagSet(env Env, name, usage, desc string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	help := func(w io.Writer) {
		body, next := splitNext(strings.ReplaceAll(desc, "{{structures}}", structureRule))
		fmt.Fprintf(w, "usage: %s\n\n%s\n", usage, body)
		nflags := 0
		fs.VisitAll(func(*flag.Flag) { nflags++ })
		if nflags > 0 {
			fmt.Fprintf(w, "\nFlags:\n")
			fs.SetOutput(w)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
		if next != "" {
			fmt.Fprintf(w, "\n%s\n", next)
		}
	}
	if env.usage != nil {
		env.usage.synopsis, env.usage.help = usage, help
	}
	fs.Usage = func() {
		if env.usage == nil {
			fmt.Fprintf(env.Stderr, "usage: %s\n", usage)
		}
	}
	return fs
}

// splitNext splits a command's description into its body and its closing
// "Next: ..." paragraph (""), which the help prints after the flag list so
// that every help text ends with what to do next.
func splitNext(desc string) (body, next string) {
	desc = strings.TrimSpace(desc)
	i := strings.LastIndex(desc, "\nNext:")
	if strings.HasPrefix(desc, "Next:") {
		i = 0
	} else if i < 0 {
		return desc, ""
	} else {
		i++
	}
	return strings.TrimSpace(desc[:i]), strings.TrimSpace(desc[i:])
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

// parseWant parses args (parseArgs) and checks that between min and max
// positional arguments (max < 0: any number) remain (wantArgs).
func parseWant(fs *flag.FlagSet, args []string, min, max int) ([]string, error) {
	pos, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	return pos, wantArgs(fs, pos, min, max)
}

// wantArgs checks the number of positional arguments.
func wantArgs(fs *flag.FlagSet, pos []string, min, max int) error {
	if len(pos) < min {
		return usageError(fs, "%s: missing argument", fs.Name())
	}
	if max >= 0 && len(pos) > max {
		return usageError(fs, "%s: unexpected argument %q", fs.Name(), pos[max])
	}
	return nil
}
