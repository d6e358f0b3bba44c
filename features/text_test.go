package features

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestReportWriteLeftOut(t *testing.T) {
	noSig := fmt.Errorf("drug b (id 2): %w", ErrNoSignature)
	many := make([]error, MaxNamed+2)
	for i := range many {
		many[i] = fmt.Errorf("chem: drug %d: bad SMILES", i)
	}
	var manyWant strings.Builder
	manyWant.WriteString("deup: 12 of 20 drugs have no usable structure and are left out:\n")
	for i := range MaxNamed { // "chem: " is cut from each error; MaxNamed named, then the count
		fmt.Fprintf(&manyWant, "  drug %d: bad SMILES\n", i)
	}
	manyWant.WriteString("  ... and 2 more\n")
	tests := []struct {
		name string
		errs []error
		n    int
		want string
	}{
		{"none left out writes nothing", nil, 3, ""},
		{"one of each kind, structure first", []error{noSig, errors.New("chem: drug a (id 1): no SMILES")}, 3,
			"deup: 1 of 3 drugs have no usable structure and are left out:\n  drug a (id 1): no SMILES\n" +
				"deup: 1 of 3 drugs have no L1000 signature, which fp+sig features need, and are left out:\n  " + noSig.Error() + "\n"},
		{"more than MaxNamed are counted", many, 20, manyWant.String()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := (Report{Errors: tc.errs}).WriteLeftOut(&b, "deup", "and are left out", tc.n); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tc.want)
			}
		})
	}
}

func TestReportWriteFingerprintNote(t *testing.T) {
	tests := []struct {
		name  string
		rep   Report
		whole bool
		want  string
	}{
		{"whole molecule", Report{Stripped: 3}, true, "fingerprints: whole molecules, salts and mixtures included (--whole-molecule)\n"},
		{"largest fragment, no tie", Report{Stripped: 2}, false,
			"fingerprints: largest organic fragment of each SMILES (2 of 5 drugs had a salt or mixture stripped; --whole-molecule keeps them)\n"},
		{"largest fragment, ties named", Report{Stripped: 2, Tied: []string{"D1", "D2"}}, false,
			"fingerprints: largest organic fragment of each SMILES (2 of 5 drugs had a salt or mixture stripped; --whole-molecule keeps them)\n" +
				"fingerprints: 2 drugs have two different fragments of the same size and mass; the first was kept: D1, D2\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := tc.rep.WriteFingerprintNote(&b, tc.whole, 5); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tc.want)
			}
		})
	}
}
