package chem

import "fmt"

// earlyAtoms marks the elements left of carbon in RDKit's valence model
// (Atom.cpp isEarlyAtom): their charge shifts the valence the other way.
var earlyAtoms = func() (t [119]bool) {
	for _, z := range []int{3, 4, 5, 11, 12, 13, 19, 20, 21, 22, 30, 31, 32, 37, 38, 39, 40, 41,
		48, 49, 50, 51, 55, 56, 57, 58, 59, 60, 61, 72, 73, 80, 81, 82, 83, 87, 88, 89, 90, 91,
		92, 93, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118} {
		t[z] = true
	}
	return t
}()

func isEarly(z int) bool { return z >= 0 && z < len(earlyAtoms) && earlyAtoms[z] }

func (m *Mol) hasAromaticBond(i int) bool {
	for _, b := range m.AtomBonds(i) {
		bd := &m.Bonds[b]
		if bd.aromatic || bd.Order == Aromatic {
			return true
		}
	}
	return false
}

// isAromaticAtom is RDKit's isAromaticAtom: the atom flag or any aromatic bond.
func (m *Mol) isAromaticAtom(i int) bool {
	if m.Atoms[i].Aromatic {
		return true
	}
	for _, b := range m.AtomBonds(i) {
		bd := &m.Bonds[b]
		if bd.aromatic || bd.Order == Aromatic {
			return true
		}
	}
	return false
}

// valenceCharge is the charge correction of RDKit's valence model.
func valenceCharge(z, charge int) int {
	if isEarly(z) {
		charge = -charge
	}
	if z == 6 && charge > 0 {
		charge = -charge
	}
	return charge
}

// bondValence2 is twice the sum of the valence contributions of atom i's
// bonds.
func (m *Mol) bondValence2(i int) int {
	acc := 0
	for _, b := range m.AtomBonds(i) {
		bd := &m.Bonds[b]
		acc += valence2(bd.Order, bd.Begin == i && bd.Order == Dative)
	}
	return acc
}

// calcExplicitValence is RDKit's Atom::calcExplicitValence. With
// ignoreAtomFlag the atom's own aromatic flag is not consulted (only its
// bonds), as RDKit's nitrogen clean-up does.
func (m *Mol) calcExplicitValence(i int, strict bool, ignoreAtomFlag bool) (int, error) {
	a := &m.Atoms[i]
	acc := m.bondValence2(i) + 2*a.HCount
	dv := defaultValence(a.Element)
	chr := valenceCharge(a.Element, a.Charge)
	if acc > 2*(dv+chr) && ((!ignoreAtomFlag && a.Aromatic) || m.hasAromaticBond(i)) {
		pval := dv + chr
		for _, v := range elements[a.Element].valences {
			if v == -1 {
				break
			}
			val := v + chr
			if 2*val > acc {
				break
			}
			pval = val
		}
		if acc-2*pval <= 3 {
			acc = 2 * pval
		}
	}
	res := (acc + 1) / 2
	if strict {
		eff := res + a.Charge
		if elements[a.Element].outer >= 4 {
			eff = res - a.Charge
		}
		vl := elements[a.Element].valences
		if max := vl[len(vl)-1]; max > 0 && eff > max {
			return 0, fmt.Errorf("%w: explicit valence %d of atom %d (%s) is greater than permitted", ErrValence, eff, i, a.Symbol())
		}
	}
	a.explicitValence = res
	return res, nil
}

// calcImplicitValence is RDKit's Atom::calcImplicitValence; it uses the
// cached explicit valence.
func (m *Mol) calcImplicitValence(i int, strict bool) (int, error) {
	a := &m.Atoms[i]
	if a.Bracket {
		return 0, nil
	}
	if a.Element == 0 {
		a.ImplicitHs = 0
		return 0, nil
	}
	ev := a.explicitValence
	if ev == 0 && a.Element == 1 && a.Radicals == 0 {
		switch a.Charge {
		case 1, -1:
			a.ImplicitHs = 0
		case 0:
			a.ImplicitHs = 1
		default:
			if strict {
				return 0, fmt.Errorf("%w: unreasonable formal charge on hydrogen atom %d", ErrValence, i)
			}
			a.ImplicitHs = 0
		}
		return a.ImplicitHs, nil
	}
	dv := defaultValence(a.Element)
	if dv == -1 {
		a.ImplicitHs = 0
		return 0, nil
	}
	vl := elements[a.Element].valences
	evr := ev + a.Radicals
	chg := valenceCharge(a.Element, a.Charge)
	res := 0
	if m.isAromaticAtom(i) {
		if evr <= dv+chg {
			res = dv + chg - evr
		} else {
			satis := false
			for _, v := range vl {
				if v <= 0 {
					break
				}
				if evr == v+chg {
					satis = true
					break
				}
			}
			if strict && !satis {
				return 0, fmt.Errorf("%w: explicit valence %d of aromatic atom %d (%s) is not an accepted valence", ErrValence, evr, i, a.Symbol())
			}
			res = 0
		}
	} else {
		res = -1
		for _, v := range vl {
			if v < 0 {
				break
			}
			if tot := v + chg; evr <= tot {
				res = tot - evr
				break
			}
		}
		if res < 0 {
			if strict && vl[len(vl)-1] != -1 {
				return 0, fmt.Errorf("%w: explicit valence %d of atom %d (%s) is greater than permitted", ErrValence, evr, i, a.Symbol())
			}
			res = 0
		}
	}
	a.ImplicitHs = res
	return res, nil
}

