package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/deup-screening/deup/almanac"
	"github.com/deup-screening/deup/chem/fptable"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/scores"
)

// The data libraries (drugcomb, chem/fptable, almanac, scores) say what is
// wrong; this file adds what to type about it, in the commands' flags
// (through hint, hints.go: a *drugcomb.DirError from whichever layer
// opened the screen gets screenDirMessage).

// screenDirMessage is a *drugcomb.DirError with what to run: screen
// directories are written by deup data import --out.
func screenDirMessage(e *drugcomb.DirError) string {
	switch e.Problem {
	case drugcomb.DirMissing:
		return fmt.Sprintf("%v: create it with deup data import --out %s (or leave out --screen for the synthetic default)", e, e.Dir)
	case drugcomb.DirIsFile:
		return fmt.Sprintf("%v: give the directory deup data import --out wrote (the one holding %s)", e, drugcomb.MetaFile)
	case drugcomb.DirNoMeta:
		return fmt.Sprintf("%v: screen directories are written by deup data import --out DIR", e)
	}
	return fmt.Sprintf("%v (the screen in %s cannot be read: import it again with deup data import --out %s)", e.Err, e.Dir, e.Dir)
}

// importFormatMessage is a *drugcomb.FormatError in deup data import's
// flags (--format, --drugs, --drug-a …); another error as it is.
func importFormatMessage(err error) string {
	var fe *drugcomb.FormatError
	if !errors.As(err, &fe) {
		return err.Error()
	}
	switch fe.Problem {
	case drugcomb.FormatNeedsCatalogue:
		return fmt.Sprintf("deup data import --format %s needs --drugs FILE (the CID catalogue)", fe.Format)
	case drugcomb.FormatFixedColumns:
		return fmt.Sprintf("deup data import --format %s has a fixed column map; use --format table for --drug-a etc.", fe.Format)
	case drugcomb.FormatNeedsColumns:
		return fmt.Sprintf("deup data import --format %s needs --drug-a, --drug-b and --score", fe.Format)
	case drugcomb.FormatOneSMILES:
		return "deup data import: give both --smiles-a and --smiles-b, or neither"
	case drugcomb.FormatKnownNeedsCatalogue:
		return "deup data import: --known-only needs --drugs FILE"
	}
	return fmt.Sprintf("deup data import: unknown --format %q (almanac, almanac-wells, doseresponse, drugcomb, table)", fe.Format)
}

// catalogueHint is a *fptable.CatalogueError with the flags that name a
// catalogue's columns; another error as it is.
func catalogueHint(err error) error {
	var ce *fptable.CatalogueError
	switch {
	case !errors.As(err, &ce):
		return err
	case ce.Err != nil:
		return &hinted{msg: err.Error() + " (name the columns with --drug-id-col and --smiles-col)", err: err}
	}
	return &hinted{msg: err.Error() + "; name it with --smiles-col", err: err}
}

// sourceHint is an *almanac.SourceError naming its file by the flag of
// deup data import --format almanac-wells that gives it; another error as
// it is.
func sourceHint(err error) error {
	var se *almanac.SourceError
	if !errors.As(err, &se) {
		return err
	}
	flag := map[almanac.SourceFile]string{almanac.CompoundsFile: "--compounds", almanac.NamesFile: "--names", almanac.CatalogueFile: "--drugs"}[se.File]
	return fmt.Errorf("import: %s %w", flag, se.Err)
}

// shardHints words the problems of a scores check report for the command
// line: a file without a shard's identity is one not written by deup
// predict --shard.
func shardHints(rep *scores.Report) {
	for i, p := range rep.Problems {
		rep.Problems[i] = strings.ReplaceAll(p, scores.ErrNoIdentity.Error(), "not written by deup predict --shard")
	}
}
