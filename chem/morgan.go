package chem

import (
	"fmt"
	"runtime"
	"sort"
	"sync"
)

// hashCombine is boost::hash_combine on 32-bit values as RDKit uses it.
func hashCombine(seed, v uint32) uint32 {
	return seed ^ (v + 0x9e3779b9 + (seed << 6) + (seed >> 2))
}

// Environment is one Morgan environment identifier and how often it occurs.
type Environment struct {
	ID    uint32
	Count int
}

// atomInvariant is RDKit's getConnectivityInvariants for atom i: a hash of
// atomic number, total degree, total hydrogens, formal charge, the
// truncated difference between the atom's mass and the element's average
// weight, and (if in a ring) 1.
func (m *Mol) atomInvariant(i int) uint32 {
	a := &m.Atoms[i]
	nbrH := 0
	for _, b := range m.AtomBonds(i) {
		if m.Atoms[m.Bonds[b].Other(i)].Element == 1 {
			nbrH++
		}
	}
	mass := elements[a.Element].weight
	if a.Isotope != 0 {
		mass = isotopeMass(a.Element, a.Isotope)
		if a.Element != 0 && mass == 0 {
			mass = float64(a.Isotope)
		}
	}
	delta := int32(mass - elements[a.Element].weight)
	h := uint32(0)
	h = hashCombine(h, uint32(a.Element))
	h = hashCombine(h, uint32(m.Degree(i)+a.TotalHs()))
	h = hashCombine(h, uint32(a.TotalHs()+nbrH))
	h = hashCombine(h, uint32(int32(a.Charge)))
	h = hashCombine(h, uint32(delta))
	if m.atomRing[i] > 0 {
		h = hashCombine(h, 1)
	}
	return h
}

// MorganEnvironments returns the unfolded Morgan fingerprint of m up to
// the given radius with RDKit's defaults (GetMorganFingerprint: bond types
// on, no chirality, no feature invariants, redundant environments
// removed), as identifiers sorted increasingly with their counts.
func MorganEnvironments(m *Mol, radius int) []Environment {
	ids := morganIDs(m, radius, nil)
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	var out []Environment
	for _, id := range ids {
		if n := len(out); n > 0 && out[n-1].ID == id {
			out[n-1].Count++
			continue
		}
		out = append(out, Environment{ID: id, Count: 1})
	}
	return out
}

// MorganBitsOf folds the Morgan environments of m into nBits bits (RDKit's
// GetMorganFingerprintAsBitVect: bit = id mod nBits) and returns the sorted
// indices of the bits that are on.
func MorganBitsOf(m *Mol, radius, nBits int) []int {
	if nBits <= 0 {
		panic("chem: MorganBitsOf: nBits must be positive")
	}
	ids := morganIDs(m, radius, nil)
	on := make([]int, 0, len(ids))
	for _, id := range ids {
		on = append(on, int(id%uint32(nBits)))
	}
	sort.Ints(on)
	out := on[:0]
	for i, b := range on {
		if i == 0 || b != on[i-1] {
			out = append(out, b)
		}
	}
	return out
}

// MorganBits parses smiles and returns the on-bits of its Morgan
// fingerprint (see MorganBitsOf).
func MorganBits(smiles string, radius, nBits int) ([]int, error) {
	if nBits <= 0 {
		return nil, fmt.Errorf("chem: morgan: nBits must be positive, got %d", nBits)
	}
	if radius < 0 {
		return nil, fmt.Errorf("chem: morgan: radius must be >= 0, got %d", radius)
	}
	m, err := ParseSMILES(smiles)
	if err != nil {
		return nil, err
	}
	return MorganBitsOf(m, radius, nBits), nil
}

