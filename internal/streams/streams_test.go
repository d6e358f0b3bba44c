package streams

import "testing"

// TestDistinct: no two uses share a stream.
func TestDistinct(t *testing.T) {
	all := map[string]uint64{
		"NetInit":        NetInit,
		"Shuffle":        Shuffle,
		"Identity":       Identity,
		"NoveltyHoldout": NoveltyHoldout,
		"NoveltySeed":    NoveltySeed,
		"SigmaRefit":     SigmaRefit,
		"DUETrain":       DUETrain,
		"DUENet":         DUENet,
		"NNMLP":          NNMLP,
		"Dropout":        Dropout,
		"MLP":            MLP,
		"GPFit":          GPFit,
		"KMeans":         KMeans,
		"Split":          Split,
		"Calibration":    Calibration,
		"CrossConformal": CrossConformal,
		"OOD":            OOD,
		"OODFolds":       OODFolds,
		"OOSDraw":        OOSDraw,
		"OODFinal":       OODFinal,
		"Synth":          Synth,
		"Ensemble":       Ensemble,
		"Prefill":        Prefill,
		"InitialPairs":   InitialPairs,
		"Suggest":        Suggest,
		"RLEnv":          RLEnv,
		"RLAgent":        RLAgent,
		"SMOMethod":      SMOMethod,
		"SMOInitial":     SMOInitial,
		"SMOAcquisition": SMOAcquisition,
		"PlateDesign":    PlateDesign,
		"PlateLab":       PlateLab,
	}
	seen := map[uint64]string{}
	for name, v := range all {
		if other, ok := seen[v]; ok {
			t.Errorf("%s and %s share stream %#x", name, other, v)
		}
		seen[v] = name
	}
}
