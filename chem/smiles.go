package chem

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Errors a ParseError may wrap (test with errors.Is).
var (
	ErrSyntax   = errors.New("syntax error")          // a character that cannot start or continue the SMILES here
	ErrRing     = errors.New("ring closure error")    // unclosed, self-closing or conflicting ring closures
	ErrBranch   = errors.New("unbalanced branch")     // "(" without ")" or the reverse
	ErrValence  = errors.New("valence not permitted") // RDKit's valence model refuses the atom
	ErrKekulize = errors.New("cannot kekulize")       // aromatic input without a Kekulé structure
	ErrAromatic = errors.New("non-ring atom marked aromatic")
)

// ParseError describes why a SMILES string was refused: the input, the
// byte offset (0-based; len(SMILES) for "at end of input") where the
// problem was found and the reason, which wraps one of the Err* values.
// Error() counts positions from 1.
type ParseError struct {
	SMILES string
	Pos    int   // byte offset into SMILES
	Err    error // the reason; wraps an Err* sentinel
}

func (e *ParseError) Error() string {
	if e.Pos >= len(e.SMILES) {
		return fmt.Sprintf("chem: smiles %q: at end of input: %v", e.SMILES, e.Err)
	}
	return fmt.Sprintf("chem: smiles %q: at position %d: %v", e.SMILES, e.Pos+1, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// organic maps the organic-subset symbols allowed outside brackets.
func organicAt(s string, i int) (z int, arom bool, n int) {
	c := s[i]
	next := byte(0)
	if i+1 < len(s) {
		next = s[i+1]
	}
	switch c {
	case 'B':
		if next == 'r' {
			return 35, false, 2
		}
		return 5, false, 1
	case 'C':
		if next == 'l' {
			return 17, false, 2
		}
		return 6, false, 1
	case 'N':
		return 7, false, 1
	case 'O':
		return 8, false, 1
	case 'P':
		return 15, false, 1
	case 'S':
		return 16, false, 1
	case 'F':
		return 9, false, 1
	case 'I':
		return 53, false, 1
	case 'b':
		return 5, true, 1
	case 'c':
		return 6, true, 1
	case 'n':
		return 7, true, 1
	case 'o':
		return 8, true, 1
	case 'p':
		return 15, true, 1
	case 's':
		return 16, true, 1
	case '*':
		return 0, false, 1
	}
	return -1, false, 0
}

// symbolZ maps element symbols to atomic numbers (read-only after init).
var symbolZ = func() map[string]int {
	m := make(map[string]int, len(elements))
	for z, e := range elements {
		if z > 0 {
			m[e.symbol] = z
		}
	}
	return m
}()

type pendingBond struct {
	set   bool
	order BondOrder
	unspc bool // "/" "\" or nothing: order from the atoms' aromaticity
	dir   BondDir
	rev   bool // "<-": dative bond from the later atom to the earlier
	pos   int
}

type ringOpen struct {
	num  int
	atom int
	bond pendingBond
	pos  int
}

type parser struct {
	s     string
	m     *Mol
	pos   []int      // byte offset of each atom
	rings []ringOpen // open ring closures
	// closed ring closures; RDKit adds their bonds after all chain bonds,
	// by ring number, then in order (which fixes bond and neighbour order)
	closures []closure
}

type closure struct {
	num, a, b int // bond from a (Begin) to b unless the bond says otherwise
	bond      pendingBond
	pos       int
}

func (p *parser) errorf(pos int, sentinel error, format string, args ...any) error {
	return &ParseError{SMILES: p.s, Pos: pos, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
}

// ParseSMILES parses a SMILES string and perceives the molecule as RDKit
// 2022.09's MolFromSmiles does with its defaults (sanitize, remove Hs).
// Errors are *ParseError values.
func ParseSMILES(s string) (*Mol, error) {
	m := new(Mol)
	if err := m.parse(s); err != nil {
		return nil, err
	}
	return m, nil
}

// parse fills m (reusing its memory) from s and perceives it.
func (m *Mol) parse(s string) error {
	core, start, cx, err := splitSMILES(s)
	if err != nil {
		return err
	}
	pos, err := m.parseGraph(core, m.posBuf)
	if err == nil && cx != "" {
		m.applyCXRadicals(cx)
	}
	if err == nil {
		m.posBuf = pos
		err = perceive(m, pos)
	}
	var pe *ParseError
	if err != nil && start > 0 && errors.As(err, &pe) {
		pe.Pos += start
	}
	if err != nil && errors.As(err, &pe) {
		pe.SMILES = s
	}
	m.source = s
	return err
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// splitSMILES separates, as RDKit does, the SMILES proper from surrounding
// white space and from what follows it: a CXSMILES block "|...|" (of which
// the radical fields ^n:i,j,... are used) and/or a name (ignored).
func splitSMILES(s string) (core string, start int, cx string, err error) {
	for start < len(s) && isSpace(s[start]) {
		start++
	}
	end := start
	for end < len(s) && !isSpace(s[end]) {
		end++
	}
	core = s[start:end]
	rest := end
	for rest < len(s) && isSpace(s[rest]) {
		rest++
	}
	if rest < len(s) && s[rest] == '|' {
		k := strings.IndexByte(s[rest+1:], '|')
		if k < 0 {
			return "", 0, "", &ParseError{SMILES: s, Pos: rest, Err: fmt.Errorf("%w: CXSMILES block '|' never closed", ErrSyntax)}
		}
		cx = s[rest+1 : rest+1+k]
	}
	if core == "" {
		return "", 0, "", &ParseError{SMILES: s, Pos: len(s), Err: fmt.Errorf("%w: empty SMILES", ErrSyntax)}
	}
	return core, start, cx, nil
}

// applyCXRadicals sets the radical electrons given by CXSMILES fields
// "^n:i,j,...": ^1 one, ^2..^4 two, ^5..^7 three (RDKit's reading). Atom
// indices outside the molecule are ignored, as RDKit does.
func (m *Mol) applyCXRadicals(cx string) {
	for i := 0; i+2 < len(cx); i++ {
		if cx[i] != '^' || !isDigit(cx[i+1]) || cx[i+2] != ':' {
			continue
		}
		n := 0
		switch cx[i+1] {
		case '1':
			n = 1
		case '2', '3', '4':
			n = 2
		case '5', '6', '7':
			n = 3
		default:
			continue
		}
		j := i + 3
		for {
			k := j
			for k < len(cx) && isDigit(cx[k]) {
				k++
			}
			if k == j {
				break
			}
			idx, _ := strconv.Atoi(cx[j:k])
			if idx < len(m.Atoms) {
				m.Atoms[idx].Radicals = n
			}
			if k < len(cx) && cx[k] == ',' && k+1 < len(cx) && isDigit(cx[k+1]) {
				j = k + 1
				continue
			}
			break
		}
	}
}

// parseGraph resets m and fills it from s, reusing m's memory and pos.
func (m *Mol) parseGraph(s string, pos []int) ([]int, error) {
	m.resetArena()
	// upper bounds of the atom and bond counts, to allocate once
	nAtoms, nRing := 0, 0
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '[':
			in = true
			nAtoms++
		case c == ']':
			in = false
		case in:
		case c >= 'A' && c <= 'Z', c == 'b', c == 'c', c == 'n', c == 'o', c == 'p', c == 's', c == '*':
			nAtoms++
		case c >= '0' && c <= '9', c == '%':
			nRing++
		}
	}
	if cap(m.Atoms) < nAtoms {
		m.Atoms = make([]Atom, 0, nAtoms)
	}
	if cap(m.Bonds) < nAtoms+nRing {
		m.Bonds = make([]Bond, 0, nAtoms+nRing)
	}
	if cap(pos) < nAtoms {
		pos = make([]int, 0, nAtoms)
	}
	m.Atoms, m.Bonds, m.source = m.Atoms[:0], m.Bonds[:0], s
	p := parser{s: s, m: m, pos: pos[:0], rings: m.openRings[:0], closures: m.closures[:0]}
	err := p.parse()
	m.openRings, m.closures = p.rings[:0], p.closures[:0]
	if err != nil {
		return nil, err
	}
	m.buildAdjacency()
	return p.pos, nil
}

func (p *parser) parse() error {
	s := p.s
	if len(s) == 0 {
		return &ParseError{SMILES: s, Pos: 0, Err: fmt.Errorf("%w: empty SMILES", ErrSyntax)}
	}
	prev := -1
	var bond pendingBond
	// afterOpen: the last token was "("; bondAfterOpen: the pending bond
	// came right after "(" (a branch must start with an atom, possibly
	// after a bond, as in RDKit's grammar)
	afterOpen, bondAfterOpen := false, false
	type branch struct{ atom, pos int }
	var stack []branch
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == '(':
			if afterOpen {
				return p.errorf(i, ErrBranch, "a branch cannot start with '('")
			}
			if prev < 0 {
				return p.errorf(i, ErrBranch, "branch without a preceding atom")
			}
			if bond.set {
				return p.errorf(bond.pos, ErrSyntax, "bond %q before a branch", s[bond.pos:i])
			}
			stack = append(stack, branch{prev, i})
			i++
			afterOpen = true
			continue
		case c == ')':
			if len(stack) == 0 {
				return p.errorf(i, ErrBranch, "unmatched ')'")
			}
			if bond.set {
				return p.errorf(bond.pos, ErrSyntax, "bond %q without a following atom", s[bond.pos:i])
			}
			if afterOpen {
				return p.errorf(i, ErrBranch, "empty branch")
			}
			if prev < 0 {
				return p.errorf(i-1, ErrSyntax, "'.' must be followed by an atom")
			}
			prev = stack[len(stack)-1].atom
			stack = stack[:len(stack)-1]
			i++
		case c == '.':
			if bond.set {
				return p.errorf(bond.pos, ErrSyntax, "bond %q without a following atom", s[bond.pos:i])
			}
			if prev < 0 || afterOpen {
				return p.errorf(i, ErrSyntax, "'.' must follow an atom")
			}
			prev = -1
			i++
		case c == '-' || c == '=' || c == '#' || c == '$' || c == ':' || c == '/' || c == '\\' || c == '<':
			if bond.set {
				return p.errorf(i, ErrSyntax, "two bond symbols in a row")
			}
			if prev < 0 {
				return p.errorf(i, ErrSyntax, "bond %q without a preceding atom", string(c))
			}
			bond = pendingBond{set: true, pos: i}
			bondAfterOpen = afterOpen
			n := 1
			switch c {
			case '-':
				if i+1 < len(s) && s[i+1] == '>' {
					bond.order, n = Dative, 2
				} else {
					bond.order = Single
				}
			case '<':
				if i+1 < len(s) && s[i+1] == '-' {
					bond.order, bond.rev, n = Dative, true, 2
				} else {
					return p.errorf(i, ErrSyntax, "unexpected '<'")
				}
			case '=':
				bond.order = Double
			case '#':
				bond.order = Triple
			case '$':
				bond.order = Quadruple
			case ':':
				bond.order = Aromatic
			case '/':
				bond.order, bond.unspc, bond.dir = Single, true, DirUp
			case '\\':
				bond.order, bond.unspc, bond.dir = Single, true, DirDown
				if i+1 < len(s) && s[i+1] == '\\' {
					n = 2 // RDKit reads "\\" as one bond
				}
			}
			i += n
			continue
		case c >= '0' && c <= '9' || c == '%':
			if prev < 0 {
				return p.errorf(i, ErrRing, "ring-closure digit without a preceding atom")
			}
			if afterOpen || (bond.set && bondAfterOpen) {
				return p.errorf(i, ErrRing, "a branch cannot start with a ring closure")
			}
			num, n, err := p.ringNumber(i)
			if err != nil {
				return err
			}
			if err := p.ringClosure(prev, num, bond, i); err != nil {
				return err
			}
			bond = pendingBond{}
			i += n
		default:
			var (
				a   Atom
				n   int
				err error
			)
			if c == '[' {
				a, n, err = p.bracketAtom(i)
				if err != nil {
					return err
				}
			} else {
				z, arom, k := organicAt(s, i)
				if z < 0 {
					return p.errorf(i, ErrSyntax, "unexpected %s", quoteChar(s, i))
				}
				a = Atom{Element: z, Aromatic: arom}
				n = k
			}
			idx := len(p.m.Atoms)
			p.m.Atoms = append(p.m.Atoms, a)
			p.pos = append(p.pos, i)
			if prev >= 0 {
				p.addBond(prev, idx, bond)
			} else if bond.set {
				return p.errorf(bond.pos, ErrSyntax, "bond without a preceding atom")
			}
			bond = pendingBond{}
			prev = idx
			i += n
		}
		afterOpen = false
	}
	if prev < 0 && len(s) > 0 && s[len(s)-1] == '.' {
		return p.errorf(len(s)-1, ErrSyntax, "'.' must be followed by an atom")
	}
	if bond.set {
		return p.errorf(bond.pos, ErrSyntax, "bond %q at the end", s[bond.pos:])
	}
	if len(stack) > 0 {
		return p.errorf(stack[len(stack)-1].pos, ErrBranch, "'(' never closed")
	}
	if len(p.rings) > 0 {
		r := p.rings[0]
		return p.errorf(r.pos, ErrRing, "ring %d never closed", r.num)
	}
	if err := p.addClosures(); err != nil {
		return err
	}
	return nil
}

