package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/deup-screening/deup/internal/shareddata"
)

// The docs are tests: TestREADME runs every command of the ```sh and
// ```console blocks of README.md and docs/*.md and compares the output lines
// a console block shows under a command with the run's (docs/contributing.md,
// "Docs that are tests", is the user's side of these rules).
//
//   - A command runs through bash in the page's directory: one fresh
//     directory for all pages, with DEUP_DATA naming the real-data directory
//     and `deup` on PATH (this test binary); `go run ./cmd/deup` is `deup`.
//   - Each shown line must match an output line, in order: the same text
//     with every number equal (or within the page's tolerance, a line
//     `<!-- deup-docs: tolerance 0.01 -->`: relative), timings and memory
//     figures masked (a number followed by ms, s, MiB, pairs/s, ...). In a
//     shown line "..." stands for any text (then its numbers are compared as
//     text); a line of "..." alone for any lines.
//   - `<!-- deup-docs: not compared: WHY -->` just before a block runs its
//     commands without comparing their output; `<!-- deup-docs: not run:
//     WHY -->` does not run them (docSkip lists the commands never run).
//   - DEUP_DOCS_UPDATE=1 (with DEUP_README_FULL=1, or only the commands
//     that ran as printed) rewrites each shown line whose text matched but
//     whose numbers differ with the run's line, like a golden file's
//     -update; lines it cannot place are failures to edit by hand.

// docCommand is one command of a page, with the output lines the page
// shows under it (console blocks).
type docCommand struct {
	line     int         // line of the command in its page
	text     string      // the command, continuations joined
	shown    []shownLine // output lines shown under it
	compare  bool        // false in a block marked not compared
	checkout bool        // in a block marked from the checkout
}

// shownLine is an output line of a page, at its line number.
type shownLine struct {
	line int
	text string
}

// docMarker is the marker comment before a block, and its kind.
var docMarker = regexp.MustCompile(`^<!-- deup-docs: (not compared|not run|tolerance|from the checkout)\b:?\s*(.*?)\s*-->$`)

// docPage is what docCommands reads from a page: its commands and the
// tolerance it states (0: numbers compared exactly).
type docPage struct {
	cmds      []docCommand
	tolerance float64
}

