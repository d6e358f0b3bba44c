// Package features builds the drug feature matrix the model trains on:
// Morgan fingerprint bits computed from each drug's SMILES (chem), and
// optionally an L1000 signature vector appended (lincs).
//
// Salts and mixtures: by default the fingerprint is that of each SMILES's
// largest organic fragment, the one RDKit's standardizer keeps
// (chem.LargestFragmentChooser with PreferOrganic: most atoms counting
// hydrogens, then exact mass, a fragment with carbon before any without),
// so that "vincristine sulfate" and "vincristine" get the same bits.
// Config.WholeMolecule fingerprints every fragment instead (RDKit's
// fingerprint of the raw molecule). The choice is recorded in
// model.FeatureConfig.Fragment ("largest-organic", or "" for the whole
// molecule) and a saved model's features are rebuilt the same way
// (ConfigOf).
//
// Layout of a row (model.Features, CSR): columns [0, NBits) are the folded
// Morgan bits (value 1 where set); with Kind "fp+sig", columns
// [NBits, NBits+len(genes)) hold the drug's signature (discretized
// z-scores; NaN entries are zero). A drug without a signature (none, or no
// finite value) is refused or left out with Config.RequireSignature, which
// the commands use with a trained model (the project's fp+sig rule: such
// drugs and their pairs are left out, never given zeros); without it, it
// gets an all-zero signature part, and Report.WithSignature counts the
// others.
package features

import (
	"errors"
	"fmt"
	"math"

	"github.com/deup-screening/deup/chem"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/lincs"
	"github.com/deup-screening/deup/model"
)

// Kinds of feature matrices.
const (
	Fingerprint          = "fp"
	FingerprintSignature = "fp+sig"
)

// LargestOrganicFragment is the model.FeatureConfig.Fragment value of
// features built from each SMILES's largest organic fragment.
const LargestOrganicFragment = "largest-organic"

// Config selects the features. Zero Radius/NBits mean the paper's 3/1024.
type Config struct {
	Kind    string // Fingerprint (default when "") or FingerprintSignature
	Radius  int
	NBits   int
	Workers int // goroutines for fingerprints; <= 0: GOMAXPROCS
	// WholeMolecule fingerprints every fragment of a SMILES (counter-ions
	// and solvents included) instead of the largest organic fragment.
	WholeMolecule bool
	// RequireSignature (FingerprintSignature only) treats a drug without a
	// signature with a finite value like a drug without a usable structure:
	// Build refuses it, BuildLenient leaves it out. Without it such a drug
	// gets an all-zero signature part.
	RequireSignature bool
}

// ConfigOf returns the Config that rebuilds features the way a saved
// model's fc says they were built (Workers left at its default).
func ConfigOf(fc model.FeatureConfig) (Config, error) {
	c := Config{Kind: fc.Kind, Radius: fc.Radius, NBits: fc.NBits}
	switch fc.Fragment {
	case "":
		c.WholeMolecule = true
	case LargestOrganicFragment:
	default:
		return c, fmt.Errorf("features: unknown fragment choice %q in the model (want %q or none)", fc.Fragment, LargestOrganicFragment)
	}
	return c, nil
}

// Report says what Build did with the drugs.
type Report struct {
	WithSignature int // drugs whose signature was appended
	// Stripped counts the drugs whose SMILES had more than one fragment
	// and whose fingerprint is that of the largest organic one alone (0
	// with Config.WholeMolecule); Tied lists the IDs of those where two
	// different fragments were equally large (the first was kept; see
	// chem.LargestFragmentChooser).
	Stripped int
	Tied     []string
	Skipped  []int   // indices (into the input drugs) not in the matrix (BuildLenient only)
	Errors   []error // one per skipped drug, naming it
	MeanBits float64 // mean number of set fingerprint bits per drug
}

// Left returns Errors in two groups, each in order: the drugs left out
// for their structure, and those left out for want of a signature
// (ErrNoSignature).
func (r Report) Left() (noStructure, noSignature []error) {
	for _, e := range r.Errors {
		if errors.Is(e, ErrNoSignature) {
			noSignature = append(noSignature, e)
		} else {
			noStructure = append(noStructure, e)
		}
	}
	return noStructure, noSignature
}

// Build returns the feature matrix of drugs, one row per drug in order.
// sig is required for FingerprintSignature and must list the same drugs
// (by ID). A drug without SMILES or whose SMILES does not parse is an
// error naming it.
func Build(drugs []drugcomb.Drug, cfg Config, sig *lincs.Signatures) (*model.Features, Report, error) {
	f, rep, err := build(drugs, cfg, sig, false)
	if err == nil && len(rep.Errors) > 0 {
		err = fmt.Errorf("features: %d of %d drugs have no usable structure: %w", len(rep.Errors), len(drugs), errors.Join(rep.Errors...))
		return nil, rep, err
	}
	return f, rep, err
}

// BuildLenient is Build for catalogues: drugs without a usable structure
// are left out and listed in Report.Skipped/Errors; row i of the matrix is
// drug kept[i], where kept lists the drugs not skipped in order.
func BuildLenient(drugs []drugcomb.Drug, cfg Config, sig *lincs.Signatures) (f *model.Features, kept []int, rep Report, err error) {
	f, rep, err = build(drugs, cfg, sig, true)
	if err != nil {
		return nil, nil, rep, err
	}
	skip := map[int]bool{}
	for _, i := range rep.Skipped {
		skip[i] = true
	}
	for i := range drugs {
		if !skip[i] {
			kept = append(kept, i)
		}
	}
	return f, kept, rep, nil
}

