package chem

import "slices"

// bitset is a fixed-size set of small non-negative integers.
type bitset []uint64

func (b bitset) set(i int)      { b[i>>6] |= 1 << (uint(i) & 63) }
func (b bitset) has(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }
func (b bitset) xor(o bitset) {
	for i := range b {
		b[i] ^= o[i]
	}
}
func (b bitset) or(o bitset) {
	for i := range b {
		b[i] |= o[i]
	}
}
func (b bitset) equal(o bitset) bool {
	for i := range b {
		if b[i] != o[i] {
			return false
		}
	}
	return true
}
func (b bitset) empty() bool {
	for _, w := range b {
		if w != 0 {
			return false
		}
	}
	return true
}
func (b bitset) lowest() int {
	for i, w := range b {
		if w != 0 {
			for j := 0; j < 64; j++ {
				if w&(1<<uint(j)) != 0 {
					return i*64 + j
				}
			}
		}
	}
	return -1
}

// perceiveRings finds the ring bonds, the smallest set of smallest rings
// (a minimum cycle basis, from Horton's candidate cycles) and adds the
// equal-size alternatives RDKit's symmetrizeSSSR adds.
func (m *Mol) perceiveRings() {
	nA, nB := len(m.Atoms), len(m.Bonds)
	m.rings, m.ringBnds = m.rings[:0], m.ringBnds[:0]
	m.bondRing = zeroed(m.bondRing, nB)
	m.atomRing = zeroed(m.atomRing, nA)
	if nB < 3 {
		return
	}
	ringBond := m.findRingBonds()
	any := false
	for _, r := range ringBond {
		if r {
			any = true
			break
		}
	}
	if !any {
		return
	}
	// ring systems: components of the ring-bond graph
	comp := m.ints(nA)
	for i := range comp {
		comp[i] = -1
	}
	nComp := 0
	stack := m.ints(nA)[:0]
	for s := 0; s < nA; s++ {
		if comp[s] >= 0 {
			continue
		}
		hasRing := false
		for _, b := range m.AtomBonds(s) {
			if ringBond[b] {
				hasRing = true
				break
			}
		}
		if !hasRing {
			continue
		}
		stack = m.label(comp, s, nComp, ringBond, stack)
		nComp++
	}
	if rings, ok := m.rdkitRings(); ok {
		for _, r := range rings {
			m.rings = append(m.rings, r)
			bs := m.ints(len(r))
			for i := range r {
				bs[i] = m.bondBetween(r[i], r[(i+1)%len(r)])
			}
			m.ringBnds = append(m.ringBnds, bs)
		}
		nComp = 0 // RDKit's rings replace the Horton basis below
	}
	for c := 0; c < nComp; c++ {
		atoms, bonds := m.ints(nA)[:0], m.ints(nB)[:0]
		for i := 0; i < nA; i++ {
			if comp[i] == c {
				atoms = append(atoms, i)
			}
		}
		for b := 0; b < nB; b++ {
			if ringBond[b] && comp[m.Bonds[b].Begin] == c {
				bonds = append(bonds, b)
			}
		}
		nr := len(bonds) - len(atoms) + 1
		if nr == 1 {
			m.addRing(bonds)
			continue
		}
		m.ringSystem(atoms, bonds, ringBond, nr)
	}
	for _, rb := range m.ringBnds {
		for _, b := range rb {
			if m.bondRing[b] < 255 {
				m.bondRing[b]++
			}
		}
	}
	for _, ra := range m.rings {
		for _, a := range ra {
			if m.atomRing[a] < 255 {
				m.atomRing[a]++
			}
		}
	}
	for i := range m.Atoms {
		m.Atoms[i].InRing = m.atomRing[i] > 0
	}
	for i := range m.Bonds {
		m.Bonds[i].InRing = m.bondRing[i] > 0
	}
}

// addRing records a ring given as bond indices.
func (m *Mol) addRing(bonds []int) {
	// a ring has as many atoms as bonds
	atoms := m.ints(len(bonds))[:0]
	for _, b := range bonds {
		for _, a := range [2]int{m.Bonds[b].Begin, m.Bonds[b].End} {
			if !slices.Contains(atoms, a) {
				atoms = append(atoms, a)
			}
		}
	}
	slices.Sort(atoms)
	bs := m.ints(len(bonds))
	copy(bs, bonds)
	slices.Sort(bs)
	m.rings = append(m.rings, atoms)
	m.ringBnds = append(m.ringBnds, bs)
}

type frame struct {
	atom, parentBond, next int
}

type cand struct {
	bits bitset
	size int
}

// bits returns a zeroed bitset for n elements from the per-parse arena.
func (m *Mol) bits(n int) bitset {
	return bitset(m.wordArena.take((n+63)/64, 512))
}