// docCommands extracts, in order, every command of the ```sh and ```console
// blocks of the Markdown file path: in sh blocks every line (a trailing
// "# comment" and comment lines dropped), in console blocks the lines after
// "$ ", the others being the output shown; a line ending in "\" continues
// on the next. Blocks after a not-run marker are left out.
func docCommands(t *testing.T, path string) docPage {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		page    docPage
		lang    string // "" outside a block
		cur     *docCommand
		pending string // a command continued with "\"
		start   int
		marker  string // the marker before the current or next block
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
				lang, cur, marker = "", nil, ""
			}
			continue
		}
		if lang == "" {
			if m := docMarker.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
				if m[1] == "tolerance" {
					v, err := strconv.ParseFloat(m[2], 64)
					if err != nil || v < 0 {
						t.Fatalf("%s:%d: tolerance %q: want a relative tolerance ≥ 0", path, n, m[2])
					}
					page.tolerance = v
				} else {
					marker = m[1]
				}
			} else if strings.TrimSpace(l) != "" {
				marker = ""
			}
			continue
		}
		if lang != "sh" && lang != "console" || marker == "not run" {
			continue
		}
		text := l
		if lang == "console" {
			if pending == "" && !strings.HasPrefix(l, "$ ") {
				if cur != nil && strings.TrimSpace(l) != "" {
					cur.shown = append(cur.shown, shownLine{n, l})
				}
				continue
			}
			text = strings.TrimPrefix(l, "$ ")
		}
		if pending == "" {
			start = n
		}
		if lang == "sh" && strings.HasPrefix(strings.TrimSpace(text), "#") {
			continue
		}
		if i := strings.Index(text, " #"); i >= 0 { // a comment: speed flags go before it
			text = text[:i]
		}
		if strings.HasSuffix(strings.TrimSpace(text), `\`) {
			pending += strings.TrimSuffix(strings.TrimSpace(text), `\`) + " "
			continue
		}
		full := strings.Join(strings.Fields(pending+text), " ")
		pending = ""
		cur = nil
		if full == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(full, "go run ./cmd/deup"); ok {
			full = "deup" + rest
		}
		page.cmds = append(page.cmds, docCommand{line: start, text: full, compare: marker != "not compared", checkout: marker == "from the checkout"})
		cur = &page.cmds[len(page.cmds)-1]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return page
}

// docPages are the pages whose commands TestREADME runs, in order, in one
// directory (the tour reads what its earlier commands wrote; the other
// pages may read it too): README.md, docs/tour.md, then docs/*.md by name.
// docMin is the fewest commands a page has: fewer means the extraction is
// broken.
func docPages(t *testing.T, root string) []string {
	others, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(others)
	pages := []string{"README.md", "docs/tour.md"}
	for _, p := range others {
		rel, _ := filepath.Rel(root, p)
		if rel = filepath.ToSlash(rel); rel != "docs/tour.md" {
			pages = append(pages, rel)
		}
	}
	return pages
}

var docMin = map[string]int{
	"README.md":    3,  // deup -h, deup --version, the main job
	"docs/tour.md": 20, // the tour on real data
}

// docSkip are commands (by prefix, after any leading VAR=value words) the
// test never runs, and why.
var docSkip = []struct{ prefix, why string }{
	{"go install ", "installs from the module proxy (the network); the test runs the checkout's deup"},
	{"go test", "the tests themselves"},
	{"go build ", "builds from the checkout; the test runs the checkout's deup already (go build -o PATH ./cmd/deup: the test puts its deup at PATH)"},
	{"deup tui", "interactive (a terminal UI): tested in a tmux terminal by cmd/deup/internal/cli's e2e tests"},
}

// docNeeds are programs a command (by prefix) needs that a machine may
// lack: a command whose program is not on PATH is not run, and the test
// says why; where ci is set, CI (CI=true) fails instead. A command whose
// programs the commands before it install as root (installs: the installer
// they need) also runs where the test is root and the installer is on
// PATH. A full entry runs only in full mode (DEUP_README_FULL=1).
var docNeeds = []struct {
	prefix   string
	programs []string
	installs string
	why      string
	ci       bool
	full     bool
}{
	{"snakemake ", []string{"snakemake"}, "", "Snakemake is not on PATH (Debian: apt-get install --no-install-recommends snakemake; .ci/run installs it)", true, false},
	{"scripts/slurm-single-node.sh ", []string{"sbatch"}, "apt-get", "Slurm is not installed (sbatch not on PATH) and the test is not root with apt-get: the script's start installs and starts a one-node cluster as root with apt; docs/workflow.md gives its measured run", true, true},
	{"scripts/corrupt.py ", []string{"python3", "/usr/bin/time", "timeout"}, "", "it needs python3, GNU time (/usr/bin/time, Debian's time package) and timeout, and one of them is missing", false, false},
}

// fullOnly is why the command text runs only in full mode, or "".
func fullOnly(text string) string {
	text = withoutEnv(text)
	for _, n := range docNeeds {
		if n.full && strings.HasPrefix(text+" ", n.prefix) {
			return "full mode only (DEUP_README_FULL=1): " + n.prefix + "starts daemons as root and its demo takes about 10 minutes"
		}
	}
	return ""
}

// readmeSpeed are the flags appended to a command (flags given twice: the
// last wins) unless DEUP_README_FULL=1, so that the pages run in about a
// minute: fewer seeds, epochs, rounds, steps and episodes, the commands and
// every other flag as printed; keyed by the deup command, or by the program
// for other commands. Commands not listed run exactly as printed.
var readmeSpeed = map[string][]string{
	"bench":              {"--seeds", "1", "--epochs", "2"},
	"train":              {"--epochs", "3"},
	"ood":                {"--seeds", "1", "--epochs", "2", "--methods", "deup-dv,ensemble"},
	"campaign simulate":  {"--seeds", "1", "--rounds", "2"},
	"smo":                {"--seeds", "1", "--steps", "3"},
	"rl":                 {"--seeds", "1", "--episodes", "5"},
	"scripts/corrupt.py": {"--n", "2"}, // corrupted copies per base file (docs/fuzzing.md)
}

// TestREADME runs every command of README.md and docs/*.md (docPages), in
// order, in one directory, and fails when one exits non-zero or, for a
// command that ran as printed, when an output line its page shows is not
// in its output (see the comment at the top of this file).
//
// Without DEUP_README_FULL=1 the commands in readmeSpeed get their speed
// flags, and drugcomb/drugs.csv (8.6 million pairs) is the catalogue's
// first 300 drugs (44,850 pairs); their outputs, and what reads them, are
// not compared. With it, every command runs exactly as printed (about ten
// minutes on two cores; .ci/run runs it) and every shown line is compared.
func TestREADME(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the commands of the README and docs/")
	}
	data, err := shareddata.Dir()
	if err != nil {
		shareddata.Missing(t, err)
		return
	}
	if data, err = filepath.Abs(data); err != nil {
		t.Fatal(err)
	}
	full := os.Getenv("DEUP_README_FULL") == "1"
	update := os.Getenv("DEUP_DOCS_UPDATE") == "1"
	if update && !full {
		t.Log("DEUP_DOCS_UPDATE=1 without DEUP_README_FULL=1: only the lines of commands that ran as printed are rewritten")
	}
	root := filepath.Join("..", "..")
	dir := t.TempDir()
	checkout := filepath.Join(t.TempDir(), "checkout") // for the blocks marked from the checkout
	if err := os.Mkdir(checkout, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := checkoutCopy(root, checkout, data); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "bin")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := fmt.Sprintf("#!/bin/sh\n%s=1 exec %q \"$@\"\n", asMain, exe)
	if err := os.WriteFile(filepath.Join(bin, "deup"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(t.TempDir(), "drugcomb-first-300.csv")
	if !full {
		if err := headLines(filepath.Join(data, "drugcomb", "drugs.csv"), small, 301); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "DEUP_DATA="+data, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	// tainted are the outputs of commands that did not run as printed; a
	// command reading one does not give the page's numbers either.
	tainted := map[string]bool{}
	start, n := time.Now(), 0
	for _, page := range docPages(t, root) {
		path := filepath.Join(root, filepath.FromSlash(page))
		p := docCommands(t, path)
		if len(p.cmds) < docMin[page] {
			t.Fatalf("found %d commands in %s's sh and console blocks; it has at least %d: is the extraction broken?", len(p.cmds), page, docMin[page])
		}
		var edits map[int]string // update mode: line number → new text
		failed := false
		for _, c := range p.cmds {
			cdir := dir
			if c.checkout {
				cdir = checkout
			}
			if x := builtDeup(c.text); x != "" {
				if err := os.MkdirAll(filepath.Join(cdir, filepath.Dir(x)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(cdir, x), []byte(wrapper), 0o755); err != nil {
					t.Fatal(err)
				}
				t.Logf("%s:%d: %s: not run: the test's deup is at %s", page, c.line, c.text, x)
				continue
			}
			if why := skipped(c.text); why != "" {
				t.Logf("%s:%d: %s: not run: %s", page, c.line, c.text, why)
				continue
			}
			if why := fullOnly(c.text); why != "" && !full {
				t.Logf("%s:%d: %s: not run: %s", page, c.line, c.text, why)
				continue
			}
			if why, required := missing(c.text); why != "" {
				if required && os.Getenv("CI") == "true" {
					t.Errorf("%s:%d: %s: %s, and CI needs it", page, c.line, c.text, why)
					failed = true
					break
				}
				t.Logf("%s:%d: %s: not run: %s", page, c.line, c.text, why)
				continue
			}
			text := c.text
			fields := strings.Fields(text)
			exact := readsUntainted(tainted, fields)
			if !full {
				key := subcommand(fields)
				if fields[0] != "deup" {
					key = fields[0]
				}
				if extra, ok := readmeSpeed[key]; ok {
					text += " " + strings.Join(extra, " ")
					exact = false
				}
				if strings.Contains(text, "drugcomb/drugs.csv") {
					text = strings.ReplaceAll(text, "drugcomb/drugs.csv", small)
					exact = false
				}
				if strings.HasPrefix(withoutEnv(text), "snakemake ") && strings.Contains(text, " --config ") {
					// the workflow's config: the small catalogue, fewer epochs
					text = strings.Replace(text, " --config ", " --config catalogue="+small+" shards=2 'train_args=--epochs 3' ", 1)
					exact = false
				}
			}
			for _, o := range outputsOf(fields) {
				tainted[o] = !exact // a command run as printed writes its outputs anew
			}
			t0 := time.Now()
			cmd := exec.Command("bash", "-c", text)
			cmd.Dir, cmd.Env = cdir, env
			out, err := cmd.CombinedOutput()
			n++
			if err != nil {
				// The lines already placed are still rewritten in update
				// mode; the rest of the pages does not run.
				t.Errorf("%s:%d: %s: %v\n%s", page, c.line, text, err, out)
				failed = true
				break
			}
			note := ""
			if !exact {
				note = " (not as printed, or it reads what such a run wrote: output not compared)"
			}
			t.Logf("%s:%d: %s: %.1fs%s", page, c.line, text, time.Since(t0).Seconds(), note)
			if !exact || !c.compare {
				continue
			}
			for _, d := range compareShown(c.shown, strings.Split(strings.TrimRight(string(out), "\n"), "\n"), p.tolerance) {
				if update && d.got != "" {
					if edits == nil {
						edits = map[int]string{}
					}
					edits[d.line] = d.got
					continue
				}
				t.Errorf("%s:%d: %s: the page shows\n\t%s\n%s\nthe output:\n%s", page, d.line, c.text, d.want, d.why, out)
			}
		}
		if len(edits) > 0 {
			if err := rewriteLines(path, edits); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: rewrote %d output line(s) from the run (DEUP_DOCS_UPDATE=1)", page, len(edits))
		}
		if failed {
			t.FailNow()
		}
	}
	t.Logf("%d commands of README.md and docs/ in %.0fs (DEUP_README_FULL=%v)", n, time.Since(start).Seconds(), full)
}

// skipped is why the command text is never run, or "".
func skipped(text string) string {
	text = withoutEnv(text)
	for _, s := range docSkip {
		if strings.HasPrefix(text+" ", s.prefix) {
			return s.why
		}
	}
	return ""
}

// missing is why the command text cannot run on this machine (a program it
// needs is not on PATH, docNeeds), or ""; required reports whether CI
// must have the program.
func missing(text string) (why string, required bool) {
	text = withoutEnv(text)
	for _, n := range docNeeds {
		if strings.HasPrefix(text+" ", n.prefix) {
			for _, p := range n.programs {
				if _, err := exec.LookPath(p); err != nil {
					if n.installs != "" && os.Geteuid() == 0 {
						if _, err := exec.LookPath(n.installs); err == nil {
							break // the commands before it install the programs
						}
					}
					return n.why, n.ci
				}
			}
		}
	}
	return "", false
}

// envWord is a leading VAR=value word of a shell command.
var envWord = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=\S*$`)

