package chem

import (
	"fmt"
	"runtime"
	"slices"
	"sort"

	"github.com/deup-screening/deup/internal/kernels"
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
	return foldIDs(morganIDs(m, radius, nil), nBits)
}

// A Fingerprinter parses SMILES and computes Morgan fingerprints, reusing
// its memory from one molecule to the next. The zero value is ready to use.
// A Fingerprinter must not be used by several goroutines at once; give each
// goroutine its own.
type Fingerprinter struct {
	mol  Mol
	work morganWork
	ids  []uint32
}

// Bits is MorganBits reusing f's memory. The returned slice is newly
// allocated and belongs to the caller.
func (f *Fingerprinter) Bits(smiles string, radius, nBits int) ([]int, error) {
	if nBits <= 0 {
		return nil, fmt.Errorf("chem: morgan: nBits must be positive, got %d", nBits)
	}
	if radius < 0 {
		return nil, fmt.Errorf("chem: morgan: radius must be >= 0, got %d", radius)
	}
	if err := f.mol.parse(smiles); err != nil {
		return nil, err
	}
	f.ids = f.work.ids(&f.mol, radius, f.ids[:0])
	return foldIDs(f.ids, nBits), nil
}

// foldIDs returns the sorted distinct values id mod nBits.
func foldIDs(ids []uint32, nBits int) []int {
	on := make([]int, 0, len(ids))
	for _, id := range ids {
		on = append(on, int(id%uint32(nBits)))
	}
	slices.Sort(on)
	return slices.Compact(on)
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
	var f Fingerprinter
	return f.Bits(smiles, radius, nBits)
}

// MorganBitsAll computes MorganBits for every SMILES on up to workers
// goroutines (workers <= 0: GOMAXPROCS; see forEachParallel). res[i] and
// errs[i] belong to smiles[i]; errs[i] is nil on success.
func MorganBitsAll(smiles []string, radius, nBits, workers int) ([][]int, []error) {
	res := make([][]int, len(smiles))
	errs := make([]error, len(smiles))
	forEachParallel(len(smiles), workers, func(f *Fingerprinter, i int) {
		res[i], errs[i] = f.Bits(smiles[i], radius, nBits)
	})
	return res, errs
}