func quoteChar(s string, i int) string {
	r := []rune(s[i:])
	if len(r) == 0 {
		return "end of input"
	}
	return strconv.QuoteRune(r[0])
}

func (p *parser) addBond(a, b int, bond pendingBond) {
	bd := Bond{Begin: a, End: b, Order: Single, unspecified: true}
	if bond.set {
		bd.Order, bd.Dir, bd.unspecified = bond.order, bond.dir, bond.unspc
		if bond.order == Aromatic {
			bd.aromatic = true
		}
		if bond.rev {
			bd.Begin, bd.End = b, a
		}
	}
	p.m.Bonds = append(p.m.Bonds, bd)
}

func (p *parser) ringNumber(i int) (num, n int, err error) {
	s := p.s
	if s[i] != '%' {
		return int(s[i] - '0'), 1, nil
	}
	if i+1 < len(s) && s[i+1] == '(' {
		j := i + 2
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i+2 || j >= len(s) || s[j] != ')' || j-(i+2) > 5 {
			return 0, 0, p.errorf(i, ErrRing, "expected %%(digits) ring number")
		}
		v, _ := strconv.Atoi(s[i+2 : j])
		return v, j + 1 - i, nil
	}
	if i+2 < len(s) && isDigit(s[i+1]) && isDigit(s[i+2]) && s[i+1] != '0' {
		return int(s[i+1]-'0')*10 + int(s[i+2]-'0'), 3, nil
	}
	return 0, 0, p.errorf(i, ErrRing, "expected two digits (10 to 99) after '%%'")
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *parser) ringClosure(atom, num int, bond pendingBond, pos int) error {
	k := -1
	for j := range p.rings {
		if p.rings[j].num == num {
			k = j
			break
		}
	}
	if k < 0 {
		p.rings = append(p.rings, ringOpen{num: num, atom: atom, bond: bond, pos: pos})
		return nil
	}
	open := p.rings[k]
	p.rings = append(p.rings[:k], p.rings[k+1:]...)
	if open.atom == atom {
		return p.errorf(pos, ErrRing, "ring %d closes on its own atom", num)
	}
	// The bond written at the opening wins unless it is missing or only a
	// direction (RDKit reads "C=1CC#1" as C1=CC1); a bond taken from the
	// closing side reads "closing atom SYMBOL opening atom".
	if open.bond.set && !open.bond.unspc {
		p.closures = append(p.closures, closure{num, open.atom, atom, open.bond, pos})
	} else {
		p.closures = append(p.closures, closure{num, atom, open.atom, bond, pos})
	}
	return nil
}

