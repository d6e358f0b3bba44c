package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/deup-screening/deup/chem"
)

// fpIsSDF reports whether the input is an SD file: --format sdf, or, when
// no format is given, a file named *.sdf, *.sd or *.mol.
func fpIsSDF(format, path string) (bool, error) {
	switch format {
	case "sdf":
		return true, nil
	case "smiles":
		return false, nil
	case "":
		switch strings.ToLower(filepath.Ext(path)) {
		case ".sdf", ".sd", ".mol":
			return true, nil
		}
		return false, nil
	}
	return false, fmt.Errorf("%w: --format %q: want sdf or smiles", ErrUsage, format)
}

// fingerprintSDF writes the fingerprint of every record of the SD file r
// to sink, the id taken from the data item idField (the title line when
// idField is ""). A structure RDKit refuses is written with an empty bit
// list and reported; a record without an id is reported and not written.
func fingerprintSDF(ctx context.Context, env Env, r io.Reader, name, idField string, radius, nBits int, largest bool, sink *fpSink) (nMol, nFail int, err error) {
	rd := chem.NewSDReader(r, name)
	chooser := chem.LargestFragmentChooser{PreferOrganic: true}
	for {
		rec, err := rd.Read()
		if errors.Is(err, io.EOF) {
			return nMol, nFail, nil
		}
		if err != nil {
			return nMol, nFail, fmt.Errorf("fingerprint: %w", err)
		}
		id := rec.Title
		if idField != "" {
			v, ok := rec.Field(idField)
			if !ok || strings.TrimSpace(v) == "" {
				nFail++
				fmt.Fprintf(env.Stderr, "deup fingerprint: %s:%d: record %q has no data item <%s>: not written\n", name, rec.Line, rec.Title, idField)
				continue
			}
			id = strings.TrimSpace(v)
		}
		var bits []int
		switch {
		case rec.Err != nil:
			nFail++
			fmt.Fprintf(env.Stderr, "deup fingerprint: %s:%d: id %s (title %q): refused, as RDKit refuses it: %v\n", name, rec.Line, id, rec.Title, rec.Err)
		case largest:
			c := chooser.Choose(rec.Mol)
			bits = chem.MorganBitsOf(rec.Mol.Fragment(c.Atoms), radius, nBits)
		default:
			bits = chem.MorganBitsOf(rec.Mol, radius, nBits)
		}
		if sink.kind == "lines" && strings.ContainsAny(id, "\t\r\n") {
			nFail++
			fmt.Fprintf(env.Stderr, "deup fingerprint: %s:%d: id %q holds a tab or line break: not written\n", name, rec.Line, id)
			continue
		}
		nMol++
		if err := sink.write(id, rec.Title, bits); err != nil {
			return nMol, nFail, fmt.Errorf("fingerprint: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return nMol, nFail, err
		}
	}
}