// MorganBitsAll computes MorganBits for every SMILES on workers goroutines
// (workers <= 0: GOMAXPROCS). res[i] and errs[i] belong to smiles[i]; errs[i]
// is nil on success.
func MorganBitsAll(smiles []string, radius, nBits, workers int) ([][]int, []error) {
	res := make([][]int, len(smiles))
	errs := make([]error, len(smiles))
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > len(smiles) {
		workers = len(smiles)
	}
	const chunk = 64
	var (
		mu   sync.Mutex
		next int
		wg   sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				lo := next
				next += chunk
				mu.Unlock()
				if lo >= len(smiles) {
					return
				}
				hi := min(lo+chunk, len(smiles))
				for i := lo; i < hi; i++ {
					res[i], errs[i] = MorganBits(smiles[i], radius, nBits)
				}
			}
		}()
	}
	wg.Wait()
	return res, errs
}

// morganIDs appends to dst every environment identifier RDKit's
// calcFingerprint adds (with repetitions).
func morganIDs(m *Mol, radius int, dst []uint32) []uint32 {
	n := len(m.Atoms)
	nB := len(m.Bonds)
	inv := make([]uint32, n)
	for i := range inv {
		inv[i] = m.atomInvariant(i)
	}
	dst = append(dst, inv...)
	if radius == 0 || n == 0 {
		return dst
	}
	words := (nB + 63) / 64
	if words == 0 {
		words = 1
	}
	cur := make([]uint64, n*words)
	nxt := make([]uint64, n*words)
	nbhd := func(s []uint64, i int) []uint64 { return s[i*words : (i+1)*words] }
	dead := make([]bool, n)
	roundInv := make([]uint32, n)
	var seen [][]uint64 // neighbourhoods already added
	type entry struct {
		atom int
		inv  uint32
	}
	var round []entry
	type nbr struct {
		bt  uint32
		inv uint32
	}
	var nbrs []nbr
	for layer := 0; layer < radius; layer++ {
		copy(nxt, cur)
		clear(roundInv)
		round = round[:0]
		for i := 0; i < n; i++ {
			if dead[i] {
				continue
			}
			bs := m.AtomBonds(i)
			if len(bs) == 0 {
				dead[i] = true
				continue
			}
			nb := nbhd(nxt, i)
			nbrs = nbrs[:0]
			for _, b := range bs {
				nb[b>>6] |= 1 << (uint(b) & 63)
				o := m.Bonds[b].Other(i)
				on := nbhd(cur, o)
				for w := range nb {
					nb[w] |= on[w]
				}
				nbrs = append(nbrs, nbr{uint32(m.Bonds[b].Order), inv[o]})
			}
			sort.Slice(nbrs, func(x, y int) bool {
				if nbrs[x].bt != nbrs[y].bt {
					return int32(nbrs[x].bt) < int32(nbrs[y].bt)
				}
				return nbrs[x].inv < nbrs[y].inv
			})
			h := uint32(layer)
			h = hashCombine(h, inv[i])
			for _, e := range nbrs {
				p := hashCombine(hashCombine(0, e.bt), e.inv)
				h = hashCombine(h, p)
			}
			roundInv[i] = h
			round = append(round, entry{i, h})
		}
		// RDKit sorts (neighbourhood, invariant, atom) and adds the first
		// of each neighbourhood not seen before; the others die.
		sort.Slice(round, func(x, y int) bool {
			bx, by := nbhd(nxt, round[x].atom), nbhd(nxt, round[y].atom)
			for w := words - 1; w >= 0; w-- {
				if bx[w] != by[w] {
					return bx[w] < by[w]
				}
			}
			if round[x].inv != round[y].inv {
				return round[x].inv < round[y].inv
			}
			return round[x].atom < round[y].atom
		})
		for _, e := range round {
			nb := nbhd(nxt, e.atom)
			dup := false
			for _, s := range seen {
				if bitset(s).equal(nb) {
					dup = true
					break
				}
			}
			if dup {
				dead[e.atom] = true
				continue
			}
			dst = append(dst, e.inv)
			seen = append(seen, append([]uint64(nil), nb...))
		}
		copy(inv, roundInv)
		cur, nxt = nxt, cur
	}
	return dst
}
