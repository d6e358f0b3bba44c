package chem

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestRingsLikeRDKit checks ring lists, order included, against RDKit
// 2022.09.3's mol.GetRingInfo().AtomRings() for molecules whose rings take
// the special paths of FindSSSR: duplicate rings from degree-2 atoms,
// degree-3 atoms, extra rings removed (C60: 32 rings sorted by std::sort),
// symmetrized extras (cubane, adamantane, bicyclo systems).
func TestRingsLikeRDKit(t *testing.T) {
	cases := []struct{ smiles, want string }{
		{"c12c3c4c5c1c1c6c7c2c2c8c3c3c9c4c4c%10c5c5c1c1c6c6c%11c7c2c2c7c8c3c3c8c9c4c4c9c%10c5c5c1c1c6c6c%11c2c2c7c3c3c8c4c4c9c5c1c1c6c2c3c41", "11,10,28,29,12 22,23,43,42,41 26,27,46,45,44 30,31,49,48,47 0,1,2,3,4 17,16,36,37,18 14,13,32,33,15 39,38,53,54,40 34,35,52,51,50 5,6,21,20,19 8,7,24,25,9 55,56,57,58,59 40,54,55,56,42,41 24,25,26,44,43,23 43,44,45,57,56,42 37,38,53,52,35,36 32,33,34,50,49,31 46,47,48,58,57,45 49,50,51,59,58,48 53,54,55,59,51,52 15,33,34,35,36,16 28,29,30,47,46,27 21,22,41,40,39,20 19,20,39,38,37,18 12,29,30,31,32,13 9,25,26,27,28,10 7,24,23,22,21,6 2,14,15,16,17,3 4,5,19,18,17,3 1,11,12,13,14,2 0,8,7,6,5,4 0,8,9,10,11,1"},
		{"CN1[C@H]2CC3CC1C(O)C2O3", "1,2,9,7,6 3,2,9,10,4 5,6,7,9,10,4 5,6,1,2,3,4"},
		{"CNCCCC1(CCC2c3ccccc31)c4ccccc24", "6,7,8,9,14,5 6,7,8,20,15,5 10,11,12,13,14,9 16,17,18,19,20,15 5,14,9,8,20,15"},
		{"O=C(Nc1ccc2ccc2c1)C1CC2CC1C2", "7,8,9,6 14,15,16,13 12,11,15,14,13 4,5,6,9,10,3 12,11,15,16,13"},
		{"C12C3C4C1C5C2C3C45", "0,3,2,1 0,5,4,3 0,5,6,1 1,6,7,2 3,4,7,2 5,6,7,4"},
		{"C1C2CC3CC1CC(C2)C3", "0,5,4,3,2,1 0,5,6,7,8,1 2,3,9,7,8,1 4,5,6,7,9,3"},
		{"c1ccc2c(c1)ccc1ccccc12", "0,5,4,3,2,1 6,7,8,13,3,4 9,10,11,12,13,8"},
	}
	for _, c := range cases {
		t.Run(c.smiles, func(t *testing.T) {
			m, err := ParseSMILES(c.smiles)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range m.Rings() {
				var x []string
				for _, a := range r {
					x = append(x, strconv.Itoa(a))
				}
				got = append(got, strings.Join(x, ","))
			}
			if g := strings.Join(got, " "); g != c.want {
				t.Errorf("rings\n got %s\nwant %s", g, c.want)
			}
		})
	}
}

// TestStdSort checks that stdSort sorts (the order of equal elements is
// libstdc++'s, checked through the C60 ring order above).
func TestStdSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 300; n += 7 {
		s := make([]int, n)
		for i := range s {
			s[i] = r.IntN(10)
		}
		want := slices.Clone(s)
		sort.Ints(want)
		stdSort(s, func(a, b int) bool { return a < b })
		if !slices.Equal(s, want) {
			t.Fatalf("n=%d: %v", n, s)
		}
	}
}