// withoutEnv is the command text without its leading VAR=value words.
func withoutEnv(text string) string {
	f := strings.Fields(text)
	for len(f) > 0 && envWord.MatchString(f[0]) {
		f = f[1:]
	}
	return strings.Join(f, " ")
}

// builtDeup is the path X of "go build -o X ./cmd/deup", or "".
func builtDeup(text string) string {
	f := strings.Fields(withoutEnv(text))
	if len(f) == 5 && f[0] == "go" && f[1] == "build" && f[2] == "-o" && f[4] == "./cmd/deup" {
		return f[3]
	}
	return ""
}

// checkoutCopy makes dir a stand-in for the checkout root, for the blocks
// marked "from the checkout": a link to each top-level entry git tracks
// (so what a command writes, bin/ or run1/, lands in dir, not in the
// checkout), and data, the real-data directory, linked as ../shared/data
// beside it, where the checkout's own paths look for it.
func checkoutCopy(root, dir, data string) error {
	out, err := exec.Command("git", "-C", root, "ls-files").Output()
	if err != nil {
		return fmt.Errorf("git ls-files in %s: %w", root, err)
	}
	seen := map[string]bool{}
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		top, _, _ := strings.Cut(f, "/")
		if top == "" || seen[top] {
			continue
		}
		seen[top] = true
		abs, err := filepath.Abs(filepath.Join(root, top))
		if err != nil {
			return err
		}
		if err := os.Symlink(abs, filepath.Join(dir, top)); err != nil {
			return err
		}
	}
	shared := filepath.Join(filepath.Dir(dir), "shared")
	if err := os.MkdirAll(shared, 0o755); err != nil {
		return err
	}
	return os.Symlink(data, filepath.Join(shared, "data"))
}

