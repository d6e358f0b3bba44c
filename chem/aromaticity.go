package chem

// Electron donor types of RDKit's aromaticity model.
type donor uint8

const (
	donorVacant donor = iota
	donorOne
	donorTwo
	donorOneOrTwo
	donorAny
	donorNone
)

// maxFusedRingSize is RDKit's maxFusedAromaticRingSize: larger rings are
// never combined with others.
const maxFusedRingSize = 24

// countAtomElec is RDKit's MolOps::countAtomElec: the electrons atom i can
// donate to a pi system, or -1.
func (m *Mol) countAtomElec(i int) int {
	a := &m.Atoms[i]
	dv := defaultValence(a.Element)
	if dv <= 1 {
		return -1
	}
	degree := m.Degree(i) + a.TotalHs()
	for _, b := range m.AtomBonds(i) {
		bd := &m.Bonds[b]
		if (valence2(bd.Order, bd.Begin == i && bd.Order == Dative)+1)/2 == 0 {
			degree--
		}
	}
	if degree > 3 {
		return -1
	}
	nlp := elements[a.Element].outer - dv
	nlp -= a.Charge
	if nlp < 0 {
		nlp = 0
	}
	res := (dv - degree) + nlp - a.Radicals
	if res > 1 && a.explicitValence-m.Degree(i) > 1 {
		res = 1
	}
	return res
}

// multipleBond reports whether atom i has a bond of valence contribution
// >= 2 inside (cyclic) or outside rings, and the neighbour of the first
// acyclic one.
func (m *Mol) incidentNonCyclicMultiple(i int) (int, bool) {
	for _, b := range m.AtomBonds(i) {
		bd := &m.Bonds[b]
		if m.bondRing[b] == 0 && valence2(bd.Order, bd.Begin == i && bd.Order == Dative) >= 4 {
			return bd.Other(i), true
		}
	}
	return -1, false
}

func (m *Mol) incidentCyclicMultiple(i int) bool {
	for _, b := range m.AtomBonds(i) {
		bd := &m.Bonds[b]
		if m.bondRing[b] != 0 && valence2(bd.Order, bd.Begin == i && bd.Order == Dative) >= 4 {
			return true
		}
	}
	return false
}

func (m *Mol) incidentMultiple(i int) bool {
	a := &m.Atoms[i]
	deg := m.Degree(i) + a.HCount
	for _, b := range m.AtomBonds(i) {
		bd := &m.Bonds[b]
		if (valence2(bd.Order, bd.Begin == i && bd.Order == Dative)+1)/2 == 0 {
			deg--
		}
	}
	return a.explicitValence != deg
}

// moreElectroNegative is RDKit's PeriodicTable::moreElectroNegative.
func moreElectroNegative(z1, z2 int) bool {
	n1, n2 := elements[z1].outer, elements[z2].outer
	return n1 > n2 || (n1 == n2 && z1 < z2)
}

func (m *Mol) donorType(i int) donor {
	a := &m.Atoms[i]
	if a.Element == 0 {
		if m.incidentCyclicMultiple(i) {
			return donorOne
		}
		return donorAny
	}
	nelec := m.countAtomElec(i)
	switch {
	case nelec < 0:
		return donorNone
	case nelec == 0:
		if _, ok := m.incidentNonCyclicMultiple(i); ok {
			return donorVacant
		}
		if m.incidentCyclicMultiple(i) {
			return donorOne
		}
		return donorNone
	case nelec == 1:
		if who, ok := m.incidentNonCyclicMultiple(i); ok {
			if moreElectroNegative(m.Atoms[who].Element, a.Element) {
				return donorVacant
			}
			return donorOne
		}
		if m.incidentMultiple(i) {
			return donorOne
		}
		if a.Charge == 1 {
			return donorVacant
		}
		return donorNone
	default:
		if who, ok := m.incidentNonCyclicMultiple(i); ok {
			if moreElectroNegative(m.Atoms[who].Element, a.Element) {
				nelec--
			}
		}
		if nelec%2 == 1 {
			return donorOne
		}
		return donorTwo
	}
}

