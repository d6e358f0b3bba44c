package chem

//go:generate sh -c "/usr/bin/python3 elements_gen.py > elements_gen.go && gofmt -w elements_gen.go"

// element is one row of the periodic table as RDKit's valence model uses it.
type element struct {
	symbol   string
	weight   float64 // average atomic weight
	common   float64 // mass of the most common isotope (RDKit's getMostCommonIsotopeMass)
	outer    int     // number of outer-shell electrons
	valences []int   // allowed valences, smallest first; -1 means "any"
	isoFirst int     // mass number of isoMass[0]
	isoMass  []float64
}

// defaultValence is the first allowed valence of element z (-1: none).
func defaultValence(z int) int {
	if z < 0 || z >= len(elements) {
		return -1
	}
	return elements[z].valences[0]
}

// isotopeMass is the mass of isotope a of element z, or 0 when unknown.
func isotopeMass(z, a int) float64 {
	e := &elements[z]
	i := a - e.isoFirst
	if i < 0 || i >= len(e.isoMass) {
		return 0
	}
	return e.isoMass[i]
}

// BondOrder is the type of a bond. The numeric values are RDKit's
// Bond::BondType values, which enter the Morgan environment hashes.
type BondOrder uint8

// Bond orders.
const (
	Single    BondOrder = 1
	Double    BondOrder = 2
	Triple    BondOrder = 3
	Quadruple BondOrder = 4
	Aromatic  BondOrder = 12
	Dative    BondOrder = 17 // from Begin to End ("->" in SMILES)
)

// String returns the SMILES symbol of the bond order.
func (o BondOrder) String() string {
	switch o {
	case Single:
		return "-"
	case Double:
		return "="
	case Triple:
		return "#"
	case Quadruple:
		return "$"
	case Aromatic:
		return ":"
	case Dative:
		return "->"
	}
	return "?"
}

// valence2 is twice the contribution of a bond of order o to the valence of
// atom a (RDKit's Bond::getValenceContrib, doubled to stay integral).
func valence2(o BondOrder, begin bool) int {
	switch o {
	case Single:
		return 2
	case Double:
		return 4
	case Triple:
		return 6
	case Quadruple:
		return 8
	case Aromatic:
		return 3
	case Dative:
		if begin {
			return 0
		}
		return 2
	}
	return 0
}

// BondDir is the direction mark of a single bond written with / or \.
type BondDir uint8

// Bond directions.
const (
	DirNone BondDir = iota
	DirUp           // "/"
	DirDown         // "\"
)

// Chirality is the chirality mark of a bracket atom as written: the
// neighbours in input order seen from the first one are anticlockwise
// (@, Anticlockwise) or clockwise (@@, Clockwise). Other classes (@TB5,
// @OH12, ...) are kept as written in Class and Number.
type Chirality struct {
	Class  string // "" for none, "@" / "@@" for tetrahedral shorthand, or "TH", "AL", "SP", "TB", "OH"
	Number int    // the number after the class (0 for the shorthand)
}

// Atom is one atom of a molecule. Fields marked "perceived" are filled in by
// ParseSMILES after the valence model, kekulization and aromaticity ran.
type Atom struct {
	Element  int  // atomic number; 0 for "*"
	Isotope  int  // mass number, 0 if not given
	Charge   int  // formal charge
	Bracket  bool // written in brackets: no implicit hydrogens beyond HCount
	HCount   int  // hydrogens written in brackets (or added for removed [H] atoms)
	Class    int  // atom class (":n" in brackets), 0 if none
	Chiral   Chirality
	Radicals int // radical electrons (perceived)

	Aromatic   bool // perceived (the SMILES lower-case flag before perception)
	ImplicitHs int  // perceived hydrogens from the valence model
	InRing     bool // perceived

	explicitValence int
}

// TotalHs is the number of hydrogens on the atom, not counting hydrogen
// atoms of the graph.
func (a *Atom) TotalHs() int { return a.HCount + a.ImplicitHs }

// Symbol is the element symbol ("*" for a dummy atom).
func (a *Atom) Symbol() string {
	if a.Element < 0 || a.Element >= len(elements) {
		return "?"
	}
	return elements[a.Element].symbol
}

// Bond joins atoms Begin and End.
type Bond struct {
	Begin, End int
	Order      BondOrder // after perception: Single/Double/Triple/... or Aromatic
	Dir        BondDir
	InRing     bool // perceived
	// unspecified records that no bond symbol (or only / \) was written,
	// so the order comes from the aromaticity of the atoms.
	unspecified bool
	aromatic    bool // RDKit's bond aromatic flag (separate from Order)
}

