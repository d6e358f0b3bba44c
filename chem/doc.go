// Package chem reads SMILES into molecule graphs and computes Morgan
// (ECFP-like) fingerprints that are bit for bit those of RDKit 2022.09.3.
//
// ParseSMILES follows RDKit's MolFromSmiles with its defaults: explicit [H]
// atoms are removed where RDKit removes them, nitro-like groups are put in
// charge-separated form, implicit hydrogens come from RDKit's default
// valences (an atom above its largest allowed valence is refused with
// ErrValence), aromatic input is kekulized with RDKit's own walk
// (breadth-first from the root of RDKit's first ring, first candidate
// neighbour, at most 100 backtracks; ErrKekulize when it fails), rings are
// RDKit's symmetrized smallest set of smallest rings (its FindSSSR
// reimplemented, ring-closure bonds ordered after the chain bonds as RDKit
// orders them, so ring lists and walks follow RDKit's order), and aromaticity
// is RDKit's own model (rings and fused systems of up to six rings, Hückel
// 4n+2 over donor types, exocyclic multiple bonds to more electronegative
// atoms taking an electron).
//
// Molfiles and SD files: ParseMolfile reads a V2000 molfile and
// SDReader the records of an SD file (structure, title, data items such as
// <NSC>) into the same graph, perceived as RDKit's MolFromMolBlock does
// with its defaults: charges from the atom block unless an M  CHG or
// M  RAD line is present (the first one clears them), isotopes from the
// mass difference and M  ISO, explicit hydrogen atoms removed (kept when
// isotopic, bonded to hydrogen or a dummy atom, or defining a double bond's
// geometry) and hydrogens otherwise implicit from the valence model for
// every atom, charged or not; radicals and an explicit valence field allow
// no implicit hydrogens. Structures RDKit refuses are refused with the same
// ErrValence (NCI's cisplatin and oxaliplatin: Cl- and O- bonded to Pt).
// V3000 gives ErrV3000. Errors are *MolfileError values naming the line.
//
// Morgan identifiers follow RDKit's calcFingerprint: the radius-0 invariant
// of an atom is hash(atomic number, total degree, total hydrogens, formal
// charge, int(isotope mass - average weight), [1 if in a ring]) with
// boost's 32-bit hash_combine (seed ^= v + 0x9e3779b9 + seed<<6 + seed>>2);
// round r hashes (r-1, own invariant, sorted (bond type, neighbour
// invariant) pairs). An environment whose bond set was already seen is not
// added and its atom stops growing; folding is id mod nBits.
//
// Salts and mixtures: Mol.Fragments lists the connected components (RDKit's
// getMolFrags order) and LargestFragmentChooser keeps the one RDKit's
// rdMolStandardize.LargestFragmentChooser keeps: most atoms counting
// hydrogens, then largest exact (monoisotopic) mass, optionally any
// fragment with a carbon before any without (PreferOrganic). RDKit's last
// tie-break (canonical SMILES) is not reproduced: the first tied fragment
// is kept and FragmentChoice.Tied says so. LargestFragmentBits and
// LargestFragmentBitsAll fingerprint the kept fragment; on the 664
// multi-fragment SMILES of the shared catalogues they equal RDKit 2022.09.3's
// GetMorganFingerprintAsBitVect(LargestFragmentChooser(preferOrganic=True)
// .choose(mol)). The raw-molecule functions (MorganBits, ...) keep every
// fragment, as RDKit's fingerprint of the whole molecule does. A metal
// drawn as a separate ion ("[Pt+2].[NH3].[NH3].[Cl-].[Cl-]") is dropped,
// as RDKit drops it.
//
// Ownership: a *Mol from ParseSMILES belongs to the caller; slices it
// returns (AtomBonds, Rings) belong to the Mol. A Fingerprinter reuses its
// memory between calls and must not be shared between goroutines; the bit
// slices it returns are new. MorganBitsAll runs one Fingerprinter per
// part of the input, on the process's worker pool (kernels.Parts).
//
// Errors from parsing are *ParseError values naming the input and the byte
// position; they wrap ErrSyntax, ErrRing, ErrBranch, ErrValence,
// ErrKekulize or ErrAromatic. No input panics. MorganBitsOf panics on
// nBits <= 0 (a programmer error); MorganBits returns an error instead.
package chem
