package chem

import (
	"slices"
	"sort"
)

// This file reimplements RDKit's FindSSSR (Figueras' algorithm as RDKit
// modifies it: chains trimmed, rings found by breadth-first searches from
// degree-2 atoms, then degree-3 atoms, duplicates resolved, extra rings
// removed) and symmetrizeSSSR. The rings come out in RDKit's order and with
// RDKit's atom order, which RDKit's kekulization walk depends on.

type sssrState struct {
	m       *Mol
	deg     []int  // active degree of each atom
	active  []bool // active bonds
	invars  []bitset
	ringB   []bool // bonds in a found ring
	ringA   []bool // atoms in a found ring
	extras  [][]int
	failed  bool
	bfsDone []int
	bfsPar  []int
	bfsDep  []int
	bfsQ    []int
	fwd     []int
	back    []int

	nodeInvars []nodeInv
	dupPairs   []intPair
	entries    []bitset
	candPairs  []intPair
}

func (s *sssrState) known(inv bitset) bool {
	for _, v := range s.invars {
		if v.equal(inv) {
			return true
		}
	}
	return false
}

func (s *sssrState) invariant(ring []int) bitset {
	b := s.m.bits(len(s.m.Atoms))
	for _, a := range ring {
		b.set(a)
	}
	return b
}

// atomSet is a set of atom indices whose smallest member can be taken
// (RDKit's std::set<int>).
type atomSet struct {
	in []bool
	n  int
}

func (a *atomSet) add(i int) {
	if !a.in[i] {
		a.in[i] = true
		a.n++
	}
}

func (a *atomSet) popSmallest() int {
	for i, v := range a.in {
		if v {
			a.in[i] = false
			a.n--
			return i
		}
	}
	return -1
}

// trimBonds removes the active bonds of cand; neighbours left with degree
// <= 1 go into changed.
func (s *sssrState) trimBonds(cand int, changed *atomSet, deg []int, active []bool) {
	m := s.m
	for _, b := range m.AtomBonds(cand) {
		if !active[b] {
			continue
		}
		o := m.Bonds[b].Other(cand)
		if deg[o] <= 2 {
			changed.add(o)
		}
		active[b] = false
		deg[o]--
		deg[cand]--
	}
}

// smallestRingsBfs is RDKit's BFSWorkspace::smallestRingsBfs: all smallest
// rings through root, avoiding the forbidden atoms, each listed from root.
func (s *sssrState) smallestRingsBfs(root int, active []bool, forbidden []int) [][]int {
	m := s.m
	n := len(m.Atoms)
	const white, gray, black = 0, 1, 2
	if cap(s.bfsDone) < n {
		// kept across molecules, so not from the per-parse arena
		s.bfsDone, s.bfsPar, s.bfsDep = make([]int, n), make([]int, n), make([]int, n)
	}
	done, par, dep := s.bfsDone[:n], s.bfsPar[:n], s.bfsDep[:n]
	for i := range done {
		done[i], par[i], dep[i] = white, -1, 0
	}
	for _, f := range forbidden {
		done[f] = black
	}
	var rings [][]int
	curSize := int(^uint(0) >> 1)
	q := append(s.bfsQ[:0], root)
	for h := 0; h < len(q); h++ {
		curr := q[h]
		done[curr] = black
		depth := dep[curr] + 1
		if depth > curSize {
			break
		}
		for _, b := range m.AtomBonds(curr) {
			if !active[b] {
				continue
			}
			nb := m.Bonds[b].Other(curr)
			if done[nb] == black || par[curr] == nb {
				continue
			}
			if done[nb] == white {
				par[nb] = curr
				done[nb] = gray
				dep[nb] = depth
				q = append(q, nb)
				continue
			}
			fwd := append(s.fwd[:0], nb)
			for p := par[nb]; p != -1 && p != root; p = par[p] {
				fwd = append(fwd, p)
			}
			back := append(s.back[:0], curr)
			ok := true
			for p := par[curr]; p != -1; p = par[p] {
				if slices.Contains(fwd, p) || slices.Contains(back, p) {
					ok = false
					break
				}
				back = append(back, p)
			}
			s.fwd, s.back = fwd, back
			if !ok {
				continue
			}
			if len(back)+len(fwd) > curSize {
				s.bfsQ = q[:0]
				return rings
			}
			ring := m.ints(len(back) + len(fwd))
			for i, a := range back {
				ring[len(back)-1-i] = a
			}
			copy(ring[len(back):], fwd)
			if len(ring) > 1 {
				if len(ring) <= curSize {
					curSize = len(ring)
					rings = append(rings, ring)
				} else {
					return rings
				}
			}
		}
	}
	s.bfsQ = q[:0]
	return rings
}