// addClosures adds the ring-closure bonds in RDKit's order.
func (p *parser) addClosures() error {
	slices.SortStableFunc(p.closures, func(x, y closure) int { return x.num - y.num })
	for _, c := range p.closures {
		if p.bondExists(c.a, c.b) {
			return p.errorf(c.pos, ErrRing, "ring %d duplicates an existing bond", c.num)
		}
		p.addBond(c.a, c.b, c.bond)
	}
	return nil
}

func (p *parser) bondExists(a, b int) bool {
	for _, bd := range p.m.Bonds {
		if (bd.Begin == a && bd.End == b) || (bd.Begin == b && bd.End == a) {
			return true
		}
	}
	return false
}

// bracketAtom parses "[isotope? symbol chirality? hcount? charge? class?]"
// starting at s[i] == '['.
func (p *parser) bracketAtom(i int) (Atom, int, error) {
	s := p.s
	j := i + 1
	a := Atom{Bracket: true}
	// isotope
	k := j
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	if k > j {
		if k-j > 4 {
			return a, 0, p.errorf(j, ErrSyntax, "isotope too large")
		}
		a.Isotope, _ = strconv.Atoi(s[j:k])
		j = k
	}
	// symbol
	if j >= len(s) {
		return a, 0, p.errorf(j, ErrSyntax, "expected an element symbol after '['")
	}
	switch {
	case s[j] == '*':
		a.Element = 0
		j++
	case s[j] == '#':
		k := j + 1
		for k < len(s) && isDigit(s[k]) && k-j <= 3 {
			k++
		}
		z, _ := strconv.Atoi(s[j+1 : k])
		if k == j+1 || z < 1 || z >= len(elements) {
			return a, 0, p.errorf(j, ErrSyntax, "expected an atomic number from 1 to %d after '#'", len(elements)-1)
		}
		a.Element = z
		j = k
	case s[j] >= 'a' && s[j] <= 'z':
		two := ""
		if j+1 < len(s) {
			two = s[j : j+2]
		}
		switch two {
		case "se":
			a.Element, a.Aromatic, j = 34, true, j+2
		case "te":
			a.Element, a.Aromatic, j = 52, true, j+2
		case "as":
			a.Element, a.Aromatic, j = 33, true, j+2
		case "si":
			a.Element, a.Aromatic, j = 14, true, j+2
		default:
			z, arom, n := organicAt(s, j)
			if z <= 0 || !arom {
				return a, 0, p.errorf(j, ErrSyntax, "unknown aromatic symbol %s", quoteChar(s, j))
			}
			a.Element, a.Aromatic, j = z, true, j+n
		}
	case s[j] >= 'A' && s[j] <= 'Z':
		z := -1
		if j+1 < len(s) && s[j+1] >= 'a' && s[j+1] <= 'z' {
			if v, ok := symbolZ[s[j:j+2]]; ok {
				z, j = v, j+2
			}
		}
		if z < 0 {
			v, ok := symbolZ[s[j:j+1]]
			if !ok {
				return a, 0, p.errorf(j, ErrSyntax, "unknown element symbol %s", quoteChar(s, j))
			}
			z, j = v, j+1
		}
		a.Element = z
	default:
		return a, 0, p.errorf(j, ErrSyntax, "expected an element symbol, found %s", quoteChar(s, j))
	}
	// chirality
	if j < len(s) && s[j] == '@' {
		j++
		switch {
		case j < len(s) && s[j] == '@':
			a.Chiral = Chirality{Class: "@@"}
			j++
		case j+1 < len(s) && isChiralClass(s[j:j+2]):
			cls := s[j : j+2]
			j += 2
			k := j
			for k < len(s) && isDigit(s[k]) && k-j < 2 {
				k++
			}
			n, _ := strconv.Atoi(s[j:k]) // RDKit allows the number to be left out
			a.Chiral = Chirality{Class: cls, Number: n}
			j = k
		default:
			a.Chiral = Chirality{Class: "@"}
		}
	}
	// hydrogens
	if j < len(s) && s[j] == 'H' {
		j++
		a.HCount = 1
		k := j
		for k < len(s) && isDigit(s[k]) && k-j < 2 {
			k++
		}
		if k > j {
			a.HCount, _ = strconv.Atoi(s[j:k])
			j = k
		}
	}
	// charge
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		sign := 1
		if s[j] == '-' {
			sign = -1
		}
		c := s[j]
		j++
		switch {
		case j < len(s) && isDigit(s[j]):
			k := j
			for k < len(s) && isDigit(s[k]) && k-j < 2 {
				k++
			}
			v, _ := strconv.Atoi(s[j:k])
			a.Charge = sign * v
			j = k
		default:
			n := 1
			for j < len(s) && s[j] == c {
				n++
				j++
			}
			a.Charge = sign * n
		}
	}
	// atom class
	if j < len(s) && s[j] == ':' {
		j++
		k := j
		for k < len(s) && isDigit(s[k]) && k-j < 9 {
			k++
		}
		if k == j {
			return a, 0, p.errorf(j, ErrSyntax, "expected an atom class number after ':'")
		}
		a.Class, _ = strconv.Atoi(s[j:k])
		j = k
	}
	if j >= len(s) {
		return a, 0, p.errorf(i, ErrSyntax, "'[' never closed")
	}
	if s[j] != ']' {
		return a, 0, p.errorf(j, ErrSyntax, "unexpected %s in bracket atom", quoteChar(s, j))
	}
	return a, j + 1 - i, nil
}

func isChiralClass(s string) bool {
	switch s {
	case "TH", "AL", "SP", "TB", "OH":
		return true
	}
	return false
}
