package chem

import (
	"fmt"
	"slices"
)

// perceive runs RDKit's MolFromSmiles post-processing on a parsed graph:
// unspecified bond orders, hydrogen removal, clean-up, valence model,
// rings, kekulization, radicals, aromaticity and hydrogen adjustment.
func perceive(m *Mol, pos []int) error { return perceiveAs(m, pos, false) }

// perceiveAs is perceive; with molfile, hydrogen atoms are removed as
// RDKit's MolFromMolBlock removes them (see removeMolfileHs).
func perceiveAs(m *Mol, pos []int, molfile bool) error {
	fail := func(atom int, err error) error {
		p := 0
		if atom >= 0 && atom < len(pos) {
			p = pos[atom]
		}
		return &ParseError{SMILES: m.source, Pos: p, Err: err}
	}
	for i := range m.Bonds {
		b := &m.Bonds[i]
		if b.unspecified {
			if m.Atoms[b.Begin].Aromatic && m.Atoms[b.End].Aromatic {
				b.Order, b.aromatic = Aromatic, true
			} else {
				b.Order, b.aromatic = Single, false
			}
		}
	}
	if molfile {
		pos = m.removeMolfileHs(pos)
	} else {
		pos = m.removeHs(pos)
	}
	m.cleanUp()
	for i := range m.Atoms {
		if _, err := m.calcExplicitValence(i, true, false); err != nil {
			return fail(i, err)
		}
		if _, err := m.calcImplicitValence(i, true); err != nil {
			return fail(i, err)
		}
	}
	m.perceiveRings()
	if atom, err := m.kekulize(); err != nil {
		return fail(atom, err)
	}
	m.assignRadicals()
	m.setAromaticity()
	m.adjustHs()
	return nil
}

// removeHs removes hydrogen atoms the way RDKit's default removeHs does
// and adds them to their neighbour's hydrogen count. It returns the atom
// positions without the removed atoms.
func (m *Mol) removeHs(pos []int) []int {
	remove := m.bools(len(m.Atoms))
	any := false
	for i := range m.Atoms {
		b, nbi, ok := m.removableH(i)
		if !ok {
			continue
		}
		switch m.Atoms[nbi].Chiral.Class {
		case "SP", "TB", "OH":
			continue
		}
		if m.Degree(nbi) == 2 && b.Dir != DirNone {
			keep := false
			for _, ob := range m.AtomBonds(nbi) {
				if m.Bonds[ob].Order == Double {
					keep = true
				}
			}
			if keep {
				continue
			}
		}
		remove[i] = true
		any = true
	}
	if !any {
		return pos
	}
	for i := len(m.Atoms) - 1; i >= 0; i-- {
		if remove[i] {
			b := &m.Bonds[m.AtomBonds(i)[0]]
			nb := &m.Atoms[b.Other(i)]
			nb.HCount++
			if nb.Chiral.Class != "" {
				m.invertForRemovedH(b.Other(i), int(m.AtomBonds(i)[0]))
			}
		}
	}
	return m.compact(remove, pos)
}

// removableH reports whether atom i is a hydrogen that removeHs and
// removeMolfileHs may take off: not isotopic, with exactly one neighbour,
// which is neither a dummy atom nor a hydrogen. It returns the bond and the
// neighbour.
func (m *Mol) removableH(i int) (b *Bond, nbi int, ok bool) {
	a := &m.Atoms[i]
	if a.Element != 1 || a.Isotope != 0 || m.Degree(i) != 1 {
		return nil, 0, false
	}
	b = &m.Bonds[m.AtomBonds(i)[0]]
	nbi = b.Other(i)
	nb := &m.Atoms[nbi]
	return b, nbi, nb.Element >= 1 && nb.Element != 1
}