func build(drugs []drugcomb.Drug, cfg Config, sig *lincs.Signatures, lenient bool) (*model.Features, Report, error) {
	var rep Report
	if cfg.Kind == "" {
		cfg.Kind = Fingerprint
	}
	if cfg.Radius == 0 {
		cfg.Radius = 3
	}
	if cfg.NBits == 0 {
		cfg.NBits = 1024
	}
	if cfg.Radius < 0 || cfg.NBits < 1 {
		return nil, rep, fmt.Errorf("features: radius %d, bits %d", cfg.Radius, cfg.NBits)
	}
	mc := model.FeatureConfig{Kind: cfg.Kind, Radius: cfg.Radius, NBits: cfg.NBits}
	if !cfg.WholeMolecule {
		mc.Fragment = LargestOrganicFragment
	}
	var sigRow map[string]int
	switch cfg.Kind {
	case Fingerprint:
	case FingerprintSignature:
		if sig == nil {
			return nil, rep, fmt.Errorf("features: %q needs signatures", cfg.Kind)
		}
		mc.SigDim = len(sig.Genes)
		sigRow = make(map[string]int, len(sig.DrugIDs))
		for i, id := range sig.DrugIDs {
			sigRow[id] = i
		}
	default:
		return nil, rep, fmt.Errorf("features: unknown kind %q (want %q or %q)", cfg.Kind, Fingerprint, FingerprintSignature)
	}
	smiles := make([]string, len(drugs))
	for i, d := range drugs {
		smiles[i] = d.SMILES
	}
	var bits [][]int
	var errs []error
	var choices []chem.FragmentChoice
	if cfg.WholeMolecule {
		bits, errs = chem.MorganBitsAll(smiles, cfg.Radius, cfg.NBits, cfg.Workers)
	} else {
		bits, choices, errs = chem.LargestFragmentBitsAll(smiles, cfg.Radius, cfg.NBits, cfg.Workers, chem.LargestFragmentChooser{PreferOrganic: true})
	}
	f := &model.Features{Config: mc, RowPtr: []int{0}}
	nb := 0
	for i, d := range drugs {
		err := errs[i]
		if err == nil && d.SMILES == "" {
			err = errors.New("no SMILES")
		}
		if err == nil && cfg.RequireSignature && sigRow != nil && !hasFinite(sig, sigRow, d.ID) {
			err = ErrNoSignature
		}
		if err != nil {
			rep.Skipped = append(rep.Skipped, i)
			rep.Errors = append(rep.Errors, fmt.Errorf("drug %s: %w", d.Label(), err))
			continue
		}
		if choices != nil && choices[i].Dropped() {
			rep.Stripped++
			if choices[i].Tied {
				rep.Tied = append(rep.Tied, d.ID)
			}
		}
		set := append([]int(nil), bits[i]...)
		sortUnique(&set)
		for _, c := range set {
			if c < 0 || c >= cfg.NBits {
				return nil, rep, fmt.Errorf("features: drug %s: bit %d outside [0,%d)", d.ID, c, cfg.NBits)
			}
			f.Col = append(f.Col, int32(c))
			f.Val = append(f.Val, 1)
		}
		nb += len(set)
		if sigRow != nil {
			if r, ok := sigRow[d.ID]; ok && sig.Vectors[r] != nil {
				v := sig.Vectors[r]
				if len(v) != mc.SigDim {
					return nil, rep, fmt.Errorf("features: drug %s: signature of %d values, want %d", d.ID, len(v), mc.SigDim)
				}
				rep.WithSignature++
				for j, x := range v {
					if x != 0 && !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) {
						f.Col = append(f.Col, int32(cfg.NBits+j))
						f.Val = append(f.Val, x)
					}
				}
			}
		}
		f.IDs = append(f.IDs, d.ID)
		f.RowPtr = append(f.RowPtr, len(f.Col))
	}
	if n := f.NumDrugs(); n > 0 {
		rep.MeanBits = float64(nb) / float64(n)
	}
	if err := f.Validate(); err != nil && f.NumDrugs() > 0 {
		return nil, rep, err
	}
	_ = lenient
	return f, rep, nil
}

// CheckSMILES says whether a drug with this SMILES can be given features:
// nil when its fingerprint can be computed both of the ways Build computes
// it (the whole molecule, and the largest organic fragment), else the
// parser's or fingerprinter's error (a *chem.ParseError names the
// position). It is the check data import applies, so that a screen keeps
// only drugs that train can use.
func CheckSMILES(smiles string) error {
	if smiles == "" {
		return errors.New("no SMILES")
	}
	if _, err := chem.MorganBits(smiles, 3, 1024); err != nil {
		return err
	}
	_, _, errs := chem.LargestFragmentBitsAll([]string{smiles}, 3, 1024, 1, chem.LargestFragmentChooser{PreferOrganic: true})
	return errs[0]
}

// ErrNoSignature marks a drug left out because it has no signature with a
// finite value (Config.RequireSignature).
var ErrNoSignature = errors.New("no L1000 signature (fp+sig features need one)")

// hasFinite reports whether drug id has a signature with a finite value.
func hasFinite(sig *lincs.Signatures, row map[string]int, id string) bool {
	r, ok := row[id]
	if !ok {
		return false
	}
	for _, x := range sig.Vectors[r] {
		if !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) {
			return true
		}
	}
	return false
}

func sortUnique(x *[]int) {
	s := *x
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	*x = out
}