// Other returns the atom at the other end of the bond from atom i.
func (b *Bond) Other(i int) int {
	if b.Begin == i {
		return b.End
	}
	return b.Begin
}

// Mol is a molecule graph: atoms, bonds and per-atom adjacency.
//
// A Mol returned by ParseSMILES is fully perceived the way RDKit's
// MolFromSmiles sanitizes it: explicit [H] atoms removed where RDKit removes
// them, implicit hydrogens from the default valences, aromatic input
// kekulized, RDKit's aromaticity model applied, ring membership set.
// A Mol is not safe for concurrent modification; reading it from several
// goroutines is safe.
type Mol struct {
	Atoms []Atom
	Bonds []Bond

	// adjacency in compressed form: the bonds of atom i are
	// adj[adjStart[i]:adjStart[i+1]], in the order they were added.
	adjStart []int32
	adj      []int32
	rings    [][]int // symmetrized SSSR rings as atom indices
	ringBnds [][]int // the same rings as bond indices
	bondRing []uint8 // number of SSSR rings containing each bond
	atomRing []uint8 // number of SSSR rings containing each atom
	source   string

	scratch32 []int32
	intArena  arena[int] // per-parse scratch, see ints
	boolArena arena[bool]
	wordArena arena[uint64]
	frames    []frame
	donors    []donor
	neigh     [][]int
	openRings []ringOpen
	closures  []closure
	sssr      sssrState
	posBuf    []int
	cands     []cand
}

// NumAtoms is the number of atoms.
func (m *Mol) NumAtoms() int { return len(m.Atoms) }

// AtomBonds returns the indices of the bonds of atom i in the order they
// were written. The slice belongs to m and must not be modified.
func (m *Mol) AtomBonds(i int) []int32 { return m.adj[m.adjStart[i]:m.adjStart[i+1]] }

// Degree is the number of bonds of atom i in the graph.
func (m *Mol) Degree(i int) int { return int(m.adjStart[i+1] - m.adjStart[i]) }

// Rings returns the rings as atom indices in ring order: RDKit's
// symmetrized smallest set of smallest rings, in RDKit's order (FindSSSR
// reimplemented; where RDKit would fall back to its approximate ring
// finder, a minimum cycle basis from Horton's candidates is used instead).
// The slices belong to m.
func (m *Mol) Rings() [][]int { return m.rings }

// buildAdjacency (re)computes the compressed adjacency lists.
func (m *Mol) buildAdjacency() {
	n := len(m.Atoms)
	if cap(m.adjStart) >= n+1 {
		m.adjStart = m.adjStart[:n+1]
		clear(m.adjStart)
	} else {
		m.adjStart = make([]int32, n+1)
	}
	for i := range m.Bonds {
		m.adjStart[m.Bonds[i].Begin+1]++
		m.adjStart[m.Bonds[i].End+1]++
	}
	for i := 1; i <= n; i++ {
		m.adjStart[i] += m.adjStart[i-1]
	}
	total := int(m.adjStart[n])
	if cap(m.adj) >= total {
		m.adj = m.adj[:total]
	} else {
		m.adj = make([]int32, total)
	}
	m.scratch32 = zeroed(m.scratch32, n)
	next := m.scratch32
	copy(next, m.adjStart[:n])
	for i := range m.Bonds {
		b := &m.Bonds[i]
		m.adj[next[b.Begin]] = int32(i)
		next[b.Begin]++
		m.adj[next[b.End]] = int32(i)
		next[b.End]++
	}
}

// resetArena makes the per-parse scratch memory available again. Slices
// handed out before must no longer be used.
func (m *Mol) resetArena() {
	m.intArena.reset()
	m.boolArena.reset()
	m.wordArena.reset()
}

// ints returns a zeroed []int of length n from the per-parse arena.
func (m *Mol) ints(n int) []int {
	return m.intArena.take(n, 1024)
}

// bools returns a zeroed []bool of length n from the per-parse arena.
func (m *Mol) bools(n int) []bool {
	return m.boolArena.take(n, 1024)
}

// bondBetween returns the index of the bond between atoms i and j, or -1.
func (m *Mol) bondBetween(i, j int) int {
	for _, b := range m.AtomBonds(i) {
		if m.Bonds[b].Other(i) == j {
			return int(b)
		}
	}
	return -1
}
