package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// e2eTerm drives the real deup binary in a tmux terminal for end-to-end
// tests: it builds the binary into a temporary directory, runs commands
// there, and polls the terminal until expected text appears (deadlines, no
// fixed sleeps).
type e2eTerm struct {
	t                    *testing.T
	dir, bin, tmux, sock string
}

// newE2ETerm builds the binary, or skips the test with -short or without
// tmux (.ci/run installs it).
func newE2ETerm(t *testing.T, name string) *e2eTerm {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux not installed")
	}
	dir := t.TempDir()
	e := &e2eTerm{t: t, dir: dir, bin: filepath.Join(dir, "deup"), tmux: tmux, sock: fmt.Sprintf("deup-e2e-%s-%d", name, os.Getpid())}
	if out, err := exec.Command("go", "build", "-o", e.bin, "github.com/deup-screening/deup/cmd/deup").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return e
}

// run runs a command in the test directory and returns its output.
func (e *e2eTerm) run(name string, args ...string) string {
	e.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = e.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		e.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (e *e2eTerm) tm(args ...string) string {
	e.t.Helper()
	return e.run(e.tmux, append([]string{"-L", e.sock}, args...)...)
}

// start opens a width×30 terminal running `deup ARGS`; its exit status is
// written to the file "status" (see waitExit).
func (e *e2eTerm) start(width int, args string) {
	e.t.Helper()
	e.tm("new-session", "-d", "-s", "e2e", "-x", fmt.Sprint(width), "-y", "30", "-c", e.dir,
		e.bin+" "+args+"; echo exit=$? > status; sleep 60")
	e.t.Cleanup(func() { exec.Command(e.tmux, "-L", e.sock, "kill-server").Run() })
}

func (e *e2eTerm) screen() string { return e.tm("capture-pane", "-p", "-t", "e2e") }

// waitFor returns the screen once it shows what, or fails after 60 s.
func (e *e2eTerm) waitFor(what string) string {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		s := e.screen()
		if strings.Contains(s, what) {
			return s
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("no %q on the screen after 60s:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (e *e2eTerm) keys(k ...string) {
	e.t.Helper()
	e.tm(append([]string{"send-keys", "-t", "e2e"}, k...)...)
}

// waitExit waits up to 30 s for the program to exit with status 0.
func (e *e2eTerm) waitExit() {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(filepath.Join(e.dir, "status"))
		if strings.TrimSpace(string(b)) == "exit=0" {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("deup did not exit 0 (status %q):\n%s", b, e.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