// subcommand names a deup command by its first words: "bench", or
// "campaign simulate" and "data import" for the commands with subcommands.
func subcommand(fields []string) string {
	if len(fields) < 2 || fields[0] != "deup" {
		return ""
	}
	name := fields[1]
	if len(fields) > 2 && !strings.HasPrefix(fields[2], "-") && (name == "campaign" || name == "data" || name == "scores" || name == "plate") {
		name += " " + fields[2]
	}
	return name
}

// readsUntainted reports whether no argument of the command fields, but
// its outputs (outputsOf: they are written, not read), is or is below a
// tainted path.
func readsUntainted(tainted map[string]bool, fields []string) bool {
	out := map[string]bool{}
	for _, o := range outputsOf(fields) {
		out[o] = true
	}
	skip := 0 // the command's own words: deup plate design is no path "plate"
	if sub := subcommand(fields); sub != "" {
		skip = 1 + len(strings.Fields(sub))
	}
	for _, a := range fields[skip:] {
		if !out[filepath.Clean(strings.TrimRight(a, ";&|)"))] && isTainted(tainted, a) {
			return false
		}
	}
	return true
}

// isTainted reports whether the argument a is, or is below, a path in
// tainted.
func isTainted(tainted map[string]bool, a string) bool {
	for p := filepath.Clean(a); p != "." && p != "/" && p != ""; p = filepath.Dir(p) {
		if tainted[p] {
			return true
		}
		if filepath.Dir(p) == p {
			break
		}
	}
	return false
}

