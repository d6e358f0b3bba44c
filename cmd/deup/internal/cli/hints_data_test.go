package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/deup-screening/deup/almanac"
	"github.com/deup-screening/deup/chem/fptable"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/scores"
)

// The data libraries' errors get the command line's hints here, worded as
// deup printed them when the libraries named the flags themselves
// (testdata/script/errors.txtar and usage_data_import.txtar pin the same
// texts end to end).
func TestDataHints(t *testing.T) {
	read := errors.New("x/meta.json: unexpected end of JSON input")
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"missing screen", &drugcomb.DirError{Dir: "d", Problem: drugcomb.DirMissing},
			"screen directory d does not exist: create it with deup data import --out d (or leave out --screen for the synthetic default)"},
		{"a file", &drugcomb.DirError{Dir: "f", Problem: drugcomb.DirIsFile},
			"f is a file, not a screen directory: give the directory deup data import --out wrote (the one holding meta.json)"},
		{"no meta.json", &drugcomb.DirError{Dir: "d", Problem: drugcomb.DirNoMeta},
			"d is not a screen directory (no meta.json): screen directories are written by deup data import --out DIR"},
		{"unreadable", &drugcomb.DirError{Dir: "x", Problem: drugcomb.DirUnreadable, Err: read},
			"x/meta.json: unexpected end of JSON input (the screen in x cannot be read: import it again with deup data import --out x)"},
		// Wrapped by a layer between: the hint goes where the error stands.
		{"wrapped", fmt.Errorf("model m: %w; then", &drugcomb.DirError{Dir: "d", Problem: drugcomb.DirNoMeta}),
			"model m: d is not a screen directory (no meta.json): screen directories are written by deup data import --out DIR; then"},
		{"other", fs.ErrNotExist, fs.ErrNotExist.Error()},
		{"catalogue", catalogueHint(&fptable.CatalogueError{Name: "c.csv", Err: errors.New("drugcomb: catalogue: c.csv:2:3: bad")}),
			"catalogue c.csv:2:3: bad (name the columns with --drug-id-col and --smiles-col)"},
		{"no SMILES column", catalogueHint(&fptable.CatalogueError{Name: "c.csv", Header: []string{"name", "cid"}}),
			"c.csv: the catalogue has no SMILES column (smiles, isosmiles, isomeric_smiles, isomericsmiles, canonical_smiles, canonicalsmiles, can_smiles, smiles_string, drug_smiles); the header has: name, cid; name it with --smiles-col"},
		{"compounds", sourceHint(&almanac.SourceError{File: almanac.CompoundsFile, Err: read}), "import: --compounds " + read.Error()},
		{"names", sourceHint(&almanac.SourceError{File: almanac.NamesFile, Err: read}), "import: --names " + read.Error()},
		{"drugs", sourceHint(&almanac.SourceError{File: almanac.CatalogueFile, Err: read}), "import: --drugs " + read.Error()},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := hint(c.err).Error(); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
	// A hinted error is still what it wraps.
	if err := hint(fmt.Errorf("%w: %w", cmdline.ErrUsage, &drugcomb.DirError{Dir: "d", Problem: drugcomb.DirMissing})); !errors.Is(err, cmdline.ErrUsage) {
		t.Errorf("%v: not a usage error", err)
	}
}

func TestImportFormatMessage(t *testing.T) {
	for _, c := range []struct {
		format string
		p      drugcomb.FormatProblem
		want   string
	}{
		{"almanac", drugcomb.FormatNeedsCatalogue, "deup data import --format almanac needs --drugs FILE (the CID catalogue)"},
		{"drugcomb", drugcomb.FormatFixedColumns, "deup data import --format drugcomb has a fixed column map; use --format table for --drug-a etc."},
		{"table", drugcomb.FormatNeedsColumns, "deup data import --format table needs --drug-a, --drug-b and --score"},
		{"table", drugcomb.FormatOneSMILES, "deup data import: give both --smiles-a and --smiles-b, or neither"},
		{"drugcomb", drugcomb.FormatKnownNeedsCatalogue, "deup data import: --known-only needs --drugs FILE"},
		{"xlsx", drugcomb.FormatUnknown, `deup data import: unknown --format "xlsx" (almanac, almanac-wells, doseresponse, drugcomb, table)`},
	} {
		if got := importFormatMessage(&drugcomb.FormatError{Format: c.format, Problem: c.p}); got != c.want {
			t.Errorf("%s %d: %s\nwant %s", c.format, c.p, got, c.want)
		}
	}
}

func TestShardHints(t *testing.T) {
	rep := &scores.Report{Problems: []string{"p.parquet: metadata has no deup.shard: " + scores.ErrNoIdentity.Error(), "q: missing"}}
	shardHints(rep)
	if rep.Problems[0] != "p.parquet: metadata has no deup.shard: not written by deup predict --shard" || rep.Problems[1] != "q: missing" {
		t.Errorf("%q", rep.Problems)
	}
}