// compact removes the atoms marked in remove and their bonds, and returns
// the positions of the atoms kept.
func (m *Mol) compact(remove []bool, pos []int) []int {
	newIdx := m.ints(len(m.Atoms))
	atoms := m.Atoms[:0]
	var npos []int
	for i := range m.Atoms {
		if remove[i] {
			newIdx[i] = -1
			continue
		}
		newIdx[i] = len(atoms)
		atoms = append(atoms, m.Atoms[i])
		npos = append(npos, pos[i])
	}
	m.Atoms = atoms
	bonds := m.Bonds[:0]
	for _, b := range m.Bonds {
		if newIdx[b.Begin] < 0 || newIdx[b.End] < 0 {
			continue
		}
		b.Begin, b.End = newIdx[b.Begin], newIdx[b.End]
		bonds = append(bonds, b)
	}
	m.Bonds = bonds
	m.buildAdjacency()
	return npos
}

// invertForRemovedH keeps the tetrahedral mark of atom c right when its
// bond hb to a hydrogen atom is removed: the mark refers to the neighbour
// order, and the hydrogen moves to the implicit position (RDKit moves it
// to the end of the list).
func (m *Mol) invertForRemovedH(c, hb int) {
	bs := m.AtomBonds(c)
	k := -1
	for j, b := range bs {
		if int(b) == hb {
			k = j
		}
	}
	// moving element k to the end takes len-1-k swaps
	if (len(bs)-1-k)%2 == 1 {
		switch m.Atoms[c].Chiral.Class {
		case "@":
			m.Atoms[c].Chiral.Class = "@@"
		case "@@":
			m.Atoms[c].Chiral.Class = "@"
		}
	}
}

// adjustHs is RDKit's MolOps::adjustHs after aromaticity perception.
func (m *Mol) adjustHs() {
	for i := range m.Atoms {
		a := &m.Atoms[i]
		if a.Bracket {
			continue
		}
		orig := a.ImplicitHs
		m.calcExplicitValence(i, false, false)
		nw, _ := m.calcImplicitValence(i, false)
		if nw < orig {
			a.HCount += orig - nw
			m.calcExplicitValence(i, false, false)
		}
	}
}

// kekulize is RDKit's Kekulize: aromatic bonds of each fused ring system
// become single and double bonds so that every atom that needs a double
// bond gets exactly one. It returns the index of an offending atom with
// the error.
func (m *Mol) kekulize() (int, error) {
	found := false
	for i := range m.Atoms {
		if m.isAromaticAtom(i) {
			found = true
			break
		}
	}
	if !found {
		return -1, nil
	}
	// fused systems of rings (sharing at least one bond), skipping all-dummy rings
	nr := len(m.rings)
	use := m.bools(nr)
	for r, ring := range m.rings {
		for _, a := range ring {
			if m.Atoms[a].Element != 0 {
				use[r] = true
				break
			}
		}
	}
	done := m.bools(nr)
	for r0 := 0; r0 < nr; r0++ {
		if done[r0] || !use[r0] {
			continue
		}
		// RDKit's pickFusedRings: depth first, neighbours (rings sharing a
		// bond) in increasing order
		var sys []int
		var pick func(r int)
		pick = func(r int) {
			done[r] = true
			sys = append(sys, r)
			for r2 := 0; r2 < nr; r2++ {
				if !done[r2] && use[r2] && sharesBond(m.ringBnds[r], m.ringBnds[r2]) {
					pick(r2)
				}
			}
		}
		pick(r0)
		if atom, err := m.kekulizeFused(sys); err != nil {
			return atom, err
		}
	}
	for i := range m.Bonds {
		m.Bonds[i].aromatic = false
	}
	for i := range m.Atoms {
		a := &m.Atoms[i]
		if !a.Aromatic {
			continue
		}
		if m.atomRing[i] == 0 {
			return i, fmt.Errorf("%w: atom %d (%s)", ErrAromatic, i, a.Symbol())
		}
		a.Aromatic = false
		if (a.Element == 7 || a.Element == 15) && a.Charge == 0 && a.HCount == 1 {
			a.Bracket = false
			a.HCount = 0
			m.calcExplicitValence(i, false, false)
			m.calcImplicitValence(i, false)
		}
	}
	return -1, nil
}