// outputsOf is what a command writes: its --out, or the campaign directory
// of campaign init (its last argument).
func outputsOf(fields []string) []string {
	var out []string
	for i, a := range fields {
		if a == "--out" && i+1 < len(fields) {
			out = append(out, filepath.Clean(strings.TrimRight(fields[i+1], ";&|)"))) // in a shell loop: --out scores; done
		}
	}
	if len(fields) > 3 && fields[0] == "deup" && fields[1] == "campaign" && fields[2] == "init" {
		out = append(out, filepath.Clean(fields[len(fields)-1]))
	}
	return out
}

// numberRE is a number as the commands print them; timingRE a timing,
// rate or memory figure, masked before comparing.
var (
	numberRE = regexp.MustCompile(`\b[0-9a-f]{12,}\b|[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?`) // a hex digest (a checksum, a model id) is one value
	timingRE = regexp.MustCompile(`(?:\d+h)?(?:\d+m)?\d+(?:\.\d+)?(?:ms|µs|ns|s|min|h)\b|\d+(?:\.\d+)?\s?(?:s/epoch|\w+/s\b|MiB|MB|GB|blocks per CPU-second|/s per worker)`)
)

// mismatch is a shown line that does not match the run: the page's line,
// its text, why, and the output line to write instead in update mode (""
// when there is none to place).
type mismatch struct {
	line      int
	want, why string
	got       string
}