// forEachParallel calls fn(f, i) for every i in [0, n) in parts of at
// least 16 on up to workers goroutines (workers <= 0: GOMAXPROCS): the
// caller's and the helpers free in the process's worker budget
// (kernels.Parts), each part with its own Fingerprinter.
func forEachParallel(n, workers int, fn func(f *Fingerprinter, i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	kernels.Parts(n, 16, workers, func(_, lo, hi int) {
		var f Fingerprinter
		for i := lo; i < hi; i++ {
			fn(&f, i)
		}
	})
}

// morganWork holds the scratch buffers of morganIDs so that a goroutine
// fingerprinting many molecules reuses them.
type morganWork struct {
	inv, roundInv []uint32
	cur, nxt      []uint64
	dead          []bool
	arena         []uint64 // neighbourhoods already added, words each
	table         []int32  // open addressing: index+1 into the arena entries
	entRound      []int32
	entAtom       []int32
	entInv        []uint32
	nbrs          []uint64
}

func hashWords(w []uint64) uint64 {
	h := uint64(14695981039346656037)
	for _, x := range w {
		h ^= x
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

// morganIDs appends to dst every environment identifier RDKit's
// calcFingerprint adds (with repetitions).
func morganIDs(m *Mol, radius int, dst []uint32) []uint32 {
	var w morganWork
	return w.ids(m, radius, dst)
}

func (w *morganWork) ids(m *Mol, radius int, dst []uint32) []uint32 {
	n := len(m.Atoms)
	w.inv = zeroed(w.inv, n)
	inv := w.inv
	for i := range inv {
		inv[i] = m.atomInvariant(i)
	}
	dst = append(dst, inv...)
	if radius == 0 || n == 0 {
		return dst
	}
	words := (len(m.Bonds) + 63) / 64
	if words == 0 {
		words = 1
	}
	w.cur = zeroed(w.cur, n*words)
	w.nxt = zeroed(w.nxt, n*words)
	cur, nxt := w.cur, w.nxt
	w.dead = zeroed(w.dead, n)
	dead := w.dead
	w.roundInv = zeroed(w.roundInv, n)
	roundInv := w.roundInv
	// hash table of neighbourhoods: at most n per round
	size := 1
	for size < 2*n*radius+2 {
		size <<= 1
	}
	w.table = zeroed(w.table, size)
	table := w.table
	w.arena = w.arena[:0]
	w.entRound, w.entAtom, w.entInv = w.entRound[:0], w.entAtom[:0], w.entInv[:0]
	for layer := 0; layer < radius; layer++ {
		copy(nxt, cur)
		clear(roundInv)
		firstEnt := int32(len(w.entAtom))
		for i := 0; i < n; i++ {
			if dead[i] {
				continue
			}
			bs := m.AtomBonds(i)
			if len(bs) == 0 {
				dead[i] = true
				continue
			}
			nb := nxt[i*words : (i+1)*words]
			nbrs := w.nbrs[:0]
			for _, b := range bs {
				nb[b>>6] |= 1 << (uint(b) & 63)
				o := m.Bonds[b].Other(i)
				on := cur[o*words : (o+1)*words]
				for k := range nb {
					nb[k] |= on[k]
				}
				// (bond type, invariant) packed so that integer order is
				// RDKit's pair order (bond types are small and positive)
				nbrs = append(nbrs, uint64(m.Bonds[b].Order)<<32|uint64(inv[o]))
			}
			for a := 1; a < len(nbrs); a++ {
				for b := a; b > 0 && nbrs[b] < nbrs[b-1]; b-- {
					nbrs[b], nbrs[b-1] = nbrs[b-1], nbrs[b]
				}
			}
			w.nbrs = nbrs
			h := uint32(layer)
			h = hashCombine(h, inv[i])
			for _, e := range nbrs {
				p := hashCombine(hashCombine(0, uint32(e>>32)), uint32(e))
				h = hashCombine(h, p)
			}
			roundInv[i] = h
			// RDKit sorts (neighbourhood, invariant, atom) and adds the
			// first of each neighbourhood not seen before; the others die.
			hv := hashWords(nb)
			slot := int(hv) & (size - 1)
			found := int32(-1)
			for table[slot] != 0 {
				e := table[slot] - 1
				a := int(w.entAtom[e])
				var other []uint64
				if w.entRound[e] == int32(layer) {
					other = nxt[a*words : (a+1)*words]
				} else {
					other = w.arena[int(e)*words : (int(e)+1)*words]
				}
				if bitset(other).equal(nb) {
					found = e
					break
				}
				slot = (slot + 1) & (size - 1)
			}
			switch {
			case found < 0:
				e := int32(len(w.entAtom))
				w.entRound = append(w.entRound, int32(layer))
				w.entAtom = append(w.entAtom, int32(i))
				w.entInv = append(w.entInv, h)
				w.arena = append(w.arena, nb...)
				table[slot] = e + 1
			case w.entRound[found] != int32(layer):
				dead[i] = true
			default:
				// same neighbourhood as an earlier atom of this round: the
				// smaller invariant (then atom index) is kept
				if h < w.entInv[found] {
					dead[w.entAtom[found]] = true
					w.entAtom[found] = int32(i)
					w.entInv[found] = h
				} else {
					dead[i] = true
				}
			}
		}
		for e := int(firstEnt); e < len(w.entAtom); e++ {
			dst = append(dst, w.entInv[e])
		}
		copy(inv, roundInv)
		cur, nxt = nxt, cur
	}
	return dst
}
