package chem

import (
	"strconv"
	"strings"
)

// WriteSMILES writes the perceived molecule m as SMILES: aromatic atoms in
// lower case, every atom whose hydrogen count the valence model would not
// reproduce in brackets, components joined by ".". It writes no
// stereochemistry (no @ marks, no / \ bonds) and is not canonical: atoms
// come in depth-first order from the lowest unwritten atom index.
//
// ParseSMILES(WriteSMILES(m)) gives back the graph of m (same elements,
// charges, isotopes, hydrogen counts, aromaticity and bond orders); order
// reports which atom of m each atom of the output is. As with RDKit
// 2022.09.3, there is one exception: a ring perceived aromatic whose Kekulé
// structure came only from the input's explicit bond orders (aromatic boron
// rings such as "Bb1=Bb[b]bb1", written "Bb1bbbbb1") is written in lower
// case and cannot be read back (ErrKekulize); RDKit writes the same SMILES
// and refuses it too.
func WriteSMILES(m *Mol) (smiles string, order []int) {
	w := writer{m: m, visited: make([]bool, len(m.Atoms)), bondDone: make([]bool, len(m.Bonds)),
		ringDigit: make(map[int]int), pendingRing: make([][]ringRef, len(m.Atoms))}
	for i := range m.Atoms {
		if w.visited[i] {
			continue
		}
		if w.b.Len() > 0 {
			w.b.WriteByte('.')
		}
		w.findRings(i)
		w.dfs(i, -1)
	}
	return w.b.String(), w.order
}

type ringRef struct {
	bond  int
	digit int
}

type writer struct {
	m           *Mol
	b           strings.Builder
	visited     []bool
	bondDone    []bool
	order       []int
	ringDigit   map[int]int // bond -> digit while open
	pendingRing [][]ringRef
	inUse       []bool
	treeVisited []bool
	ringBonds   []bool
}

// findRings marks the ring-closure bonds of the component of start: the
// non-tree edges of the same depth-first traversal dfs will do.
func (w *writer) findRings(start int) {
	m := w.m
	if w.treeVisited == nil {
		w.treeVisited = make([]bool, len(m.Atoms))
		w.ringBonds = make([]bool, len(m.Bonds))
	}
	type frame struct{ atom, from, next int }
	st := []frame{{start, -1, 0}}
	w.treeVisited[start] = true
	tree := make(map[int]bool)
	for len(st) > 0 {
		f := &st[len(st)-1]
		bs := m.AtomBonds(f.atom)
		if f.next >= len(bs) {
			st = st[:len(st)-1]
			continue
		}
		b := int(bs[f.next])
		f.next++
		if b == f.from || tree[b] || w.ringBonds[b] {
			continue
		}
		o := m.Bonds[b].Other(f.atom)
		if w.treeVisited[o] {
			w.ringBonds[b] = true
			continue
		}
		tree[b] = true
		w.treeVisited[o] = true
		st = append(st, frame{o, b, 0})
	}
}

func (w *writer) dfs(a, from int) {
	m := w.m
	w.visited[a] = true
	w.order = append(w.order, a)
	w.writeAtom(a)
	// ring closures: first those closing here, then those opening here
	for _, r := range w.pendingRing[a] {
		bd := &m.Bonds[r.bond]
		// a symbol at the closing digit reads "this atom SYMBOL partner"
		w.writeBond(bd, a, m.Bonds[r.bond].Other(a))
		w.writeDigit(r.digit)
		w.inUse[r.digit] = false
		w.bondDone[r.bond] = true
	}
	for _, b32 := range m.AtomBonds(a) {
		b := int(b32)
		if !w.ringBonds[b] || w.bondDone[b] {
			continue
		}
		o := m.Bonds[b].Other(a)
		if w.visited[o] {
			continue
		}
		d := 1
		for d < len(w.inUse) && w.inUse[d] {
			d++
		}
		for d >= len(w.inUse) {
			w.inUse = append(w.inUse, false)
		}
		w.inUse[d] = true
		w.writeDigit(d)
		w.pendingRing[o] = append(w.pendingRing[o], ringRef{b, d})
		w.bondDone[b] = true
	}
	var children []int
	for _, b32 := range m.AtomBonds(a) {
		b := int(b32)
		if b == from || w.bondDone[b] || w.ringBonds[b] {
			continue
		}
		o := m.Bonds[b].Other(a)
		if w.visited[o] {
			continue
		}
		children = append(children, b)
	}
	for k, b := range children {
		o := m.Bonds[b].Other(a)
		if w.visited[o] {
			continue
		}
		w.bondDone[b] = true
		last := k == len(children)-1
		if !last {
			w.b.WriteByte('(')
		}
		w.writeBond(&m.Bonds[b], a, o)
		w.dfs(o, b)
		if !last {
			w.b.WriteByte(')')
		}
	}
}

