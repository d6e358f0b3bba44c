package cmdline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/deup-screening/deup/internal/sandbox"
)

// Errors a user can act on: every error Main prints names the file it is
// about and what to do, never only an internal package's name. Commands
// check the files named on the command line before they start (NeedFile,
// NeedOutDir, and the openers of screens, models and campaigns);
// UserMessage removes the package prefixes that the libraries' errors
// carry ("drugcomb: open: ...") from whatever else reaches Main.

// NeedFile checks that path, given with flag ("--pairs"; "" for a
// positional argument), names a file that exists; otherwise the error says
// what to give instead (what: "a CSV of drug pairs ..."). "-" (standard
// input) is accepted.
func NeedFile(flag, path, what string) error {
	if path == "" || path == "-" {
		return nil
	}
	name := "file " + path
	if flag != "" {
		name = flag + " " + path
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s does not exist: give %s", name, what)
	case err != nil:
		return fmt.Errorf("%s cannot be read (%v): give %s", name, pathReason(err), what)
	case fi.IsDir():
		return fmt.Errorf("%s is a directory: give %s", name, what)
	}
	return nil
}

// NeedOutDir checks that the directory an output file goes into exists.
func NeedOutDir(flag, path string) error {
	if path == "" || path == "-" {
		return nil
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: directory %s does not exist: create it first (mkdir -p %s) or write elsewhere", flag, path, dir, dir)
	case err != nil:
		return fmt.Errorf("%s %s: %v", flag, path, pathReason(err))
	case !fi.IsDir():
		return fmt.Errorf("%s %s: %s is not a directory", flag, path, dir)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s %s is a directory: give a file name", flag, path)
	}
	return nil
}

// pathReason is err without the operation and path that *fs.PathError
// repeats ("open x: permission denied" -> "permission denied").
func pathReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// internalPrefixes are the names with which the project's packages begin
// their errors (and drugcomb's operation words), which mean nothing to a
// user of the command.
var internalPrefixes = []string{
	"active", "arrowguard", "bench", "catalogue", "chem", "data", "drugcomb", "due",
	"features", "fingerprint", "ledger", "lincs", "mlp", "model", "pairs",
	"simreport", "tabular", "smo", "suggest", "trained", "uq",
	"open", "load", "save",
}

// UserMessage is err's message without the internal package prefixes
// ("drugcomb: open: x/meta.json: ..." -> "x/meta.json: ..."), at the start
// and after each ": ". A prefix that names a file or directory that exists
// (a screen directory called "data", a model file called "model") is kept:
// it may be the path the message is about.
func UserMessage(err error) string {
	msg := err.Error()
	var b strings.Builder
	for {
		for stripped := true; stripped; {
			stripped = false
			for _, p := range internalPrefixes {
				if strings.HasPrefix(msg, p+": ") && !exists(p) {
					msg = msg[len(p)+2:]
					stripped = true
				}
			}
		}
		i := strings.Index(msg, ": ")
		if i < 0 {
			b.WriteString(msg)
			return b.String()
		}
		b.WriteString(msg[:i+2])
		msg = msg[i+2:]
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Sandboxed runs `deup ARGS` through env.Sandbox with an address-space cap
// of limit bytes and translates how the child ended: its own failures
// (already reported on stderr) keep their exit status, and running out of
// the cap becomes an error naming the file and the flag that raises it.
func (env Env) Sandboxed(ctx context.Context, args []string, limit int64, file, flagName string) error {
	err := env.Sandbox(ctx, args, limit)
	var ee *sandbox.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee):
		return ExitError{ee.Code}
	case errors.Is(err, sandbox.ErrMemory):
		return fmt.Errorf("%s: reading it needs more memory than %s %d MiB allows (%v): a damaged file can declare sizes it does not have; if the file is sound, raise %s",
			file, flagName, limit>>20, err, flagName)
	default:
		return fmt.Errorf("%s: %w", file, err)
	}
}