func (s *sssrState) addFound(res *[][]int, ring []int, markRing bool) bool {
	inv := s.invariant(ring)
	if s.known(inv) {
		return false
	}
	*res = append(*res, ring)
	s.invars = append(s.invars, inv)
	if markRing {
		m := s.m
		for i := range ring {
			b := m.bondBetween(ring[i], ring[(i+1)%len(ring)])
			s.ringB[b] = true
			s.ringA[ring[i]] = true
		}
	}
	return true
}

// bitsetLess is boost::dynamic_bitset's operator< for equal sizes: the
// sets compared as numbers, most significant bit first.
func bitsetLess(a, b bitset) bool {
	for w := len(a) - 1; w >= 0; w-- {
		if a[w] != b[w] {
			return a[w] < b[w]
		}
	}
	return false
}

type nodeInv struct {
	node int
	inv  bitset
}

type intPair struct{ a, b int }

func (s *sssrState) findRingsD2nodes(res *[][]int, d2nodes []int) {
	// RDKit's std::map<int, RINGINVAR_VECT> nodeInvars (d2nodes increase,
	// so appending keeps node order), dupMap as (node, other) pairs in push
	// order, and std::map<RINGINVAR, INT_VECT> dupD2Cands as entries plus
	// (entry, cand) pairs.
	nodeInvars := s.nodeInvars[:0]
	dupPairs := s.dupPairs[:0]
	entries := s.entries[:0]
	candPairs := s.candPairs[:0]
	defer func() {
		s.nodeInvars, s.dupPairs, s.entries, s.candPairs = nodeInvars[:0], dupPairs[:0], entries[:0], candPairs[:0]
	}()
	for _, cand := range d2nodes {
		srings := s.smallestRingsBfs(cand, s.active, nil)
		for _, ring := range srings {
			inv := s.invariant(ring)
			s.addFound(res, ring, true)
			nodeInvars = append(nodeInvars, nodeInv{cand, inv})
			last := -1
			for _, e := range nodeInvars {
				if e.node == cand || e.node == last || !e.inv.equal(inv) {
					continue
				}
				last = e.node
				dupPairs = append(dupPairs, intPair{cand, e.node}, intPair{e.node, cand})
			}
			k := -1
			for i, e := range entries {
				if e.equal(inv) {
					k = i
					break
				}
			}
			if k < 0 {
				k = len(entries)
				entries = append(entries, inv)
			}
			candPairs = append(candPairs, intPair{k, cand})
		}
		if len(srings) == 0 {
			changed := atomSet{in: s.m.bools(len(s.m.Atoms))}
			changed.add(cand)
			for changed.n > 0 {
				c := changed.popSmallest()
				s.trimBonds(c, &changed, s.deg, s.active)
			}
		}
	}
	if len(candPairs) == len(entries) {
		return // no ring was found from two d2 nodes
	}
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return bitsetLess(entries[order[i]], entries[order[j]]) })
	// findSSSRforDupCands
	for _, e := range order {
		var cands []int
		for _, cp := range candPairs {
			if cp.a == e {
				cands = append(cands, cp.b)
			}
		}
		if len(cands) <= 1 {
			continue
		}
		var nrings [][]int
		minSiz := int(^uint(0) >> 1)
		for _, dc := range cands {
			deg := slices.Clone(s.deg)
			active := slices.Clone(s.active)
			changed := atomSet{in: s.m.bools(len(s.m.Atoms))}
			for _, dp := range dupPairs {
				if dp.a == dc {
					s.trimBonds(dp.b, &changed, deg, active)
				}
			}
			for _, r := range s.smallestRingsBfs(dc, active, nil) {
				if len(r) < minSiz {
					minSiz = len(r)
				}
				nrings = append(nrings, r)
			}
		}
		for _, r := range nrings {
			if len(r) == minSiz {
				s.addFound(res, r, false)
			}
		}
	}
}