// findRingBonds marks the bonds that are not bridges (iterative Tarjan).
func (m *Mol) findRingBonds() []bool {
	nA := len(m.Atoms)
	ring := m.bools(len(m.Bonds))
	disc := m.ints(nA)
	low := m.ints(nA)
	for i := range disc {
		disc[i] = -1
	}
	t := 0
	st := m.frames[:0]
	defer func() { m.frames = st[:0] }()
	for s := 0; s < nA; s++ {
		if disc[s] >= 0 {
			continue
		}
		disc[s], low[s] = t, t
		t++
		st = append(st[:0], frame{s, -1, 0})
		for len(st) > 0 {
			f := &st[len(st)-1]
			bs := m.AtomBonds(f.atom)
			if f.next < len(bs) {
				b := int(bs[f.next])
				f.next++
				if b == f.parentBond {
					continue
				}
				y := m.Bonds[b].Other(f.atom)
				if disc[y] < 0 {
					disc[y], low[y] = t, t
					t++
					st = append(st, frame{y, b, 0})
				} else {
					ring[b] = true // a non-tree edge closes a cycle
					if disc[y] < low[f.atom] {
						low[f.atom] = disc[y]
					}
				}
				continue
			}
			x, pb := f.atom, f.parentBond
			st = st[:len(st)-1]
			if len(st) > 0 {
				p := st[len(st)-1].atom
				if low[x] < low[p] {
					low[p] = low[x]
				}
				if low[x] <= disc[p] {
					ring[pb] = true
				}
			}
		}
	}
	return ring
}

// ringSystem finds nr smallest independent rings of one ring system.
func (m *Mol) ringSystem(atoms, bonds []int, ringBond []bool, nr int) {
	nB := len(m.Bonds)
	nA := len(m.Atoms)
	cands := m.cands[:0]
	defer func() { m.cands = cands[:0] }()
	dist := m.ints(nA)
	parent := m.ints(nA) // bond to parent
	branch := m.ints(nA)
	queue := m.ints(len(atoms))[:0]
	addCand := func(bits bitset, size int) {
		for _, c := range cands {
			if c.size == size && c.bits.equal(bits) {
				return
			}
		}
		cands = append(cands, cand{bits, size})
	}
	// Every cycle of a ring system with more than one ring passes through
	// an atom with three or more ring bonds, and Horton's theorem holds for
	// every atom of a basis cycle, so those atoms suffice as roots for the
	// basis. The equal-size alternatives RDKit adds (bicyclo[2.1.1]hexane's
	// second five-membered ring) can need the other atoms as roots too.
	const allRoots = true
	for _, v := range atoms {
		rdeg := 0
		for _, b := range m.AtomBonds(v) {
			if ringBond[b] {
				rdeg++
			}
		}
		if rdeg < 3 && !allRoots {
			continue
		}
		for _, a := range atoms {
			dist[a] = -1
		}
		dist[v], parent[v], branch[v] = 0, -1, v
		queue = append(queue[:0], v)
		for q := 0; q < len(queue); q++ {
			x := queue[q]
			for _, b := range m.AtomBonds(x) {
				if !ringBond[b] {
					continue
				}
				y := m.Bonds[b].Other(x)
				if dist[y] < 0 {
					dist[y] = dist[x] + 1
					parent[y] = int(b)
					if x == v {
						branch[y] = y
					} else {
						branch[y] = branch[x]
					}
					queue = append(queue, y)
				}
			}
		}
		for _, b := range bonds {
			x, y := m.Bonds[b].Begin, m.Bonds[b].End
			if parent[x] == b || parent[y] == b {
				continue
			}
			if x != v && y != v && branch[x] == branch[y] {
				continue
			}
			bits := m.bits(nB)
			bits.set(b)
			for _, z := range [2]int{x, y} {
				for z != v {
					bits.set(parent[z])
					z = m.Bonds[parent[z]].Other(z)
				}
			}
			addCand(bits, dist[x]+dist[y]+1)
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return a.size - b.size })
	// Gaussian elimination over GF(2)
	var basis []bitset
	var pivots []int
	selected := m.bools(len(cands))
	nSel := 0
	tmp := m.bits(nB)
	for ci, c := range cands {
		if nSel == nr {
			break
		}
		copy(tmp, c.bits)
		for k, row := range basis {
			if tmp.has(pivots[k]) {
				tmp.xor(row)
			}
		}
		if tmp.empty() {
			continue
		}
		p := tmp.lowest()
		row := m.bits(nB)
		copy(row, tmp)
		// keep the basis reduced on the new pivot
		for k := range basis {
			if basis[k].has(p) {
				basis[k].xor(row)
			}
		}
		basis = append(basis, row)
		pivots = append(pivots, p)
		selected[ci] = true
		nSel++
	}
	first := len(m.ringBnds)
	for ci, c := range cands {
		if selected[ci] {
			m.addRing(m.bitsToList(c.bits, nB))
		}
	}
	// symmetrize: an equal-size candidate that could replace one SSSR ring
	// without losing a bond of the union joins the ring list.
	count := m.ints(nB)
	for _, rb := range m.ringBnds[first:] {
		for _, b := range rb {
			count[b]++
		}
	}
	for ci, c := range cands {
		if selected[ci] {
			continue
		}
		for ri, r := range cands {
			if !selected[ri] || r.size != c.size {
				continue
			}
			share, replaces := false, true
			for w := range r.bits {
				if r.bits[w]&c.bits[w] != 0 {
					share = true
				}
			}
			for _, b := range m.bitsToList(r.bits, nB) {
				if count[b] == 1 && !c.bits.has(b) {
					replaces = false
					break
				}
			}
			if share && replaces {
				m.addRing(m.bitsToList(c.bits, nB))
				break
			}
		}
	}
}

func (m *Mol) bitsToList(b bitset, n int) []int {
	out := m.ints(n)[:0]
	for i := 0; i < n; i++ {
		if b.has(i) {
			out = append(out, i)
		}
	}
	return out
}
