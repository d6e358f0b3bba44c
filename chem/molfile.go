package chem

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Errors a MolfileError may wrap besides the SMILES ones (ErrValence,
// ErrKekulize, ErrAromatic).
var (
	ErrMolfile = errors.New("malformed molfile")                // a line that does not follow the V2000 layout
	ErrV3000   = errors.New("V3000 molfiles are not supported") // the counts line says V3000
)

// MolfileError describes why a molfile was refused: the line (1-based,
// counted from the start of the file when the molfile came from an SD
// file), the atom (1-based as in the molfile, 0 when the problem is not
// one atom's) and the reason, which wraps ErrMolfile, ErrV3000 or one of
// the SMILES errors of the valence model.
type MolfileError struct {
	Line int
	Atom int
	Err  error
}

func (e *MolfileError) Error() string {
	var r *renumbered
	if e.Atom > 0 && !errors.As(e.Err, &r) { // a renumbered message names the atom itself
		return fmt.Sprintf("chem: molfile line %d: atom %d: %v", e.Line, e.Atom, e.Err)
	}
	return fmt.Sprintf("chem: molfile line %d: %v", e.Line, e.Err)
}

func (e *MolfileError) Unwrap() error { return e.Err }

// ParseMolfile reads one V2000 molfile (header, counts line, atom and bond
// blocks, properties up to "M  END") and perceives it as RDKit 2022.09's
// MolFromMolBlock does with its defaults (sanitize, remove Hs). Errors are
// *MolfileError values with lines counted from 1.
func ParseMolfile(text string) (*Mol, error) {
	m := new(Mol)
	if err := m.parseMolfile(splitLines(text), 1); err != nil {
		return nil, err
	}
	return m, nil
}

// splitLines splits text into lines without their "\n" or "\r\n".
func splitLines(text string) []string {
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// field returns the columns [from, from+n) of line, trimmed; "" when the
// line is shorter.
func field(line string, from, n int) string {
	if from >= len(line) {
		return ""
	}
	return strings.TrimSpace(line[from:min(from+n, len(line))])
}

// intField parses the columns [from, from+n) as an integer; blank is 0.
func intField(line string, from, n int) (int, bool) {
	f := field(line, from, n)
	if f == "" {
		return 0, true
	}
	v, err := strconv.Atoi(f)
	return v, err == nil
}

// elementOf returns the atomic number of an element symbol, with the
// molfile's pseudo-elements: D and T are hydrogen isotopes, and the query
// and R-group symbols (*, A, Q, L, R, R#, LP) are dummy atoms (0).
func elementOf(sym string) (z, isotope int, ok bool) {
	switch sym {
	case "D":
		return 1, 2, true
	case "T":
		return 1, 3, true
	case "*", "A", "Q", "L", "R", "R#", "LP":
		return 0, 0, true
	}
	for z := 1; z < len(elements); z++ {
		if elements[z].symbol == sym {
			return z, 0, true
		}
	}
	return 0, 0, false
}

// parseMolfile fills m from the lines of one molfile; first is the line
// number of lines[0] in its file.
func (m *Mol) parseMolfile(lines []string, first int) error {
	m.resetArena()
	m.Atoms, m.Bonds, m.source = m.Atoms[:0], m.Bonds[:0], ""
	errAt := func(i, atom int, format string, args ...any) error {
		return &MolfileError{Line: first + i, Atom: atom, Err: fmt.Errorf("%w: "+format, append([]any{ErrMolfile}, args...)...)}
	}
	if len(lines) < 4 {
		return errAt(len(lines), 0, "%d lines, a molfile has at least the 3 header lines and a counts line", len(lines))
	}
	counts := lines[3]
	if strings.Contains(counts, "V3000") {
		return &MolfileError{Line: first + 3, Err: ErrV3000}
	}
	nAtoms, ok1 := intField(counts, 0, 3)
	nBonds, ok2 := intField(counts, 3, 3)
	if !ok1 || !ok2 || nAtoms < 0 || nBonds < 0 || strings.TrimSpace(counts) == "" {
		return errAt(3, 0, "counts line %q: want the atom and bond counts in columns 1-3 and 4-6", counts)
	}
	if len(lines) < 4+nAtoms+nBonds {
		return errAt(len(lines), 0, "the counts line announces %d atoms and %d bonds, the molfile has %d lines after it", nAtoms, nBonds, len(lines)-4)
	}
	if cap(m.Atoms) < nAtoms {
		m.Atoms = make([]Atom, 0, nAtoms)
	}
	radical := m.ints(nAtoms) // radical electrons from charge code 4
	for k := 0; k < nAtoms; k++ {
		i := 4 + k
		l := lines[i]
		if len(l) < 34 {
			return errAt(i, k+1, "atom line %q is shorter than 34 columns (x, y, z, symbol)", l)
		}
		for c := 0; c < 3; c++ {
			if _, err := strconv.ParseFloat(field(l, 10*c, 10), 64); err != nil {
				return errAt(i, k+1, "coordinate %q in columns %d-%d is not a number", field(l, 10*c, 10), 10*c+1, 10*c+10)
			}
		}
		sym := field(l, 31, 3)
		z, iso, ok := elementOf(sym)
		if !ok {
			return errAt(i, k+1, "unknown element symbol %q", sym)
		}
		massDiff, ok := intField(l, 34, 2)
		if !ok {
			return errAt(i, k+1, "mass difference %q in columns 35-36 is not an integer", field(l, 34, 2))
		}
		code, ok := intField(l, 36, 3)
		if !ok || code < 0 || code > 7 {
			return errAt(i, k+1, "charge code %q in columns 37-39 is not 0-7", field(l, 36, 3))
		}
		valence, ok := intField(l, 48, 3)
		if !ok || valence < 0 || valence > 15 {
			return errAt(i, k+1, "valence %q in columns 49-51 is not 0-15", field(l, 48, 3))
		}
		a := Atom{Element: z, Isotope: iso}
		if massDiff != 0 && z > 0 {
			// RDKit: the most common isotope's mass number plus the difference
			a.Isotope = int(math.Round(elements[z].common)) + massDiff
		}
		switch code {
		case 1, 2, 3, 5, 6, 7:
			a.Charge = 4 - code
		case 4:
			radical[k] = 1
		}
		if valence != 0 {
			// an explicit valence: no implicit hydrogens beyond it
			// (15 means zero); the count is resolved once the bonds are known
			a.Bracket = true
			if valence != 15 {
				a.HCount = -valence
			}
		}
		m.Atoms = append(m.Atoms, a)
	}
	if cap(m.Bonds) < nBonds {
		m.Bonds = make([]Bond, 0, nBonds)
	}
	bondStereo := m.ints(nBonds)
	for k := 0; k < nBonds; k++ {
		i := 4 + nAtoms + k
		l := lines[i]
		a1, ok1 := intField(l, 0, 3)
		a2, ok2 := intField(l, 3, 3)
		typ, ok3 := intField(l, 6, 3)
		st, ok4 := intField(l, 9, 3)
		if !ok1 || !ok2 || !ok3 || !ok4 || len(l) < 9 {
			return errAt(i, 0, "bond line %q: want first atom, second atom, type and stereo in columns 1-3, 4-6, 7-9, 10-12", l)
		}
		if a1 < 1 || a1 > nAtoms || a2 < 1 || a2 > nAtoms {
			return errAt(i, 0, "bond %d joins atoms %d and %d, the molfile has atoms 1 to %d", k+1, a1, a2, nAtoms)
		}
		if a1 == a2 {
			return errAt(i, a1, "bond %d joins the atom to itself", k+1)
		}
		b := Bond{Begin: a1 - 1, End: a2 - 1}
		switch typ {
		case 1:
			b.Order = Single
		case 2:
			b.Order = Double
		case 3:
			b.Order = Triple
		case 4:
			b.Order, b.aromatic = Aromatic, true
			m.Atoms[a1-1].Aromatic, m.Atoms[a2-1].Aromatic = true, true
		case 9:
			b.Order = Dative
		default:
			return errAt(i, 0, "bond %d has type %d; only 1-4 (single, double, triple, aromatic) and 9 (dative) describe one structure", k+1, typ)
		}
		for _, o := range m.Bonds {
			if (o.Begin == b.Begin && o.End == b.End) || (o.Begin == b.End && o.End == b.Begin) {
				return errAt(i, 0, "a second bond between atoms %d and %d", a1, a2)
			}
		}
		bondStereo[k] = st
		m.Bonds = append(m.Bonds, b)
	}
	// properties block
	inGroup := m.bools(nAtoms)
	end := -1
	charged := false // the first M  CHG or M  RAD line clears the atom block's charges
	clearCharges := func() {
		if !charged {
			for j := range m.Atoms {
				m.Atoms[j].Charge = 0
				radical[j] = 0
			}
			charged = true
		}
	}
	for i := 4 + nAtoms + nBonds; i < len(lines) && end < 0; i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "M  END"):
			end = i
		case strings.HasPrefix(l, "M  CHG"), strings.HasPrefix(l, "M  ISO"), strings.HasPrefix(l, "M  RAD"):
			kind := l[3:6]
			n, ok := intField(l, 6, 3)
			if !ok || n < 0 || n > 8 || len(l) < 9+8*n {
				return errAt(i, 0, "%q: want an entry count 1-8 in columns 7-9, then that many atom and value pairs of 4 columns each", l)
			}
			if kind != "ISO" {
				clearCharges()
			}
			for e := 0; e < n; e++ {
				at, ok1 := intField(l, 9+8*e, 4)
				v, ok2 := intField(l, 13+8*e, 4)
				if !ok1 || !ok2 || at < 1 || at > nAtoms {
					return errAt(i, 0, "%q: entry %d names atom %q (the molfile has %d) with value %q", l, e+1, field(l, 9+8*e, 4), nAtoms, field(l, 13+8*e, 4))
				}
				a := &m.Atoms[at-1]
				switch kind {
				case "CHG":
					if v < -15 || v > 15 {
						return errAt(i, at, "charge %d outside -15..15", v)
					}
					a.Charge = v
				case "ISO":
					if v < 0 || v > 999 {
						return errAt(i, at, "isotope %d outside 0..999", v)
					}
					a.Isotope = v
				case "RAD":
					switch v {
					case 0:
						radical[at-1] = 0
					case 2:
						radical[at-1] = 1
					case 1, 3:
						radical[at-1] = 2
					default:
						return errAt(i, at, "radical %d is not 0-3", v)
					}
				}
			}
		case strings.HasPrefix(l, "M  SAL"):
			// atoms of a substance group: RDKit keeps their hydrogen atoms
			n, ok := intField(l, 10, 3)
			if !ok || n < 0 || n > 15 || len(l) < 14+4*n-1 {
				return errAt(i, 0, "%q: want an entry count 1-15 in columns 11-13, then that many atoms of 4 columns each", l)
			}
			for e := 0; e < n; e++ {
				at, ok := intField(l, 13+4*e, 4)
				if !ok || at < 1 || at > nAtoms {
					return errAt(i, 0, "%q: entry %d names atom %q (the molfile has %d)", l, e+1, field(l, 13+4*e, 4), nAtoms)
				}
				inGroup[at-1] = true
			}
		case strings.HasPrefix(l, "A  "), strings.HasPrefix(l, "G  "):
			i++ // alias and group abbreviation: the next line is its text
		case strings.HasPrefix(l, "$$$$"):
			return errAt(i, 0, "the record ends without \"M  END\"")
		}
	}
	if end < 0 {
		return errAt(len(lines), 0, "no \"M  END\" line")
	}
	for j := range m.Atoms {
		if radical[j] > 0 {
			// RDKit: an atom with radical electrons takes no implicit hydrogens
			m.Atoms[j].Radicals = radical[j]
			m.Atoms[j].Bracket = true
		}
	}
	m.buildAdjacency()
	for j := range m.Atoms {
		if a := &m.Atoms[j]; a.HCount < 0 {
			// explicit valence v: hydrogens = v - valence of the drawn bonds
			v := -a.HCount
			a.HCount = max(0, v-(m.bondValence2(j)+1)/2)
		}
	}
	pos := m.ints(len(m.Atoms))
	for j := range pos {
		pos[j] = j
	}
	m.markStereoHs(bondStereo)
	for j, g := range inGroup {
		if g && m.Atoms[j].Element == 1 && m.Degree(j) == 1 {
			m.Bonds[m.AtomBonds(j)[0]].Dir = DirUp // kept, as markStereoHs marks them
		}
	}
	if err := perceiveAs(m, pos, true); err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			// pos carried the 0-based atom index through hydrogen removal;
			// the message numbers atoms from 1, as the molfile does
			a := pe.Pos
			msg := strings.Replace(pe.Err.Error(), fmt.Sprintf("atom %d (", a), fmt.Sprintf("atom %d (", a+1), 1)
			return &MolfileError{Line: first + 4 + a, Atom: a + 1, Err: &renumbered{msg, pe.Err}}
		}
		return &MolfileError{Line: first, Err: err}
	}
	return nil
}

