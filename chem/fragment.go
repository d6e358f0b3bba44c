package chem

import (
	"fmt"
	"slices"
)

// electronMass is RDKit's constants::electronMass (u), which its exact
// molecular weight subtracts once per unit of positive formal charge.
const electronMass = 0.00054857991

// Fragments returns the connected components of m as lists of atom
// indices, each increasing, ordered by their smallest atom: the order of
// RDKit's MolOps::getMolFrags. A molecule without atoms has no fragments.
func (m *Mol) Fragments() [][]int {
	n := len(m.Atoms)
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	var frags [][]int
	var stack []int
	for s := 0; s < n; s++ {
		if comp[s] >= 0 {
			continue
		}
		stack = m.label(comp, s, len(frags), nil, stack)
		frags = append(frags, nil)
	}
	for i, c := range comp {
		frags[c] = append(frags[c], i)
	}
	return frags
}

// label gives the label c to s and to every atom reachable from s, through
// the bonds b with through[b] (every bond when through is nil), that has
// no label yet (comp < 0): a depth-first walk with stack as its scratch,
// returned for reuse.
func (m *Mol) label(comp []int, s, c int, through []bool, stack []int) []int {
	comp[s] = c
	stack = append(stack[:0], s)
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, b := range m.AtomBonds(a) {
			if through != nil && !through[b] {
				continue
			}
			if o := m.Bonds[b].Other(a); comp[o] < 0 {
				comp[o] = c
				stack = append(stack, o)
			}
		}
	}
	return stack
}

// connected reports whether m has exactly one fragment, using m's scratch
// memory.
func (m *Mol) connected() bool {
	n := len(m.Atoms)
	if n == 0 {
		return false
	}
	comp := m.ints(n)
	for i := range comp {
		comp[i] = -1
	}
	m.label(comp, 0, 0, nil, m.ints(n)[:0])
	return !slices.Contains(comp, -1)
}

// A LargestFragmentChooser picks the fragment of a molecule that RDKit's
// rdMolStandardize.LargestFragmentChooser picks (RDKit 2022.09.3,
// MolStandardize/Fragment.cpp):
//
//   - the size of a fragment is its number of atoms counting hydrogens
//     (atoms + their implicit and bracket hydrogens; hydrogen atoms left in
//     the graph count as atoms);
//   - the largest size wins; between equal sizes, the larger exact
//     (monoisotopic) mass wins, computed as RDKit's calcExactMW: the most
//     common isotope's mass per atom (the isotope's mass where one is
//     written), the hydrogens, minus one electron mass per unit of formal
//     charge;
//   - with PreferOrganic, a fragment holding a carbon atom beats any
//     fragment without one, whatever their sizes (RDKit's isOrganic).
//
// RDKit breaks a remaining tie (equal size and mass, e.g. two isomers) by
// the alphabetically first canonical SMILES; this package has no canonical
// SMILES writer, so it keeps the first of the tied fragments in atom order
// and says so in FragmentChoice.Tied. Identical fragments (as in a salt
// with two identical counter-ions) are not a tie: any of them gives the
// same molecule.
//
// The zero value is RDKit's default (PreferOrganic false).
type LargestFragmentChooser struct {
	PreferOrganic bool
}

// FragmentChoice says which fragment a LargestFragmentChooser kept.
type FragmentChoice struct {
	Atoms        []int   // the kept atoms of the molecule, increasing
	NumFragments int     // fragments in the molecule
	Size         int     // atoms of the kept fragment, hydrogens included
	ExactMass    float64 // exact mass of the kept fragment (u)
	Organic      bool    // the kept fragment holds a carbon atom
	// Tied is true when another fragment of the same size, mass and
	// organic class but a different composition or shape could have been
	// kept (RDKit decides such ties by canonical SMILES; see
	// LargestFragmentChooser).
	Tied bool
}

// Dropped reports whether the choice left atoms out.
func (c FragmentChoice) Dropped() bool { return c.NumFragments > 1 }

// fragInfo is what the chooser compares about one fragment.
type fragInfo struct {
	atoms   []int
	size    int
	mass    float64
	organic bool
}

func (m *Mol) fragInfo(atoms []int) fragInfo {
	f := fragInfo{atoms: atoms}
	mass := 0.0
	nH := 0
	for _, i := range atoms {
		a := &m.Atoms[i]
		f.size += 1 + a.TotalHs()
		if a.Element == 6 {
			f.organic = true
		}
		if a.Isotope == 0 {
			mass += elements[a.Element].common
		} else {
			im := isotopeMass(a.Element, a.Isotope)
			if a.Element != 0 && im == 0 {
				im = float64(a.Isotope)
			}
			mass += im
		}
		nH += a.TotalHs()
		mass -= electronMass * float64(a.Charge)
	}
	f.mass = mass + float64(nH)*elements[1].common
	return f
}

// Choose returns the fragment of m that c keeps. For a molecule of one
// fragment it is the whole molecule; for a molecule without atoms,
// Atoms is empty and NumFragments is 0.
func (c LargestFragmentChooser) Choose(m *Mol) FragmentChoice {
	frags := m.Fragments()
	if len(frags) == 0 {
		return FragmentChoice{}
	}
	var best fragInfo
	have := false
	var tiedWith []fragInfo // fragments equal to best in every compared value
	for _, atoms := range frags {
		f := m.fragInfo(atoms)
		if c.PreferOrganic && have {
			if best.organic && !f.organic {
				continue
			}
			if f.organic && !best.organic {
				have = false
			}
		}
		switch {
		case !have, f.size > best.size, f.size == best.size && f.mass > best.mass:
			best, have, tiedWith = f, true, tiedWith[:0]
		case f.size == best.size && f.mass == best.mass:
			tiedWith = append(tiedWith, f)
		}
	}
	ch := FragmentChoice{
		Atoms:        best.atoms,
		NumFragments: len(frags),
		Size:         best.size,
		ExactMass:    best.mass,
		Organic:      best.organic,
	}
	for _, f := range tiedWith {
		if !m.sameFragment(best.atoms, f.atoms) {
			ch.Tied = true
			break
		}
	}
	return ch
}