// candidateForAromaticity is RDKit's isAtomCandForArom with the defaults of
// the RDKit aromaticity model.
func (m *Mol) candidateForAromaticity(i int, d donor) bool {
	a := &m.Atoms[i]
	if a.Element > 18 && a.Element != 34 && a.Element != 52 {
		return false
	}
	if d == donorNone {
		return false
	}
	if dv := defaultValence(a.Element); dv > 0 {
		z := a.Element - a.Charge
		if z < 0 || z >= len(elements) || a.totalValence() > defaultValence(z) {
			return false
		}
	}
	if a.Radicals != 0 && (a.Element != 6 || a.Charge != 0) {
		return false
	}
	if a.explicitValence-m.Degree(i) > 1 {
		nMult := 0
		for _, b := range m.AtomBonds(i) {
			switch m.Bonds[b].Order {
			case Double, Triple:
				nMult++
			}
		}
		if nMult > 1 {
			return false
		}
	}
	return true
}

// setAromaticity is RDKit's default (AROMATICITY_RDKIT) model: rings whose
// atoms are all candidates, alone or fused with up to six neighbours
// sharing one bond, are aromatic when their pi electrons fit 4n+2.
func (m *Mol) setAromaticity() {
	nA := len(m.Atoms)
	if len(m.rings) == 0 {
		return
	}
	m.donors = zeroed(m.donors, nA)
	edon := m.donors
	seen := m.bools(nA)
	cand := m.bools(nA)
	cRings := m.ints(len(m.rings))[:0]
	for r, ring := range m.rings {
		allArom, allDummy := true, true
		for _, ai := range ring {
			if m.Atoms[ai].Element != 0 {
				allDummy = false
			}
			if seen[ai] {
				if !cand[ai] {
					allArom = false
				}
				continue
			}
			seen[ai] = true
			edon[ai] = m.donorType(ai)
			cand[ai] = m.candidateForAromaticity(ai, edon[ai])
			if !cand[ai] {
				allArom = false
			}
		}
		if allArom && !allDummy {
			cRings = append(cRings, r)
		}
	}
	if len(cRings) == 0 {
		return
	}
	// neighbour map: rings sharing exactly one bond, both at most 24 atoms
	nc := len(cRings)
	for len(m.neigh) < nc {
		m.neigh = append(m.neigh, nil)
	}
	neigh := m.neigh[:nc]
	for i := range neigh {
		neigh[i] = neigh[i][:0]
	}
	for i := 0; i < nc; i++ {
		ri := m.ringBnds[cRings[i]]
		if len(ri) > maxFusedRingSize {
			continue
		}
		for j := i + 1; j < nc; j++ {
			rj := m.ringBnds[cRings[j]]
			if len(rj) > maxFusedRingSize {
				continue
			}
			if n := countShared(ri, rj); n == 1 {
				neigh[i] = append(neigh[i], j)
				neigh[j] = append(neigh[j], i)
			}
		}
	}
	fusDone := m.bools(nc)
	for c0 := 0; c0 < nc; c0++ {
		if fusDone[c0] {
			continue
		}
		fused := m.ints(nc)[:0]
		stack := m.ints(nc)[:0]
		stack = append(stack, c0)
		fusDone[c0] = true
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			fused = append(fused, c)
			for _, n := range neigh[c] {
				if !fusDone[n] {
					fusDone[n] = true
					stack = append(stack, n)
				}
			}
		}
		m.huckelFused(cRings, fused, neigh, edon)
	}
}

func countShared(a, b []int) int {
	n := 0
	for _, x := range a {
		for _, y := range b {
			if x == y {
				n++
			}
		}
	}
	return n
}

