package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// EnvLimit is the environment variable through which Run gives the child
// its cap, in bytes. Apply reads it.
const EnvLimit = "DEUP_SANDBOX_ADDRESS_LIMIT"

// minLimit is the smallest cap Run and Apply accept: the Go runtime of the
// child reserves address space lazily, about 1 GiB of it for its own
// bookkeeping (a Go hello-world maps 1.2 GB of virtual memory), so a cap
// leaves roughly 1 GiB less than itself for the program's data.
const minLimit = 1 << 30

// ErrMemory is wrapped by the error Run returns when the child needed more
// memory than its cap.
var ErrMemory = errors.New("out of memory")

// ExitError is Run's error when the child exited with a non-zero status on
// its own (an ordinary failure it has already reported on its stderr).
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// Config is the child's environment.
type Config struct {
	Limit  int64 // address-space cap in bytes (≥ 1 GiB)
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Env is the child's environment without EnvLimit (nil: this
	// process's environment).
	Env []string
}

// Apply caps this process's address space at the limit that Run put in
// the environment (getenv(EnvLimit)), and Go's soft memory limit at half
// of it. It reports whether a cap is in force; without EnvLimit it does
// nothing.
func Apply(getenv func(string) string) (bool, error) {
	v := getenv(EnvLimit)
	if v == "" {
		return false, nil
	}
	limit, err := strconv.ParseInt(v, 10, 64)
	if err != nil || limit < minLimit {
		return false, fmt.Errorf("sandbox: %s=%q: want a number of bytes ≥ %d", EnvLimit, v, minLimit)
	}
	if err := setAddressLimit(uint64(limit)); err != nil {
		return false, fmt.Errorf("sandbox: capping the address space at %d bytes: %w", limit, err)
	}
	debug.SetMemoryLimit(limit / 2)
	return true, nil
}

// Run runs exe with args in a child process capped at cfg.Limit bytes of
// address space, and waits for it. Cancelling ctx interrupts the child
// (os.Interrupt, then a kill after 10 s).
func Run(ctx context.Context, exe string, args []string, cfg Config) error {
	if !Supported {
		return errors.New("sandbox: no address-space limit on this platform")
	}
	if cfg.Limit < minLimit {
		return fmt.Errorf("sandbox: limit %d bytes is below the minimum of %d", cfg.Limit, minLimit)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	kept := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, EnvLimit+"=") {
			kept = append(kept, kv)
		}
	}
	cmd.Env = append(kept, EnvLimit+"="+strconv.FormatInt(cfg.Limit, 10))
	cmd.Stdin, cmd.Stdout = cfg.Stdin, cfg.Stdout
	stderr := cfg.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("sandbox: starting %s: %w", exe, err)
	}
	crash := filterStderr(pipe, stderr)
	werr := cmd.Wait()
	if werr == nil {
		return nil
	}
	report := crash.String()
	if m := oomLine.FindStringSubmatch(report); m != nil {
		n, _ := strconv.ParseInt(m[1], 10, 64)
		return fmt.Errorf("the child process asked for a %s block beyond its cap of %s: %w", humanBytes(n), humanBytes(cfg.Limit), ErrMemory)
	}
	if strings.Contains(report, "out of memory") {
		return fmt.Errorf("the child process exceeded its cap of %s: %w", humanBytes(cfg.Limit), ErrMemory)
	}
	if report != "" {
		// Not a memory cap: a bug, whose report the user needs.
		io.WriteString(stderr, report)
		first, _, _ := strings.Cut(strings.TrimSpace(report), "\n")
		return fmt.Errorf("sandbox: the child process crashed: %s", first)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ee *exec.ExitError
	if errors.As(werr, &ee) && ee.ExitCode() > 0 {
		return &ExitError{Code: ee.ExitCode()}
	}
	return fmt.Errorf("sandbox: %s: %w", exe, werr)
}

// oomLine is the Go runtime's report of an allocation the OS refused.
var oomLine = regexp.MustCompile(`runtime: out of memory: cannot allocate (\d+)-byte block`)

// crashStart matches the first line of a Go runtime crash report.
var crashStart = regexp.MustCompile(`^(runtime: out of memory|fatal error: |panic: |unexpected fault address|SIGSEGV|SIGBUS)`)

// maxReport bounds the crash report kept in memory.
const maxReport = 64 << 10

// filterStderr copies r to w until a line starts a Go crash report; the
// report (its first maxReport bytes) is kept instead of printed. Text is
// passed on at every '\n' or '\r', so progress lines redrawn with '\r'
// are not held back. It returns when r is exhausted.
func filterStderr(r io.Reader, w io.Writer) *bytes.Buffer {
	var report bytes.Buffer
	var pending []byte
	crashed := false
	emit := func(seg []byte) {
		if !crashed && crashStart.Match(seg) {
			crashed = true
		}
		if !crashed {
			w.Write(seg)
		} else if room := maxReport - report.Len(); room > 0 {
			report.Write(seg[:min(len(seg), room)])
		}
	}
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		pending = append(pending, buf[:n]...)
		for {
			i := bytes.IndexAny(pending, "\n\r")
			if i < 0 {
				break
			}
			emit(pending[:i+1])
			pending = pending[i+1:]
		}
		if len(pending) > maxReport {
			emit(pending)
			pending = pending[:0]
		}
		if err != nil {
			if len(pending) > 0 {
				emit(pending)
			}
			return &report
		}
	}
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, i := float64(n), 0
	for f >= unit && i < 6 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", f, "KMGTPE"[i-1])
}