// sameFragment reports whether fragments a and b of m have the same
// Morgan environments of radius len(atoms) (as a multiset), which for
// fragments of equal size and mass is the practical test of "the same
// molecule" (it ignores stereochemistry, as the fingerprints do).
func (m *Mol) sameFragment(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	fa, fb := m.Fragment(a), m.Fragment(b)
	ea, eb := MorganEnvironments(fa, len(a)), MorganEnvironments(fb, len(b))
	if len(ea) != len(eb) {
		return false
	}
	for i := range ea {
		if ea[i] != eb[i] {
			return false
		}
	}
	return true
}

// Fragment returns a new molecule made of the given atoms of m (indices
// increasing, a union of whole fragments, as Fragments or Choose return
// them) and the bonds between them, with m's perceived hydrogens,
// aromaticity and rings. Its atom i is m's atom atoms[i]. It panics if
// atoms is not increasing or is out of range, or if a bond leaves the set
// (programmer errors).
func (m *Mol) Fragment(atoms []int) *Mol {
	n := len(m.Atoms)
	newIdx := make([]int, n)
	for i := range newIdx {
		newIdx[i] = -1
	}
	for k, i := range atoms {
		if i < 0 || i >= n || (k > 0 && i <= atoms[k-1]) {
			panic("chem: Mol.Fragment: atoms must be increasing indices of the molecule")
		}
		newIdx[i] = k
	}
	f := &Mol{source: m.source}
	f.Atoms = make([]Atom, len(atoms))
	for k, i := range atoms {
		f.Atoms[k] = m.Atoms[i]
	}
	newBond := make([]int, len(m.Bonds))
	for b := range m.Bonds {
		bd := m.Bonds[b]
		bi, ei := newIdx[bd.Begin], newIdx[bd.End]
		newBond[b] = -1
		if bi < 0 && ei < 0 {
			continue
		}
		if bi < 0 || ei < 0 {
			panic("chem: Mol.Fragment: a bond leaves the atom set")
		}
		bd.Begin, bd.End = bi, ei
		newBond[b] = len(f.Bonds)
		f.Bonds = append(f.Bonds, bd)
	}
	f.buildAdjacency()
	f.atomRing = make([]uint8, len(f.Atoms))
	f.bondRing = make([]uint8, len(f.Bonds))
	for r, ring := range m.rings {
		if newIdx[ring[0]] < 0 {
			continue
		}
		ra := make([]int, len(ring))
		for k, a := range ring {
			ra[k] = newIdx[a]
		}
		rb := make([]int, len(m.ringBnds[r]))
		for k, b := range m.ringBnds[r] {
			rb[k] = newBond[b]
		}
		f.rings = append(f.rings, ra)
		f.ringBnds = append(f.ringBnds, rb)
	}
	for k, i := range atoms {
		f.atomRing[k] = m.atomRing[i]
	}
	for b, nb := range newBond {
		if nb >= 0 {
			f.bondRing[nb] = m.bondRing[b]
		}
	}
	return f
}

// LargestFragmentBits is Bits computed on the fragment c keeps of the
// molecule (the whole molecule when it has one fragment), and the choice.
// The returned slices are newly allocated and belong to the caller.
func (f *Fingerprinter) LargestFragmentBits(smiles string, radius, nBits int, c LargestFragmentChooser) ([]int, FragmentChoice, error) {
	if nBits <= 0 {
		return nil, FragmentChoice{}, fmt.Errorf("chem: morgan: nBits must be positive, got %d", nBits)
	}
	if radius < 0 {
		return nil, FragmentChoice{}, fmt.Errorf("chem: morgan: radius must be >= 0, got %d", radius)
	}
	if err := f.mol.parse(smiles); err != nil {
		return nil, FragmentChoice{}, err
	}
	m := &f.mol
	var ch FragmentChoice
	if m.connected() { // the common case, without Fragments' allocations
		atoms := make([]int, m.NumAtoms())
		for i := range atoms {
			atoms[i] = i
		}
		fi := m.fragInfo(atoms)
		ch = FragmentChoice{Atoms: atoms, NumFragments: 1, Size: fi.size, ExactMass: fi.mass, Organic: fi.organic}
	} else {
		ch = c.Choose(m)
		m = f.mol.Fragment(ch.Atoms)
	}
	f.ids = f.work.ids(m, radius, f.ids[:0])
	return foldIDs(f.ids, nBits), ch, nil
}

// LargestFragmentBitsAll computes LargestFragmentBits for every SMILES on
// up to workers goroutines (workers <= 0: GOMAXPROCS; see forEachParallel).
// res[i], choice[i] and errs[i] belong to smiles[i]; errs[i] is nil on
// success.
func LargestFragmentBitsAll(smiles []string, radius, nBits, workers int, c LargestFragmentChooser) (res [][]int, choice []FragmentChoice, errs []error) {
	res = make([][]int, len(smiles))
	choice = make([]FragmentChoice, len(smiles))
	errs = make([]error, len(smiles))
	forEachParallel(len(smiles), workers, func(f *Fingerprinter, i int) {
		res[i], choice[i], errs[i] = f.LargestFragmentBits(smiles[i], radius, nBits, c)
	})
	return res, choice, errs
}
