package features

import (
	"fmt"
	"io"
	"strings"
)

// MaxNamed is how many left-out drugs WriteLeftOut names of each kind
// before counting the rest.
const MaxNamed = 10

// WriteLeftOut writes which drugs r left out of a feature matrix and why
// (no usable structure; under fp+sig, no signature), each by name and id
// with the reason, up to MaxNamed of each kind: who is the command ("deup
// predict"), n the number of drugs built and consequence what leaving
// them out means ("and are left out with their pairs"). It writes nothing
// when no drug was left out.
func (r Report) WriteLeftOut(w io.Writer, who, consequence string, n int) error {
	var b strings.Builder
	noStruct, noSig := r.Left()
	for _, g := range []struct {
		errs []error
		what string
	}{{noStruct, "have no usable structure"}, {noSig, "have no L1000 signature, which fp+sig features need,"}} {
		if len(g.errs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s: %d of %d drugs %s %s:\n", who, len(g.errs), n, g.what, consequence)
		for i, e := range g.errs {
			if i == MaxNamed {
				fmt.Fprintf(&b, "  ... and %d more\n", len(g.errs)-MaxNamed)
				break
			}
			fmt.Fprintf(&b, "  %s\n", strings.Replace(e.Error(), "chem: ", "", 1))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteFingerprintNote writes which fragment of each SMILES was
// fingerprinted: the whole molecule (whole, Config.WholeMolecule), or the
// largest organic fragment, with how many of the n drugs had a salt or
// mixture stripped and which had a tie (Stripped, Tied).
func (r Report) WriteFingerprintNote(w io.Writer, whole bool, n int) error {
	if whole {
		_, err := fmt.Fprintf(w, "fingerprints: whole molecules, salts and mixtures included (--whole-molecule)\n")
		return err
	}
	if _, err := fmt.Fprintf(w, "fingerprints: largest organic fragment of each SMILES (%d of %d drugs had a salt or mixture stripped; --whole-molecule keeps them)\n", r.Stripped, n); err != nil {
		return err
	}
	if len(r.Tied) == 0 {
		return nil
	}
	_, err := fmt.Fprintf(w, "fingerprints: %d drugs have two different fragments of the same size and mass; the first was kept: %s\n", len(r.Tied), strings.Join(r.Tied, ", "))
	return err
}
