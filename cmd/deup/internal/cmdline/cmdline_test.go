package cmdline

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestUserMessage(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, tc := range []struct{ in, want string }{
		{"drugcomb: open: open x/meta.json: not a directory", "open x/meta.json: not a directory"},
		{"m.deup: model: not a valid model file", "m.deup: not a valid model file"},
		{"usage: deup suggest: suggest: unknown suggestions format", "usage: deup suggest: unknown suggestions format"},
		{"p.csv:2: column drug_a: unknown drug", "p.csv:2: column drug_a: unknown drug"},
		{"lincs: x.gct: line 3: bad header", "x.gct: line 3: bad header"},
	} {
		if got := UserMessage(errors.New(tc.in)); got != tc.want {
			t.Errorf("UserMessage(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// A prefix that is also the name of a file that exists may be the path
	// the message is about: kept.
	if err := os.WriteFile("model", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := UserMessage(errors.New("model: model: not a valid model file")), "model: model: not a valid model file"; got != want {
		t.Errorf("with a file named model: %q, want %q", got, want)
	}
}

// LastFlag picks data import's flag set: the last --format before a lone
// "--".
func TestLastFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"x.csv", "--format", "doseresponse"}, "doseresponse"},
		{[]string{"-format=almanac-wells", "--out", "d"}, "almanac-wells"},
		{[]string{"--format", "table", "--format=doseresponse"}, "doseresponse"},
		{[]string{"--", "--format", "doseresponse"}, ""},
		{[]string{"--format"}, ""},
	} {
		if got := LastFlag(c.args, "format"); got != c.want {
			t.Errorf("LastFlag(%q, format) = %q, want %q", c.args, got, c.want)
		}
	}
}

// ParseArgs takes flags before, between and after positional arguments; a
// lone "--" makes the rest positional.
func TestParseArgs(t *testing.T) {
	for _, c := range []struct {
		args []string
		pos  string
		out  string
	}{
		{[]string{"a", "--out", "d", "b"}, "a b", "d"},
		{[]string{"--out=d", "a"}, "a", "d"},
		{[]string{"a", "--", "--out", "x"}, "a --out x", ""},
		{nil, "", ""},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		out := fs.String("out", "", "")
		pos, err := ParseArgs(fs, c.args)
		if err != nil {
			t.Fatalf("ParseArgs(%q): %v", c.args, err)
		}
		if got := strings.Join(pos, " "); got != c.pos || *out != c.out {
			t.Errorf("ParseArgs(%q) = %q, --out %q; want %q, %q", c.args, got, *out, c.pos, c.out)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	if _, err := ParseArgs(fs, []string{"--nope"}); !errors.Is(err, ErrUsage) {
		t.Errorf("unknown flag: %v, want a usage error", err)
	}
}

// splitNext moves the closing "Next:" paragraph of a help text after the
// flags.
func TestSplitNext(t *testing.T) {
	for _, c := range []struct{ in, body, next string }{
		{"Does x.\n\nNext: y.", "Does x.", "Next: y."},
		{"Does x.", "Does x.", ""},
		{"Next: y.", "", "Next: y."},
	} {
		if b, n := splitNext(c.in); b != c.body || n != c.next {
			t.Errorf("splitNext(%q) = %q, %q; want %q, %q", c.in, b, n, c.body, c.next)
		}
	}
}

// Main's exit statuses and streams: help on stdout (0), a usage error on
// stderr with the usage line (2), a failure as "deup: message" without the
// package prefix (1), an ExitError's own status.
func TestMain(t *testing.T) {
	run := func(ctx context.Context, env Env, args []string) error {
		fs := NewFlagSet(env, "deup x", "deup x [--n N]", "Does x.\n\nNext: y.")
		n := fs.Int("n", 0, "a number")
		if _, err := ParseWant(fs, args, 0, 0); err != nil {
			return err
		}
		switch *n {
		case 1:
			return Check(Want(false, "--n %d: want 0", *n))
		case 2:
			return fmt.Errorf("drugcomb: open: f.csv: bad")
		case 3:
			return ExitError{Code: 3}
		}
		return nil
	}
	root := &Command{Name: "deup", Short: "t", Subs: []*Command{{Name: "x", Short: "does x", Run: run}}}
	for _, c := range []struct {
		args           string
		code           int
		stdout, stderr string
	}{
		{"x", 0, "", ""},
		{"x -h", 0, "usage: deup x [--n N]\n\nDoes x.\n\nFlags:\n  -n int\n    \ta number\n\nNext: y.\n", ""},
		{"x --n 1", 2, "", "deup x: --n 1: want 0\nusage: deup x [--n N]\nrun 'deup x -h' for help\n"},
		{"x --n 2", 1, "", "deup: f.csv: bad\n"},
		{"x --n 3", 3, "", ""},
		{"x extra", 2, "", "deup x: unexpected argument \"extra\"\nusage: deup x [--n N]\nrun 'deup x -h' for help\n"},
		{"y", 2, "", "deup: unknown subcommand \"y\"\nusage: deup SUBCOMMAND [flags]\nrun 'deup -h' for help\n"},
		{"help", 0, "deup: t\n\nSubcommands:\n  x                does x\n\nRun 'deup SUBCOMMAND -h' for the help of one.\n", ""},
	} {
		var out, errb strings.Builder
		code := Main(context.Background(), root, strings.Fields(c.args), Env{Stdout: &out, Stderr: &errb})
		if code != c.code || out.String() != c.stdout || errb.String() != c.stderr {
			t.Errorf("deup %s: exit %d, stdout %q, stderr %q; want %d, %q, %q", c.args, code, out.String(), errb.String(), c.code, c.stdout, c.stderr)
		}
	}
}