// compareShown matches the shown lines, in order, against the output
// lines: a shown line matches the first later output line of the same text
// once numbers are set aside, whose numbers are then equal within tol
// (relative); "..." in a shown line is any text, a line of "..." any
// lines. Timings are masked on both sides.
func compareShown(shown []shownLine, out []string, tol float64) []mismatch {
	var bad []mismatch
	next := 0
	for _, s := range shown {
		want := strings.TrimSpace(s.text)
		if want == "..." {
			continue
		}
		mw := timingRE.ReplaceAllString(want, "~")
		found := false
		for i := next; i < len(out); i++ {
			got := strings.TrimSpace(out[i])
			mg := timingRE.ReplaceAllString(got, "~")
			if strings.Contains(want, "...") {
				if wildMatch(mw, mg) {
					next, found = i+1, true
					break
				}
				continue
			}
			if numberRE.ReplaceAllString(mw, "#") != numberRE.ReplaceAllString(mg, "#") {
				continue
			}
			next, found = i+1, true
			if why := numbersDiffer(numberRE.FindAllString(mw, -1), numberRE.FindAllString(mg, -1), tol); why != "" {
				bad = append(bad, mismatch{s.line, want, fmt.Sprintf("the run printed\n\t%s\n(%s)", got, why), out[i]})
			}
			break
		}
		if !found {
			bad = append(bad, mismatch{line: s.line, want: want, why: "no output line after the previous match has this text (numbers and timings set aside; \"...\" any text)"})
		}
	}
	return bad
}

// wildMatch reports whether s matches pattern p, where "..." is any text.
func wildMatch(p, s string) bool {
	parts := strings.Split(p, "...")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for i, part := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(s, part)
		}
		j := strings.Index(s, part)
		if j < 0 {
			return false
		}
		s = s[j+len(part):]
	}
	return true
}

// numbersDiffer compares the numbers of a shown and an output line: equal
// text, or values within tol relative to the larger; "" when they agree.
func numbersDiffer(want, got []string, tol float64) string {
	for i := range want {
		if want[i] == got[i] {
			continue
		}
		a, errA := strconv.ParseFloat(want[i], 64)
		b, errB := strconv.ParseFloat(got[i], 64)
		if errA == nil && errB == nil && tol > 0 && math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b)) {
			continue
		}
		return fmt.Sprintf("number %d: %s shown, %s printed; tolerance %g", i+1, want[i], got[i], tol)
	}
	return ""
}