// totalValence is RDKit's getTotalValence: cached explicit + implicit.
func (a *Atom) totalValence() int { return a.explicitValence + a.ImplicitHs }

// cleanUp is RDKit's MolOps::cleanUp: nitro groups, azides, P=O ylides and
// halogen oxides to their charge-separated forms.
func (m *Mol) cleanUp() {
	for i := range m.Atoms {
		a := &m.Atoms[i]
		switch a.Element {
		case 7:
			if a.Charge != 0 {
				continue
			}
			ev, _ := m.calcExplicitValence(i, false, true)
			if ev != 5 {
				continue
			}
			for _, b := range m.AtomBonds(i) {
				bd := &m.Bonds[b]
				nb := &m.Atoms[bd.Other(i)]
				if nb.Element == 8 && nb.Charge == 0 && bd.Order == Double {
					bd.Order = Single
					a.Charge, nb.Charge = 1, -1
					break
				}
				if nb.Element == 7 && nb.Charge == 0 && bd.Order == Triple {
					bd.Order = Double
					a.Charge, nb.Charge = 1, -1
					break
				}
			}
		case 15:
			if a.Charge != 0 {
				continue
			}
			ev, _ := m.calcExplicitValence(i, false, false)
			if ev != 5 || m.Degree(i) != 3 {
				continue
			}
			dblO := -1
			toCN := false
			for _, b := range m.AtomBonds(i) {
				bd := &m.Bonds[b]
				o := bd.Other(i)
				nb := &m.Atoms[o]
				if nb.Element == 8 && nb.Charge == 0 && bd.Order == Double {
					dblO = int(b)
				} else if (nb.Element == 6 || nb.Element == 7) && m.Degree(o) >= 2 && bd.Order == Double {
					toCN = true
				}
			}
			if toCN && dblO >= 0 {
				bd := &m.Bonds[dblO]
				m.Atoms[bd.Other(i)].Charge = -1
				bd.Order = Single
				a.Charge = 1
			}
		case 17, 35, 53:
			ev, _ := m.calcExplicitValence(i, false, false)
			if a.Charge != 0 || (ev != 7 && ev != 5 && ev != 3) {
				continue
			}
			allO := true
			for _, b := range m.AtomBonds(i) {
				if m.Atoms[m.Bonds[b].Other(i)].Element != 8 {
					allO = false
					break
				}
			}
			if !allO {
				continue
			}
			q := 0
			for _, b := range m.AtomBonds(i) {
				bd := &m.Bonds[b]
				if bd.Order == Double {
					bd.Order = Single
					q++
					m.Atoms[bd.Other(i)].Charge = -1
				}
			}
			a.Charge = q
		}
	}
}

// assignRadicals is RDKit's MolOps::assignRadicals (bracket atoms only).
func (m *Mol) assignRadicals() {
	for i := range m.Atoms {
		a := &m.Atoms[i]
		if !a.Bracket || a.Radicals != 0 || a.Element == 0 {
			continue
		}
		vl := elements[a.Element].valences
		chg := a.Charge
		nOuter := elements[a.Element].outer
		if len(vl) == 1 && vl[0] == -1 {
			nv := nOuter - chg
			if nv < 0 {
				nv = 0
			}
			a.Radicals = nv % 2
			continue
		}
		acc2 := m.bondValence2(i) + 2*a.HCount
		total := (acc2*10 + 2) / 20 // int(accum + 0.1)
		base := 8
		if a.Element == 1 || a.Element == 2 {
			base = 2
		}
		nr := base - nOuter - total + chg
		if nr < 0 {
			nr = 0
			if len(vl) > 1 {
				for _, v := range vl {
					if v-total+chg >= 0 {
						nr = v - total + chg
						break
					}
				}
			}
		}
		if nr2 := nOuter - total - chg; nr2 >= 0 && nr2 < nr {
			nr = nr2
		}
		a.Radicals = nr
	}
}