// markStereoHs flags (with Dir) the bonds to hydrogen atoms that RDKit's
// MolFromMolBlock keeps because they define the geometry of a double bond:
// the hydrogen's neighbour has degree 2 and a double bond, not in a ring,
// whose other end has another neighbour, and neither bond is drawn as
// "either" (double bond stereo 3, single bond stereo 4). RDKit decides from
// the 2D coordinates; any such double bond has a defined geometry in a
// drawing, so the coordinates are not needed here.
func (m *Mol) markStereoHs(bondStereo []int) {
	for i := range m.Atoms {
		if m.Atoms[i].Element != 1 || m.Degree(i) != 1 {
			continue
		}
		hb := int(m.AtomBonds(i)[0])
		nb := m.Bonds[hb].Other(i)
		if m.Degree(nb) != 2 || bondStereo[hb] == 4 {
			continue
		}
		for _, b := range m.AtomBonds(nb) {
			bd := &m.Bonds[b]
			if bd.Order != Double || bondStereo[b] == 3 {
				continue
			}
			if o := bd.Other(nb); m.Degree(o) > 1 && !m.inCycle(int(b)) {
				m.Bonds[hb].Dir = DirUp
			}
		}
	}
}

// inCycle reports whether bond b lies on a cycle: its ends stay connected
// without it.
func (m *Mol) inCycle(b int) bool {
	from, to := m.Bonds[b].Begin, m.Bonds[b].End
	seen := make([]bool, len(m.Atoms))
	stack := []int{from}
	seen[from] = true
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, ob := range m.AtomBonds(a) {
			if int(ob) == b {
				continue
			}
			o := m.Bonds[ob].Other(a)
			if o == to {
				return true
			}
			if !seen[o] {
				seen[o] = true
				stack = append(stack, o)
			}
		}
	}
	return false
}

