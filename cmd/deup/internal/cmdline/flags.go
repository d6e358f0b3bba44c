package cmdline

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
)

// NewFlagSet returns a flag set for a command with the given usage line(s)
// (without "usage: ") and description. Its help (usage, description,
// flags) is what -h prints, on stdout; fs.Usage, which the flag package
// calls on a bad flag and commands call before returning an ErrUsage
// error, prints nothing itself under Main, which prints the error, the
// usage line and "run 'deup CMD -h' for help" on stderr. (Run without Main,
// fs.Usage writes the usage line to env.Stderr.) The flag package's own
// error messages are discarded: the error reaches Main.
func NewFlagSet(env Env, name, usage, desc string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	help := func(w io.Writer) {
		body, next := splitNext(desc)
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

// ParseArgs parses flags that may appear before, between or after positional
// arguments (as in `deup data import --format drugcomb FILE --out DIR`) and
// returns the positional arguments in order. A lone "--" ends flag parsing.
func ParseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
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

// ParseWant parses args (ParseArgs) and checks that between min and max
// positional arguments (max < 0: any number) remain (WantArgs).
func ParseWant(fs *flag.FlagSet, args []string, min, max int) ([]string, error) {
	pos, err := ParseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	return pos, WantArgs(fs, pos, min, max)
}

// WantArgs checks the number of positional arguments.
func WantArgs(fs *flag.FlagSet, pos []string, min, max int) error {
	if len(pos) < min {
		return UsageError(fs, "%s: missing argument", fs.Name())
	}
	if max >= 0 && len(pos) > max {
		return UsageError(fs, "%s: unexpected argument %q", fs.Name(), pos[max])
	}
	return nil
}

// UsageError prints fs's usage and returns the usage error (ErrUsage)
// with the message format and args make.
func UsageError(fs *flag.FlagSet, format string, args ...any) error {
	fs.Usage()
	return fmt.Errorf("%w: "+format, append([]any{ErrUsage}, args...)...)
}

// IsSet reports whether the flag name was given on the command line.
func IsSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// A Rule is one rule of a command's flags (see Check).
type Rule struct {
	ok  bool
	msg string
}

// Want is the rule that the flags break unless ok; format and args make
// its message, which names the flag.
func Want(ok bool, format string, args ...any) Rule {
	return Rule{ok, fmt.Sprintf(format, args...)}
}

// Check returns the usage error (ErrUsage) of the first rule broken, in
// the order given, or nil.
func Check(rules ...Rule) error {
	for _, r := range rules {
		if !r.ok {
			return fmt.Errorf("%w: %s", ErrUsage, r.msg)
		}
	}
	return nil
}

// FlagError makes err, the refusal of flag's value by the package that
// reads it, a usage error: "--flag: message" (Main's UserMessage drops the
// package's prefix).
func FlagError(flag string, err error) error {
	return fmt.Errorf("%w: %s: %v", ErrUsage, flag, err)
}

// LastFlag is the value of the last --name (or -name) in args before a
// lone "--", "" when there is none: for a command whose flag set depends
// on a flag (data import's --format).
func LastFlag(args []string, name string) string {
	v := ""
	for i, a := range args {
		switch {
		case a == "--":
			return v
		case (a == "--"+name || a == "-"+name) && i+1 < len(args):
			v = args[i+1]
		case strings.HasPrefix(a, "--"+name+"=") || strings.HasPrefix(a, "-"+name+"="):
			_, v, _ = strings.Cut(a, "=")
		}
	}
	return v
}

// SplitList splits a comma-separated flag value, dropping empty entries
// and the spaces around each.
func SplitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// WorkersFlag defines --workers, the one worker flag: N jobs (the noun
// says which: trainings, runs, molecules) run at the same time, 0 one per
// CPU (GOMAXPROCS). No command's results depend on it. def is the
// command's default; deprecated names (smo's --jobs) set the same value.
func WorkersFlag(fs *flag.FlagSet, def int, jobs string, deprecated ...string) *int {
	n := new(int)
	fs.IntVar(n, "workers", def, "number of "+jobs+" at the same time (0: one per CPU, GOMAXPROCS; the results do not depend on it)")
	for _, d := range deprecated {
		fs.IntVar(n, d, def, "deprecated: the old name of --workers, same meaning")
	}
	return n
}

// WorkersRule is the rule of --workers: 0 or more.
func WorkersRule(n int) Rule {
	return Want(n >= 0, "--workers %d: want 0 (one per CPU) or more", n)
}

// Workers is the number of workers --workers n means.
func Workers(n int) int {
	if n == 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// SeedFlag defines --seed, the one seed spelling: the seed of a single run,
// or the first of a series of runs (run s uses seed+s-1, or seed+s where
// the command says so). --first-seed, its old name in rl and smo, is kept
// as a deprecated alias that sets the same value.
func SeedFlag(fs *flag.FlagSet, usage string, deprecated ...string) *uint64 {
	s := new(uint64)
	fs.Uint64Var(s, "seed", 1, usage)
	for _, d := range deprecated {
		fs.Uint64Var(s, d, 1, "deprecated: the old name of --seed, same meaning")
	}
	return s
}

// CPUProfile starts a CPU profile written to path (a command's
// --cpuprofile); stop ends it and closes the file.
func CPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