// rewriteLines replaces lines of the file path (1-based numbers) with the
// given text, keeping the file's other bytes.
func rewriteLines(path string, edits map[int]string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.Split(string(b), "\n")
	for n, text := range edits {
		lines[n-1] = text
	}
	return os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
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

// TestDocCommands checks the extraction on a small page: sh lines with
// comments, console commands with continuation lines and their shown
// output, markers, other blocks left out.
func TestDocCommands(t *testing.T) {
	md := "text `deup inline` not run\n<!-- deup-docs: tolerance 0.01 -->\n\n```sh\ngo install x@latest\ndeup -h            # help\n# a comment line\ngo run ./cmd/deup bench  # quick\n```\n\n" +
		"```console\n$ deup data import --pairs a.csv \\\n      --out pc3\ndata report\n  ...\nwrote pc3\n$ head -2 x.csv   # two lines\nid,mu\n```\n\n" +
		"<!-- deup-docs: not compared: timings -->\n```console\n$ deup x\n1\n```\n\n<!-- deup-docs: not run: needs a cluster -->\n```sh\nsbatch x\n```\n\n```\ndeup not-a-command\n```\n"
	path := filepath.Join(t.TempDir(), "README.md")
	if err := os.WriteFile(path, []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	got := docCommands(t, path)
	want := docPage{tolerance: 0.01, cmds: []docCommand{
		{line: 5, text: "go install x@latest", compare: true},
		{line: 6, text: "deup -h", compare: true},
		{line: 8, text: "deup bench", compare: true},
		{line: 12, text: "deup data import --pairs a.csv --out pc3", shown: []shownLine{{14, "data report"}, {15, "  ..."}, {16, "wrote pc3"}}, compare: true},
		{line: 17, text: "head -2 x.csv", shown: []shownLine{{18, "id,mu"}}, compare: true},
		{line: 23, text: "deup x", shown: []shownLine{{24, "1"}}},
	}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

// TestCompareShown: the comparison of shown and printed lines, table-driven
// (the cases are the rules of the comment at the top of this file).
func TestCompareShown(t *testing.T) {
	out := []string{
		"data report (almanac: a.csv)",
		"  rows read        1474",
		"trained deup: 80 epochs in all in 48.692s (0.609 s/epoch)",
		"out-of-sample RMSE 38.81 on 389 pairs",
		"wrote pc3 (48.876s total)",
		"scores: complete: 1 cell lines, 8592585 rows, checksum 8592585:2a0358b5e1f00d3c:0123456789abcdef",
	}
	for _, c := range []struct {
		name  string
		shown []string
		tol   float64
		bad   []int // indices of the shown lines that mismatch
		got   []string
	}{
		{name: "same", shown: []string{"rows read        1474", "out-of-sample RMSE 38.81 on 389 pairs"}},
		{name: "timings masked", shown: []string{"trained deup: 80 epochs in all in 12.1s (0.1 s/epoch)", "wrote pc3 (1.000s total)"}},
		{name: "minutes masked", shown: []string{"trained deup: 80 epochs in all in 4m25.171s (3.315 s/epoch)", "wrote pc3 (1h2m3s total)"}},
		{name: "a number moved", shown: []string{"out-of-sample RMSE 38.80 on 389 pairs"}, bad: []int{0}, got: []string{out[3]}},
		{name: "within tolerance", shown: []string{"out-of-sample RMSE 38.80 on 389 pairs"}, tol: 0.001},
		{name: "count moved", shown: []string{"trained deup: 81 epochs in all in 48.692s (0.609 s/epoch)"}, bad: []int{0}, got: []string{out[2]}},
		{name: "text missing", shown: []string{"rows kept 1474"}, bad: []int{0}, got: []string{""}},
		{name: "out of order", shown: []string{"out-of-sample RMSE 38.81 on 389 pairs", "rows read        1474"}, bad: []int{1}, got: []string{""}},
		{name: "wildcard", shown: []string{"data report (...)", "...", "trained deup: 80 epochs ..."}},
		{name: "wildcard text differs", shown: []string{"trained due: ..."}, bad: []int{0}, got: []string{""}},
		{name: "checksum moved", shown: []string{"scores: complete: 1 cell lines, 8592585 rows, checksum 8592585:8a63b2cf09a9b08b:4f04608de8937796"},
			bad: []int{0}, got: []string{"scores: complete: 1 cell lines, 8592585 rows, checksum 8592585:2a0358b5e1f00d3c:0123456789abcdef"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var shown []shownLine
			for i, s := range c.shown {
				shown = append(shown, shownLine{i, s})
			}
			bad := compareShown(shown, out, c.tol)
			var idx []int
			var got []string
			for _, b := range bad {
				idx, got = append(idx, b.line), append(got, b.got)
			}
			if fmt.Sprint(idx) != fmt.Sprint(c.bad) || len(c.bad) > 0 && fmt.Sprint(got) != fmt.Sprint(c.got) {
				t.Errorf("mismatches %v %q, want %v %q (%+v)", idx, got, c.bad, c.got, bad)
			}
		})
	}
}

// TestDocsUpdate: the update mode's rewrite puts the run's line in place of
// a shown line whose numbers moved, and leaves the other bytes of the page.
func TestDocsUpdate(t *testing.T) {
	md := "# P\n\n```console\n$ deup x\n  rows read        1475\nwrote pc3 (2.0s)\n```\nend\n"
	path := filepath.Join(t.TempDir(), "p.md")
	if err := os.WriteFile(path, []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	p := docCommands(t, path)
	bad := compareShown(p.cmds[0].shown, []string{"  rows read        1474", "wrote pc3 (9.5s)"}, 0)
	if len(bad) != 1 || bad[0].line != 5 || bad[0].got != "  rows read        1474" {
		t.Fatalf("mismatches %+v, want line 5 with the run's line", bad)
	}
	if err := rewriteLines(path, map[int]string{bad[0].line: bad[0].got}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(md, "1475", "1474", 1); string(b) != want {
		t.Errorf("rewritten page\n%s\nwant\n%s", b, want)
	}
}

// TestReadsUntainted: a command reading a tainted file does not give the
// page's numbers; one that only writes over a tainted name does, and its
// output is no longer tainted (the tour's round1.csv, then plates.md's).
func TestReadsUntainted(t *testing.T) {
	tainted := map[string]bool{"round1.csv": true, "pc3.model": true, "fresh": false, "plate": true}
	for cmd, want := range map[string]bool{
		"deup suggest --campaign c --out round1.csv":      true,
		"deup plate design --batch round1.csv --out p1":   false,
		"deup predict --model pc3.model --out x.csv":      false,
		"deup predict --model fresh/m --out pc3.model":    true,
		"deup campaign init --from-model pc3.model plate": false,
		"deup plate design --batch fresh/b.csv --out p1":  true, // "plate" is the command, not the tainted campaign plate
	} {
		if got := readsUntainted(tainted, strings.Fields(cmd)); got != want {
			t.Errorf("%s: %v, want %v", cmd, got, want)
		}
	}
}

// TestOutputsOf: what a command writes, as the fast mode taints it; a
// shell loop's --out keeps its name without the ";" that ends it.
func TestOutputsOf(t *testing.T) {
	for _, c := range []struct{ cmd, want string }{
		{"deup train --screen pc3 --out pc3.model", "[pc3.model]"},
		{"for i in 0 1; do deup predict --model m --all-pairs --shard $i/2 --out scores; done", "[scores]"},
		{"deup campaign init --from-model pc3.model plate", "[plate]"},
		{"head -2 x.csv", "[]"},
	} {
		if got := fmt.Sprint(outputsOf(strings.Fields(c.cmd))); got != c.want {
			t.Errorf("%s: %s, want %s", c.cmd, got, c.want)
		}
	}
}

// TestDocRunRules: commands after VAR=value words are skipped by their
// program (go test), go build -o X ./cmd/deup is recognised (the test puts
// its deup at X), and a command whose program is missing says why.
func TestDocRunRules(t *testing.T) {
	if why := skipped("DEUP_EXPERIMENT=mean DEUP_EXP_SCREEN=PC-3 go test -run TestMeanExperiment ./model/"); why == "" {
		t.Error("an env-prefixed go test is run")
	}
	if why := skipped("deup bench"); why != "" {
		t.Errorf("deup bench skipped: %s", why)
	}
	for cmd, want := range map[string]string{
		"go build -o bin/deup ./cmd/deup":         "bin/deup",
		"GOOS=linux go build -o x ./cmd/deup":     "x",
		"go build -o bin/deup ./cmd/deup/foo":     "",
		"go build ./cmd/deup":                     "",
		"snakemake -s workflow/Snakefile --cores": "",
	} {
		if got := builtDeup(cmd); got != want {
			t.Errorf("builtDeup(%q) = %q, want %q", cmd, got, want)
		}
	}
	t.Setenv("PATH", t.TempDir()) // nothing on it
	if why, ci := missing("snakemake -s workflow/Snakefile"); why == "" || !ci {
		t.Errorf("snakemake without PATH: %q, %v", why, ci)
	}
	if why, ci := missing("scripts/slurm-single-node.sh demo"); why == "" || !ci {
		t.Errorf("slurm without sbatch or apt-get: %q, %v", why, ci)
	}
	apt := t.TempDir() // an apt-get, not sbatch: root's script can install Slurm
	if err := os.WriteFile(filepath.Join(apt, "apt-get"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", apt)
	if why, _ := missing("scripts/slurm-single-node.sh start"); (why == "") != (os.Geteuid() == 0) {
		t.Errorf("slurm with apt-get, euid %d: %q", os.Geteuid(), why)
	}
	t.Setenv("PATH", t.TempDir())
	if fullOnly("scripts/slurm-single-node.sh start") == "" || fullOnly("snakemake -s workflow/Snakefile") != "" {
		t.Error("fullOnly: the Slurm script runs in full mode only, Snakemake in both")
	}
	if why, _ := missing("deup bench"); why != "" {
		t.Errorf("deup bench: %q", why)
	}
}