func (s *sssrState) findRingsD3Node(res *[][]int, cand int) {
	m := s.m
	active := slices.Clone(s.active)
	srings := s.smallestRingsBfs(cand, active, nil)
	for _, r := range srings {
		s.addFound(res, r, false)
	}
	nsmall := len(srings)
	if nsmall >= 3 {
		return
	}
	var nb []int
	for _, b := range m.AtomBonds(cand) {
		if active[b] {
			nb = append(nb, m.Bonds[b].Other(cand))
		}
	}
	if len(nb) < 3 {
		s.failed = true
		return
	}
	n1, n2, n3 := nb[0], nb[1], nb[2]
	switch nsmall {
	case 2:
		f := -1
		for _, x := range []int{n1, n2, n3} {
			if slices.Contains(srings[0], x) && slices.Contains(srings[1], x) {
				f = x
				break
			}
		}
		if f < 0 {
			s.failed = true
			return
		}
		for _, r := range s.smallestRingsBfs(cand, active, []int{f}) {
			s.addFound(res, r, false)
		}
	case 1:
		f1, f2 := -1, -1
		switch {
		case !slices.Contains(srings[0], n1):
			f1, f2 = n2, n3
		case !slices.Contains(srings[0], n2):
			f1, f2 = n1, n3
		case !slices.Contains(srings[0], n3):
			f1, f2 = n1, n2
		}
		if f1 < 0 {
			s.failed = true
			return
		}
		for _, r := range s.smallestRingsBfs(cand, active, []int{f2}) {
			s.addFound(res, r, false)
		}
		for _, r := range s.smallestRingsBfs(cand, active, []int{f1}) {
			s.addFound(res, r, false)
		}
	}
}

func (s *sssrState) ringBonds(ring []int) []int {
	out := make([]int, len(ring))
	for i := range ring {
		out[i] = s.m.bondBetween(ring[i], ring[(i+1)%len(ring)])
	}
	return out
}

// removeExtraRings is RDKit's removeExtraRings: keeps, from the rings
// sorted by size, those adding bonds to the union (preferring, among equal
// sizes, the ring overlapping the union most); the others become extras.
func (s *sssrState) removeExtraRings(res [][]int) [][]int {
	stdSort(res, func(a, b []int) bool { return len(a) < len(b) })
	nB := len(s.m.Bonds)
	bits := make([]bitset, len(res))
	for i, r := range res {
		bits[i] = make(bitset, (nB+63)/64)
		for _, b := range s.ringBonds(r) {
			bits[i].set(b)
		}
	}
	subset := func(a, u bitset) bool {
		for w := range a {
			if a[w]&^u[w] != 0 {
				return false
			}
		}
		return true
	}
	avail := make([]bool, len(res))
	for i := range avail {
		avail[i] = true
	}
	keep := make([]bool, len(res))
	union := make(bitset, (nB+63)/64)
	for i := range res {
		if subset(bits[i], union) {
			avail[i] = false
		}
		if !avail[i] {
			continue
		}
		union.or(bits[i])
		keep[i] = true
		consider := make([]bool, len(res))
		any := false
		for j := i + 1; j < len(res); j++ {
			if avail[j] && len(res[j]) == len(res[i]) {
				consider[j] = true
				any = true
			}
		}
		for any {
			bestJ, bestOverlap := i+1, -1
			for j := i + 1; j < len(res) && len(res[j]) == len(res[i]); j++ {
				if !consider[j] || !avail[j] {
					continue
				}
				ov := 0
				for w := range bits[j] {
					ov += popcount(bits[j][w] & union[w])
				}
				if ov > bestOverlap {
					bestOverlap, bestJ = ov, j
				}
			}
			consider[bestJ] = false
			if subset(bits[bestJ], union) {
				avail[bestJ] = false
			} else {
				keep[bestJ] = true
				avail[bestJ] = false
				union.or(bits[bestJ])
			}
			any = false
			for _, c := range consider {
				if c {
					any = true
					break
				}
			}
		}
	}
	var kept, extras [][]int
	for i, r := range res {
		if keep[i] {
			kept = append(kept, r)
		} else {
			extras = append(extras, r)
		}
	}
	s.extras = extras // RDKit keeps only the last fragment's extras
	return kept
}

func popcount(x uint64) int {
	n := 0
	for x != 0 {
		x &= x - 1
		n++
	}
	return n
}

