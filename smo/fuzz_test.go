package smo

import (
	"strings"
	"testing"
)

// FuzzParseMethods: any input either fails or returns known, distinct
// methods that re-join to an equivalent list.
func FuzzParseMethods(f *testing.F) {
	for _, s := range []string{"random", "gp-ei,deup-ei", " turbo-ei , turbo-deup-ei", "", ",", "gp-ei,gp-ei", "ucb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms, err := ParseMethods(s)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, m := range ms {
			if seen[m] {
				t.Fatalf("%q: %q twice", s, m)
			}
			seen[m] = true
		}
		again, err := ParseMethods(strings.Join(ms, ","))
		if err != nil || len(again) != len(ms) {
			t.Fatalf("%q: round trip %v, %v", s, again, err)
		}
	})
}