// removeMolfileHs removes hydrogen atoms as RDKit's removeHs does after
// MolFromMolBlock: not isotopic ones, not those without exactly one
// neighbour, not those bonded to hydrogen or a dummy atom, not those that
// define a double bond's geometry (marked by markStereoHs) or belong to a
// substance group (M  SAL; marked the same way). A removed
// hydrogen becomes implicit again through the valence model; it is counted
// on its neighbour only where RDKit counts it (an atom with no implicit
// hydrogens, or an aromatic heteroatom).
func (m *Mol) removeMolfileHs(pos []int) []int {
	remove := m.bools(len(m.Atoms))
	any := false
	for i := range m.Atoms {
		if b, _, ok := m.removableH(i); !ok || b.Dir != DirNone {
			continue
		}
		remove[i] = true
		any = true
	}
	if !any {
		return pos
	}
	for i := range m.Atoms {
		if remove[i] {
			nb := &m.Atoms[m.Bonds[m.AtomBonds(i)[0]].Other(i)]
			if nb.Bracket || (nb.Aromatic && nb.Element != 6) {
				nb.HCount++
			}
		}
	}
	return m.compact(remove, pos)
}

// renumbered is an error of the valence model with its atom numbered from 1.
type renumbered struct {
	msg string
	err error
}

func (e *renumbered) Error() string { return e.msg }
func (e *renumbered) Unwrap() error { return e.err }
