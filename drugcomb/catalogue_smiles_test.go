package drugcomb

import (
	"strings"
	"testing"
)

// TestCheckSMILES: a catalogue with no SMILES is an error naming the
// SMILES column found (or none) and the file's columns; one SMILES is
// enough.
func TestCheckSMILES(t *testing.T) {
	for _, tc := range []struct {
		cat, want string // want "": no error
	}{
		{"name,smiles\nAlpha,CCO\nBeta,\n", ""},
		{"name,smiles\nAlpha,\n", "cat.csv: no drug has a SMILES (SMILES column: smiles; the file's columns: name, smiles)"},
		{"name,structure\nAlpha,CCO\n", "cat.csv: no drug has a SMILES (SMILES column: none found; the file's columns: name, structure)"},
	} {
		c, err := ReadCatalogue("cat.csv", strings.NewReader(tc.cat))
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := c.CheckSMILES(); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%q: %q, want %q", tc.cat, got, tc.want)
		}
	}
}