// huckelFused applies the Hückel rule to the subsets of 1, 2, ... 6 rings
// of one fused system (RDKit's applyHuckelToFused).
func (m *Mol) huckelFused(cRings, fused []int, neigh [][]int, edon []donor) {
	nB := len(m.Bonds)
	nrings := len(fused)
	fusedBonds := m.bools(nB)
	nRingBonds := 0
	for _, c := range fused {
		for _, b := range m.ringBnds[cRings[c]] {
			if !fusedBonds[b] {
				fusedBonds[b] = true
				nRingBonds++
			}
		}
	}
	doneBonds := m.bools(nB)
	nDone := 0
	count := m.ints(len(m.Atoms))
	bcount := m.ints(nB)
	maxK := nrings
	if maxK > 6 {
		maxK = 6
	}
	comb := make([]int, 0, 6)
	for k := 1; k <= maxK; k++ {
		if nDone >= nRingBonds {
			break
		}
		if k == 3 && nrings > 300 {
			break
		}
		comb = comb[:k]
		for i := range comb {
			comb[i] = i
		}
		for {
			cur := comb
			if k == 1 || connectedSubset(cur, fused, neigh) {
				clear(count)
				for _, ci := range cur {
					for _, a := range m.rings[cRings[fused[ci]]] {
						count[a]++
					}
				}
				if m.huckel(count, edon) {
					for _, ci := range cur {
						for _, a := range m.rings[cRings[fused[ci]]] {
							m.Atoms[a].Aromatic = true
						}
					}
					clear(bcount)
					for _, ci := range cur {
						for _, b := range m.ringBnds[cRings[fused[ci]]] {
							bcount[b]++
						}
					}
					for _, ci := range cur {
						for _, b := range m.ringBnds[cRings[fused[ci]]] {
							if bcount[b] == 1 {
								bd := &m.Bonds[b]
								bd.aromatic = true
								if bd.Order == Single || bd.Order == Double {
									bd.Order = Aromatic
								}
								if !doneBonds[b] {
									doneBonds[b] = true
									nDone++
								}
							}
						}
					}
				}
			}
			if !nextCombination(comb, nrings) {
				break
			}
		}
	}
}

// nextCombination advances comb (k indices out of n, increasing) to the
// next combination in lexicographic order.
func nextCombination(comb []int, n int) bool {
	k := len(comb)
	i := k - 1
	for i >= 0 && comb[i] == n-k+i {
		i--
	}
	if i < 0 {
		return false
	}
	comb[i]++
	for j := i + 1; j < k; j++ {
		comb[j] = comb[j-1] + 1
	}
	return true
}

// connectedSubset reports whether the rings cur (indices into fused) are
// connected through the neighbour map.
func connectedSubset(cur, fused []int, neigh [][]int) bool {
	in := func(c int) bool {
		for _, x := range cur {
			if fused[x] == c {
				return true
			}
		}
		return false
	}
	var buf [8]int
	reached := append(buf[:0], fused[cur[0]])
	for q := 0; q < len(reached); q++ {
		for _, n := range neigh[reached[q]] {
			if !in(n) {
				continue
			}
			dup := false
			for _, r := range reached {
				if r == n {
					dup = true
					break
				}
			}
			if !dup {
				reached = append(reached, n)
			}
		}
	}
	return len(reached) == len(cur)
}

// huckel applies the 4n+2 rule to the atoms counted once or twice.
func (m *Mol) huckel(count []int, edon []donor) bool {
	rlw, rup, nAny := 0, 0, 0
	for a, c := range count {
		if c != 1 && c != 2 {
			continue
		}
		switch edon[a] {
		case donorAny:
			nAny++
			if nAny > 1 {
				return false
			}
			rlw++
			rup += 2
		case donorOneOrTwo:
			rlw++
			rup += 2
		case donorOne:
			rlw++
			rup++
		case donorTwo:
			rlw += 2
			rup += 2
		}
	}
	if rup >= 6 {
		for e := rlw; e <= rup; e++ {
			if (e-2)%4 == 0 {
				return true
			}
		}
		return false
	}
	return rup == 2
}