func (w *writer) writeDigit(d int) {
	if d < 10 {
		w.b.WriteByte(byte('0' + d))
		return
	}
	if d < 100 {
		w.b.WriteByte('%')
		w.b.WriteString(strconv.Itoa(d))
		return
	}
	w.b.WriteString("%(" + strconv.Itoa(d) + ")")
}

// writeBond writes the symbol of bond bd written from atom x to atom y.
func (w *writer) writeBond(bd *Bond, x, y int) {
	ax, ay := &w.m.Atoms[x], &w.m.Atoms[y]
	switch bd.Order {
	case Single:
		if ax.Aromatic && ay.Aromatic {
			w.b.WriteByte('-')
		}
	case Aromatic:
		if !(ax.Aromatic && ay.Aromatic) {
			w.b.WriteByte(':')
		}
	case Dative:
		if bd.Begin == x {
			w.b.WriteString("->")
		} else {
			w.b.WriteString("<-")
		}
	default:
		w.b.WriteString(bd.Order.String())
	}
}

// organicHs is the hydrogen count the valence model gives atom i if it is
// written without brackets, or -1 if it cannot be.
func (w *writer) organicHs(i int) int {
	a := w.m.Atoms[i]
	if a.Isotope != 0 || a.Charge != 0 || a.Class != 0 {
		return -1
	}
	switch a.Element {
	case 5, 6, 7, 8, 15, 16:
	case 9, 17, 35, 53:
		if a.Aromatic {
			return -1
		}
	default:
		return -1
	}
	// evaluate the valence model on a copy of the atom
	m := w.m
	saved := m.Atoms[i]
	m.Atoms[i].Bracket, m.Atoms[i].HCount, m.Atoms[i].Radicals = false, 0, 0
	m.calcExplicitValence(i, false, false)
	h, _ := m.calcImplicitValence(i, false)
	m.Atoms[i] = saved
	return h
}

func (w *writer) writeAtom(i int) {
	a := &w.m.Atoms[i]
	sym := a.Symbol()
	if a.Aromatic {
		sym = strings.ToLower(sym)
	}
	if a.Radicals == 0 && w.organicHs(i) == a.TotalHs() {
		w.b.WriteString(sym)
		return
	}
	w.b.WriteByte('[')
	if a.Isotope != 0 {
		w.b.WriteString(strconv.Itoa(a.Isotope))
	}
	w.b.WriteString(sym)
	if h := a.TotalHs(); h > 0 {
		w.b.WriteByte('H')
		if h > 1 {
			w.b.WriteString(strconv.Itoa(h))
		}
	}
	switch {
	case a.Charge == 1:
		w.b.WriteByte('+')
	case a.Charge == -1:
		w.b.WriteByte('-')
	case a.Charge > 1:
		w.b.WriteString("+" + strconv.Itoa(a.Charge))
	case a.Charge < -1:
		w.b.WriteString(strconv.Itoa(a.Charge))
	}
	if a.Class != 0 {
		w.b.WriteString(":" + strconv.Itoa(a.Class))
	}
	w.b.WriteByte(']')
}