func sharesBond(a, b []int) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// kekulizeFused kekulizes one fused ring system given as ring indices.
func (m *Mol) kekulizeFused(sys []int) (int, error) {
	inSys := m.bools(len(m.Atoms))
	var all []int
	for _, r := range sys {
		for _, a := range m.rings[r] {
			if !inSys[a] {
				inSys[a] = true
				all = append(all, a)
			}
		}
	}
	hasArom := false
	for _, a := range all {
		if m.Atoms[a].Element == 0 || m.isAromaticAtom(a) {
			hasArom = true
			break
		}
	}
	if !hasArom {
		return -1, nil
	}
	cand := m.bools(len(m.Atoms))
	var makeSingle, questions []int
	// RDKit: a ring is "not a candidate" (for dummy atoms) unless one of its
	// atoms is aromatic and in that ring only
	ringNotCand := m.bools(len(m.rings))
	for r, ring := range m.rings {
		ringNotCand[r] = true
		for _, a := range ring {
			if m.isAromaticAtom(a) && m.atomRing[a] == 1 {
				ringNotCand[r] = false
				break
			}
		}
	}
	for _, ai := range all {
		a := &m.Atoms[ai]
		if a.Element != 0 && !m.isAromaticAtom(ai) {
			continue
		}
		sbo, nIgnore, nonArNonDummy := 0, 0, 0
		for _, b := range m.AtomBonds(ai) {
			bd := &m.Bonds[b]
			if o := bd.Other(ai); m.Atoms[o].Element != 0 && !m.Atoms[o].Aromatic && inSys[o] {
				nonArNonDummy++
			}
			if bd.aromatic && (bd.Order == Single || bd.Order == Double || bd.Order == Aromatic) {
				sbo++
				makeSingle = append(makeSingle, int(b))
			} else {
				c := valence2(bd.Order, bd.Begin == ai && bd.Order == Dative)
				c = (c + 1) / 2 // lround of x.5 rounds away from zero
				sbo += c
				if c == 0 {
					nIgnore++
				}
			}
		}
		if a.Element == 0 {
			nRings, nNonCand := int(m.atomRing[ai]), 0
			for r, ring := range m.rings {
				if ringNotCand[r] && slices.Contains(ring, ai) {
					nNonCand++
				}
			}
			if nonArNonDummy < nRings && nNonCand < nRings {
				// dummies start as candidates that may do without
				cand[ai] = true
				questions = append(questions, ai)
			}
			continue // otherwise no default valence: never a candidate
		}
		sbo += a.TotalHs()
		chrg := valenceCharge(a.Element, a.Charge)
		dv := defaultValence(a.Element) + chrg
		tbo := a.totalValence()
		nRad := a.Radicals
		totalDegree := m.Degree(ai) + a.ImplicitHs - nIgnore
		vl := elements[a.Element].valences
		for vi := 1; tbo > dv && vi < len(vl) && vl[vi] > 0; vi++ {
			dv = vl[vi] + chrg
		}
		if tbo == 5 && sbo == 4 && dv == 3 && totalDegree == 3 && nRad == 0 && chrg == 0 && a.TotalHs() == 0 {
			switch a.Element {
			case 7, 15, 33:
				dv = 5
			}
		}
		if totalDegree+nRad >= dv {
			continue
		}
		if dv == sbo+1+nRad || (nRad == 0 && a.Bracket && dv == sbo+2) {
			cand[ai] = true
		}
	}
	for _, b := range makeSingle {
		m.Bonds[b].Order = Single
	}
	orig := slices.Clone(cand)
	ok := m.kekulizeWorker(all, inSys, cand, 100, true)
	if !ok && len(questions) > 0 {
		// RDKit's permuteDummiesAndKekulize: switch off subsets of the
		// dummy candidates, in the order of a binary counter
		nq := len(questions)
		if nq > 16 {
			nq = 16 // RDKit's 32-bit counter would not finish either
		}
		for pos := 1; pos < 1<<nq && !ok; pos++ {
			for b := range m.Bonds {
				bd := &m.Bonds[b]
				if bd.aromatic && bd.Order != Single && inSys[bd.Begin] && inSys[bd.End] {
					bd.Order = Single
				}
			}
			copy(cand, orig)
			for i := 0; i < nq; i++ {
				if pos&(1<<i) != 0 {
					cand[questions[i]] = false
				}
			}
			ok = m.kekulizeWorker(all, inSys, cand, 100, false)
		}
	}
	if ok {
		return -1, nil
	}
	bad := -1
	for _, a := range all {
		if orig[a] {
			bad = a
			break
		}
	}
	return bad, fmt.Errorf("%w: no Kekulé structure for the aromatic ring system of atom %d", ErrKekulize, bad)
}

