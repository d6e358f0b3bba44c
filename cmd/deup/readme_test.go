package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/deup-screening/deup/internal/shareddata"
)

// readmeCommand is one command of the sh and console blocks of README.md or
// docs/tour.md, with the output lines the page shows under it (console
// blocks).
type readmeCommand struct {
	line  int      // line of the command in its page
	args  []string // after "deup" (or "go run ./cmd/deup")
	shown []string // output lines shown under it ("..." and blank lines left out)
}

// readmeCommands extracts, in order, every deup command of the fenced
// ```sh and ```console blocks of the Markdown file path: in sh blocks
// every line (a trailing "# comment" dropped), in console blocks the lines
// after "$ "; a line ending in "\" continues on the next. Commands that are
// not deup's (go install, go test, head) are left out: they run nothing of
// ours.
func readmeCommands(t *testing.T, path string) []readmeCommand {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		cmds    []readmeCommand
		lang    string // "" outside a block
		cur     *readmeCommand
		pending string // a command continued with "\"
		start   int
	)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.HasPrefix(l, "```") {
			if lang == "" {
				lang = strings.TrimPrefix(l, "```")
				if lang == "" {
					lang = "text"
				}
			} else {
				lang, cur = "", nil
			}
			continue
		}
		if lang != "sh" && lang != "console" {
			continue
		}
		text := l
		if lang == "console" {
			if pending == "" && !strings.HasPrefix(l, "$ ") {
				if cur != nil && strings.TrimSpace(l) != "" && !strings.Contains(l, "...") {
					cur.shown = append(cur.shown, l)
				}
				continue
			}
			text = strings.TrimPrefix(l, "$ ")
		}
		if pending == "" {
			start = n
		}
		if i := strings.Index(text, " #"); i >= 0 && lang == "sh" {
			text = text[:i]
		}
		if strings.HasSuffix(strings.TrimSpace(text), `\`) {
			pending += strings.TrimSuffix(strings.TrimSpace(text), `\`) + " "
			continue
		}
		full := strings.Join(strings.Fields(pending+text), " ")
		pending = ""
		cur = nil
		var args []string
		switch {
		case strings.HasPrefix(full, "deup ") || full == "deup":
			args = strings.Fields(full)[1:]
		case strings.HasPrefix(full, "go run ./cmd/deup"):
			args = strings.Fields(full)[3:]
		default:
			continue
		}
		cmds = append(cmds, readmeCommand{line: start, args: args})
		cur = &cmds[len(cmds)-1]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

// readmePages are the pages whose commands TestREADME runs, in order, in one
// directory (the tour reads what its earlier commands wrote), each with the
// fewest deup commands it has: fewer means the extraction is broken.
var readmePages = []struct {
	path string // from the repository root
	min  int
}{
	{"README.md", 3},     // deup -h, deup --version, the main job
	{"docs/tour.md", 15}, // the tour on real data
}

// readmeSpeed are the flags appended to a README or tour command (flags given
// twice: the last wins) unless DEUP_README_FULL=1, so that the tour runs in
// about a minute: fewer seeds, epochs, rounds, steps and episodes, the
// commands and every other flag as printed. Commands not listed run
// exactly as printed.
var readmeSpeed = map[string][]string{
	"bench":             {"--seeds", "1", "--epochs", "2"},
	"train":             {"--epochs", "3"},
	"ood":               {"--seeds", "1", "--epochs", "2", "--methods", "deup-dv,ensemble"},
	"campaign simulate": {"--seeds", "1", "--rounds", "2"},
	"smo":               {"--seeds", "1", "--steps", "3"},
	"rl":                {"--seeds", "1", "--episodes", "5"},
}

// readmeSkip are README or tour commands the test cannot run, and why.
var readmeSkip = map[string]string{
	"tui": "interactive (a terminal UI): tested in a tmux terminal by cmd/deup/internal/cli's e2e tests",
}

// TestREADME runs every deup command of README.md and then of docs/tour.md
// (readmePages), in order, in one directory holding the shared data's
// folders (the pages' relative paths: almanac/, drugcomb/, ...), and fails
// when one exits non-zero.
// Without DEUP_README_FULL=1 the commands in readmeSpeed get their speed
// flags, and the 8.6-million-pair prediction over drugcomb/drugs.csv reads
// the catalogue's first 300 drugs instead (44,850 pairs); with it, every
// command runs exactly as printed (tens of minutes on two cores) and the
// output lines the README shows under a console command (those without
// timings) must appear in its output. Output lines are also checked
// without it for commands that ran as printed on inputs that did (data
// import).
func TestREADME(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the commands of the README and the tour")
	}
	data, err := shareddata.Dir()
	if err != nil {
		shareddata.Missing(t, err)
		return
	}
	full := os.Getenv("DEUP_README_FULL") == "1"
	type pageCommand struct {
		page string
		readmeCommand
	}
	var cmds []pageCommand
	for _, p := range readmePages {
		got := readmeCommands(t, filepath.Join("..", "..", filepath.FromSlash(p.path)))
		if len(got) < p.min {
			t.Fatalf("found %d deup commands in %s's sh and console blocks; it has at least %d: is the extraction broken?", len(got), p.path, p.min)
		}
		for _, c := range got {
			cmds = append(cmds, pageCommand{p.path, c})
		}
	}
	dir := t.TempDir()
	ents, err := os.ReadDir(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if err := os.Symlink(filepath.Join(data, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	small := filepath.Join(dir, "drugcomb-first-300.csv")
	if !full {
		if err := headLines(filepath.Join(data, "drugcomb", "drugs.csv"), small, 301); err != nil {
			t.Fatal(err)
		}
	}
	timing := regexp.MustCompile(`\d(ms|s)\b|pairs/s|s/epoch`)
	// tainted are the outputs of commands that did not run as printed; a
	// command reading one does not give the README's numbers either.
	tainted := map[string]bool{}
	start := time.Now()
	for _, c := range cmds {
		name := c.args[0]
		if len(c.args) > 1 && !strings.HasPrefix(c.args[1], "-") && (name == "campaign" || name == "data") {
			name += " " + c.args[1]
		}
		if why, ok := readmeSkip[name]; ok {
			t.Logf("%s:%d: deup %s: not run: %s", c.page, c.line, strings.Join(c.args, " "), why)
			continue
		}
		args := append([]string(nil), c.args...)
		exact := true
		for _, a := range args {
			exact = exact && !tainted[a]
		}
		if !full {
			if extra, ok := readmeSpeed[name]; ok {
				args = append(args, extra...)
				exact = false
			}
			for i, a := range args {
				if a == "drugcomb/drugs.csv" && name == "predict" {
					args[i] = small
					exact = false
				}
			}
		}
		if !exact {
			tainted[outputOf(c.args)] = true
		}
		t0 := time.Now()
		out, err := deupCmd(t, dir, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s:%d: deup %s: %v\n%s", c.page, c.line, strings.Join(args, " "), err, out)
		}
		t.Logf("%s:%d: deup %s: %.1fs", c.page, c.line, strings.Join(args, " "), time.Since(t0).Seconds())
		if !exact {
			continue
		}
		for _, l := range c.shown {
			if timing.MatchString(l) {
				continue
			}
			if !strings.Contains(string(out), strings.TrimSpace(l)) {
				t.Errorf("%s:%d: deup %s: the page shows %q, the output lacks it:\n%s", c.page, c.line, strings.Join(args, " "), strings.TrimSpace(l), out)
			}
		}
	}
	t.Logf("%d README and tour commands in %.0fs (DEUP_README_FULL=%v)", len(cmds), time.Since(start).Seconds(), full)
}

// outputOf is what a command writes: its --out, or the campaign directory
// of campaign init (its last argument).
func outputOf(args []string) string {
	for i, a := range args {
		if a == "--out" && i+1 < len(args) {
			return args[i+1]
		}
	}
	if len(args) > 2 && args[0] == "campaign" && args[1] == "init" {
		return args[len(args)-1]
	}
	return ""
}

// headLines copies the first n lines of src to dst.
func headLines(src, dst string, n int) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for i := 0; i < n && sc.Scan(); i++ {
		fmt.Fprintln(out, sc.Text())
	}
	if err := sc.Err(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// TestReadmeCommands checks the extraction on a small README: sh lines
// with comments, console commands with continuation lines and their shown
// output, other commands and other blocks left out.
func TestReadmeCommands(t *testing.T) {
	md := "text `deup inline` not run\n\n```sh\ngo install x@latest\ndeup -h            # help\ngo run ./cmd/deup bench  # quick\n```\n\n" +
		"```console\n$ deup data import --pairs a.csv \\\n      --out pc3\ndata report\n  ...\nwrote pc3\n$ head -2 x.csv\nid,mu\n```\n\n```\ndeup not-a-command\n```\n"
	path := filepath.Join(t.TempDir(), "README.md")
	if err := os.WriteFile(path, []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	got := readmeCommands(t, path)
	want := []readmeCommand{
		{line: 5, args: []string{"-h"}},
		{line: 6, args: []string{"bench"}},
		{line: 10, args: []string{"data", "import", "--pairs", "a.csv", "--out", "pc3"}, shown: []string{"data report", "wrote pc3"}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}