// rdkitRings returns RDKit's symmetrized SSSR in RDKit's order, or ok =
// false where RDKit itself would fall back to its approximate ring finder.
func (m *Mol) rdkitRings() (rings [][]int, ok bool) {
	nA, nB := len(m.Atoms), len(m.Bonds)
	s := &m.sssr
	s.m, s.deg, s.active, s.ringB, s.ringA = m, m.ints(nA), m.bools(nB), m.bools(nB), m.bools(nA)
	s.invars, s.extras, s.failed = s.invars[:0], nil, false
	for i := range s.active {
		s.active[i] = true
	}
	for i := 0; i < nA; i++ {
		s.deg[i] = m.Degree(i)
	}
	// fragments, atoms in increasing order, ordered by their first atom
	frag := m.ints(nA)
	for i := range frag {
		frag[i] = -1
	}
	var frags [][]int
	for st := 0; st < nA; st++ {
		if frag[st] >= 0 {
			continue
		}
		id := len(frags)
		frag[st] = id
		stack := []int{st}
		members := []int{}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			members = append(members, x)
			for _, b := range m.AtomBonds(x) {
				y := m.Bonds[b].Other(x)
				if frag[y] < 0 {
					frag[y] = id
					stack = append(stack, y)
				}
			}
		}
		sort.Ints(members)
		frags = append(frags, members)
	}
	var res [][]int
	for _, cur := range frags {
		if len(cur) < 3 {
			continue
		}
		changed := atomSet{in: m.bools(nA)}
		nbnds := 0
		for _, a := range cur {
			nbnds += s.deg[a]
			if s.deg[a] < 2 {
				changed.add(a)
			}
		}
		nbnds /= 2
		nexpt := nbnds - len(cur) + 1
		if nexpt < 1 {
			continue
		}
		var fragRes [][]int
		doneAts := m.bools(nA)
		forb := m.bools(nA)
		nDone := 0
		for nDone < len(cur) {
			for changed.n > 0 {
				c := changed.popSmallest()
				if !doneAts[c] {
					doneAts[c] = true
					nDone++
					s.trimBonds(c, &changed, s.deg, s.active)
				}
			}
			// pickD2Nodes
			var d2 []int
			clear(forb)
			var mark func(root int)
			mark = func(root int) {
				for _, b := range m.AtomBonds(root) {
					if !s.active[b] {
						continue
					}
					o := m.Bonds[b].Other(root)
					if !forb[o] && s.deg[o] == 2 {
						forb[o] = true
						mark(o)
					}
				}
			}
			for {
				root := -1
				for _, a := range cur {
					if s.deg[a] == 2 && !forb[a] {
						root = a
						d2 = append(d2, a)
						forb[a] = true
						break
					}
				}
				if root < 0 {
					break
				}
				mark(root)
			}
			if len(d2) > 0 {
				s.findRingsD2nodes(&fragRes, d2)
				for _, a := range d2 {
					doneAts[a] = true
					nDone++
					s.trimBonds(a, &changed, s.deg, s.active)
				}
			} else if nDone < len(cur) {
				cand := -1
				for _, a := range cur {
					if s.deg[a] == 3 {
						cand = a
						break
					}
				}
				if cand < 0 {
					break
				}
				s.findRingsD3Node(&fragRes, cand)
				doneAts[cand] = true
				nDone++
				s.trimBonds(cand, &changed, s.deg, s.active)
			}
			if s.failed {
				return nil, false
			}
		}
		if len(fragRes) < nexpt {
			return nil, false // RDKit patches or falls back here; rare
		}
		if len(fragRes) > nexpt {
			fragRes = s.removeExtraRings(fragRes)
		}
		res = append(res, fragRes...)
	}
	// symmetrizeSSSR
	out := slices.Clone(res)
	if len(s.extras) > 0 {
		count := make([]int, nB)
		bringsList := make([][]int, len(res))
		for i, r := range res {
			bringsList[i] = s.ringBonds(r)
			for _, b := range bringsList[i] {
				count[b]++
			}
		}
		for _, extra := range s.extras {
			eb := s.ringBonds(extra)
			for _, rb := range bringsList {
				if len(rb) != len(eb) {
					continue
				}
				share, replaces := false, true
				for _, b := range rb {
					if count[b] == 1 || !share {
						if slices.Contains(eb, b) {
							share = true
						} else if count[b] == 1 {
							replaces = false
						}
					}
				}
				if share && replaces {
					out = append(out, extra)
					break
				}
			}
		}
	}
	return out, true
}
