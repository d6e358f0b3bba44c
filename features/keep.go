package features

import (
	"fmt"
	"strings"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/lincs"
	"github.com/deup-screening/deup/model"
)

// KeepStructured is the one structure rule of the campaigns: a drug whose
// SMILES cannot be fingerprinted (CheckSMILES) is left out with every pair
// that names it, and named in left ("drug LABEL: the parser's message"). A
// drug without any SMILES stays: identity features need none. sc itself is
// returned when every drug stays.
func KeepStructured(sc *drugcomb.Screen) (out *drugcomb.Screen, left []string) {
	bad := map[int]bool{}
	for i, d := range sc.Drugs {
		if d.SMILES == "" {
			continue
		}
		if err := CheckSMILES(d.SMILES); err != nil {
			bad[i] = true
			left = append(left, fmt.Sprintf("drug %s: %s", d.Label(), strings.TrimPrefix(err.Error(), "chem: ")))
		}
	}
	if len(bad) == 0 {
		return sc, nil
	}
	return sc.KeepDrugs(func(i int, _ drugcomb.Drug) bool { return !bad[i] }), left
}

// KeepSignaturePairs is the one rule of every fp+sig command: a pair is
// kept only when both its drugs have a signature in sig (a vector with at
// least one finite value: an all-NaN column counts as none; a missing
// signature is never replaced by zeros, which would read as "no change in
// expression"). It returns the screen of those pairs and how many of sc's
// drugs have a signature.
func KeepSignaturePairs(sc *drugcomb.Screen, sig *lincs.Signatures) (out *drugcomb.Screen, withSig int) {
	has := map[string]bool{}
	for i, id := range sig.DrugIDs {
		for _, x := range sig.Vectors[i] {
			if x == x {
				has[id] = true
				break
			}
		}
	}
	for _, d := range sc.Drugs {
		if has[d.ID] {
			withSig++
		}
	}
	out = sc.KeepPairs(func(_ int, p *drugcomb.Pair) bool {
		return has[sc.Drugs[p.A].ID] && has[sc.Drugs[p.B].ID]
	})
	return out, withSig
}

// KeepRows returns sc restricted to the drugs kept (the rows of
// BuildLenient's feature matrix, in order) and the pairs of two of them.
func KeepRows(sc *drugcomb.Screen, kept []int) *drugcomb.Screen {
	keep := make([]bool, len(sc.Drugs))
	for _, i := range kept {
		keep[i] = true
	}
	return sc.KeepDrugs(func(i int, _ drugcomb.Drug) bool { return keep[i] })
}

// ScreenFeatures are the features of a screen's drugs under the rules of
// every command that trains on a screen (ForScreen).
type ScreenFeatures struct {
	// Signed is the screen under the fp+sig rule (KeepSignaturePairs: the
	// pairs whose two drugs have a signature); the screen itself for fp.
	Signed        *drugcomb.Screen
	WithSignature int // drugs of the screen with a signature (fp+sig)
	// Screen is Signed without the drugs left out by the structure rule
	// and their pairs (KeepRows): row r of Features is its drug r. Both
	// are nil when Signed has no pair.
	Screen   *drugcomb.Screen
	Features *model.Features
	Report   Report // BuildLenient's, on Signed's drugs
}

// ForScreen builds the feature matrix of sc's drugs under cfg: with sig
// (fp+sig; nil for fp) it first keeps the pairs whose two drugs have a
// signature (KeepSignaturePairs), then leaves out, with their pairs, the
// drugs BuildLenient cannot use (Report.Errors names them).
func ForScreen(sc *drugcomb.Screen, cfg Config, sig *lincs.Signatures) (*ScreenFeatures, error) {
	out := &ScreenFeatures{Signed: sc}
	if sig != nil {
		out.Signed, out.WithSignature = KeepSignaturePairs(sc, sig)
		if len(out.Signed.Pairs) == 0 {
			return out, nil
		}
	}
	f, kept, rep, err := BuildLenient(out.Signed.Drugs, cfg, sig)
	if err != nil {
		return nil, err
	}
	out.Features, out.Report, out.Screen = f, rep, out.Signed
	if len(rep.Errors) > 0 {
		out.Screen = KeepRows(out.Signed, kept)
	}
	return out, nil
}

// ForModel builds the features a trained model needs for drugs: the
// model's own settings fc (ConfigOf: fingerprint and fragment rule) and,
// for an fp+sig model, the signatures sig, required: a drug without one is
// left out like a drug without a usable structure, never given zeros.
// Row i of f is drug kept[i] (BuildLenient).
func ForModel(fc model.FeatureConfig, drugs []drugcomb.Drug, sig *lincs.Signatures) (f *model.Features, kept []int, rep Report, err error) {
	cfg, err := ConfigOf(fc)
	if err != nil {
		return nil, nil, rep, err
	}
	cfg.RequireSignature = true
	return BuildLenient(drugs, cfg, sig)
}