// kekulizeWorker is RDKit's kekulizeWorker: a breadth-first walk from
// all[0] that gives each candidate atom a double bond to the first
// candidate neighbour, backtracking to the last atom that had a choice (at
// most maxBackTracks times). cand is modified.
func (m *Mol) kekulizeWorker(all []int, inSys, cand []bool, maxBackTracks int, initDone bool) bool {
	n := len(m.Atoms)
	isDone := m.bools(n)
	var done []int
	for _, a := range all {
		if initDone && m.Atoms[a].Element != 0 && !m.isAromaticAtom(a) {
			done = append(done, a)
			isDone[a] = true
		}
	}
	inStack := m.bools(n)
	var astack []int
	options := make(map[int][]int)
	var btmoves []int
	lastOpt := -1
	numBT := 0
	dAdds := m.bools(len(m.Bonds))
	var added []int // bonds made double by this worker
	for len(done) < len(all) || len(astack) > 0 {
		curr := -1
		if len(astack) > 0 {
			curr = astack[0]
			astack = astack[1:]
			inStack[curr] = false
		} else {
			for _, a := range all {
				if !isDone[a] {
					curr = a
					break
				}
			}
		}
		if curr < 0 {
			return false
		}
		done = append(done, curr)
		isDone[curr] = true
		cCand := cand[curr]
		var opts []int
		prev, hadOpts := options[curr]
		if hadOpts {
			opts = prev
		} else {
			for _, b := range m.AtomBonds(curr) {
				bd := &m.Bonds[b]
				nb := bd.Other(curr)
				if isDone[nb] || !inSys[nb] {
					continue
				}
				if !inStack[nb] {
					astack = append(astack, nb)
					inStack[nb] = true
				}
				if cCand && cand[nb] && (bd.aromatic || m.Atoms[curr].Element == 0 || m.Atoms[nb].Element == 0) {
					opts = append(opts, nb)
				}
			}
		}
		if !cCand {
			continue
		}
		if len(opts) > 0 {
			nc := opts[0]
			opts = opts[1:]
			b := m.bondBetween(curr, nc)
			m.Bonds[b].Order = Double
			cand[curr], cand[nc] = false, false
			dAdds[b] = true
			added = append(added, b)
			if hadOpts {
				if len(opts) == 0 {
					delete(options, curr)
					btmoves = btmoves[:len(btmoves)-1]
					if len(btmoves) > 0 {
						lastOpt = btmoves[len(btmoves)-1]
					} else {
						lastOpt = -1
					}
				} else {
					options[curr] = opts
				}
			} else if len(opts) > 0 {
				lastOpt = curr
				btmoves = append(btmoves, curr)
				options[curr] = opts
			}
			continue
		}
		if m.Atoms[curr].Element == 0 {
			continue // a dummy may stay without a double bond
		}
		if lastOpt >= 0 && numBT < maxBackTracks {
			// back to lastOpt: everything done after it goes back on the
			// front of the stack, its double bonds are undone
			k := slices.Index(done, lastOpt)
			tdone := done[:k]
			for j := len(done) - 1; j >= k; j-- {
				a := done[j]
				if !inStack[a] {
					astack = append([]int{a}, astack...)
					inStack[a] = true
				} else {
					astack = append([]int{a}, astack...)
				}
			}
			for j := range isDone {
				isDone[j] = false
			}
			for _, a := range tdone {
				isDone[a] = true
			}
			for b := range dAdds {
				if !dAdds[b] {
					continue
				}
				a1, a2 := m.Bonds[b].Begin, m.Bonds[b].End
				if !isDone[a1] && !isDone[a2] {
					dAdds[b] = false
					m.Bonds[b].Order = Single
					cand[a1], cand[a2] = true, true
				}
			}
			done = append([]int(nil), tdone...)
			numBT++
			continue
		}
		for _, b := range added {
			m.Bonds[b].Order = Single
		}
		return false
	}
	return true
}
