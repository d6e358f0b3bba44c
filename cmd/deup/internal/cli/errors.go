package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Errors a user can act on: every error Main prints names the file it is
// about and what to do, never only an internal package's name. Commands
// check the files named on the command line before they start (needFile,
// needOutDir, and openScreen, openModel, campaign.Open); userMessage removes
// the package prefixes that the libraries' errors carry
// ("drugcomb: open: ...") from whatever else reaches Main.

// What the input files of the commands hold, for needFile's errors.
const (
	catalogueWhat = "a drug catalogue (CSV, TSV, Parquet or Arrow with an id, name or PubChem CID column and a SMILES column)"
	pairsWhat     = "a CSV of drug pairs with columns drug_a_id and drug_b_id (ids, PubChem CIDs or names)"
	resultsWhat   = "a CSV of measured pairs (drug_a_id, drug_b_id and a score column), e.g. the lab's copy of the exported round"
)

// needFile checks that path, given with flag ("--pairs"; "" for a
// positional argument), names a file that exists; otherwise the error says
// what to give instead (what: "a CSV of drug pairs ..."). "-" (standard
// input) is accepted.
func needFile(flag, path, what string) error {
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

// needOutDir checks that the directory an output file goes into exists.
func needOutDir(flag, path string) error {
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

// userMessage is err's message without the internal package prefixes
// ("drugcomb: open: x/meta.json: ..." -> "x/meta.json: ..."), at the start
// and after each ": ". A prefix that names a file or directory that exists
// (a screen directory called "data", a model file called "model") is kept:
// it may be the path the message is about.
func userMessage(err error) string {
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
