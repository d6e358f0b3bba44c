package drugcomb

import (
	"strings"
	"testing"
)

// TestCatalogueMatch: names are matched exactly, then ignoring case, then
// without a parenthetical alias or by the alias, then without salt words,
// then ignoring spaces and punctuation; each rule is the one reported; a
// duplicate row with a SMILES fills a first row without one.
func TestCatalogueMatch(t *testing.T) {
	cat := "pert_iname,canonical_smiles\n" +
		"ibrutinib,\n" + // no SMILES here ...
		"ibrutinib,C1=CC=CC=C1\n" + // ... but on the duplicate
		"PCI-99,CCC\n" +
		"vincristine,CCO\n" +
		"actinomycin-d,CCN\n" +
		"Alpha,CO\n" +
		"Alpha,CC\n" // a true duplicate: the first kept
	c, err := ReadCatalogue("cat.csv", strings.NewReader(cat))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, name, smiles, rule string }{
		{"Alpha", "Alpha", "CO", MatchExact},
		{"ALPHA", "Alpha", "CO", MatchCase},
		{"Ibrutinib (PCI-32765)", "ibrutinib", "C1=CC=CC=C1", MatchAlias},
		{"Foo (PCI-99)", "PCI-99", "CCC", MatchAlias},
		{"Vincristine sulfate", "vincristine", "CCO", MatchSalt},
		{"Vincristine sulfate monohydrate (VCR)", "vincristine", "CCO", MatchSalt},
		{"Actinomycin D", "actinomycin-d", "CCN", MatchLoose},
		{"sulfate", "", "", ""}, // a salt word alone is no name
		{"Beta (alpha-x)", "", "", ""},
	} {
		d, rule, ok := c.Match(tc.in)
		if ok != (tc.rule != "") || d.Name != tc.name || d.SMILES != tc.smiles || rule != tc.rule {
			t.Errorf("Match(%q) = %+v, %q, %v; want %s, %s, %q", tc.in, d, rule, ok, tc.name, tc.smiles, tc.rule)
		}
	}
	notes := map[string]int{}
	for _, n := range c.Notes {
		notes[n.Reason] = n.Count
	}
	if notes["duplicate catalogue entry (first kept, SMILES from a later row)"] != 1 || notes["duplicate catalogue entry (first kept)"] != 1 {
		t.Errorf("notes %v", notes)
	}

	// An import reports each drug matched by a fallback rule once.
	opt := tableOpts()
	opt.Catalogue = c
	_, rep, err := ReadTable("p.csv", strings.NewReader("a,b,cell,score\nIbrutinib (PCI-32765),Vincristine sulfate,c,1\nIbrutinib (PCI-32765),Actinomycin D,c,2\nalpha,Actinomycin D,c,3\n"), opt)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, n := range rep.Notes {
		got[n.Reason] = n.Count
	}
	for rule, n := range map[string]int{MatchAlias: 1, MatchSalt: 1, MatchLoose: 1, MatchCase: 1} {
		if got["drug matched in the catalogue by "+rule] != n {
			t.Errorf("rule %q noted %d times, want %d (notes %v)", rule, got["drug matched in the catalogue by "+rule], n, got)
		}
	}
}
