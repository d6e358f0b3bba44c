package chem_test

import (
	"errors"
	"fmt"

	"github.com/deup-screening/deup/chem"
)

func ExampleMorganBits() {
	// aspirin, radius 3, 1024 bits: the same bits as RDKit 2022.09.3's
	// GetMorganFingerprintAsBitVect(MolFromSmiles(...), 3, nBits=1024)
	bits, err := chem.MorganBits("CC(=O)Oc1ccccc1C(=O)O", 3, 1024)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(bits)
	// Output:
	// [3 11 23 33 64 82 175 356 386 389 423 443 444 456 541 589 592 650 695 705 726 740 751 807 841 849 893 909 946 967 1017]
}

func ExampleParseSMILES_error() {
	_, err := chem.ParseSMILES("CC(C)(C)(C)(C)C")
	fmt.Println(err)
	var pe *chem.ParseError
	if errors.As(err, &pe) {
		fmt.Println(pe.Pos, errors.Is(err, chem.ErrValence))
	}
	// Output:
	// chem: smiles "CC(C)(C)(C)(C)C": at position 2: valence not permitted: explicit valence 6 of atom 1 (C) is greater than permitted
	// 1 true
}

func ExampleWriteSMILES() {
	m, err := chem.ParseSMILES("C1=CC=C(C=C1)C(=O)[O-].[Na+]")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _ := chem.WriteSMILES(m)
	fmt.Println(s)
	// Output:
	// c1ccc(cc1)C(=O)[O-].[Na+]
}

func ExampleFingerprinter() {
	var f chem.Fingerprinter // one per goroutine; reuses its memory
	for _, s := range []string{"CCO", "c1ccccc1"} {
		bits, err := f.Bits(s, 2, 2048)
		fmt.Println(bits, err)
	}
	// Output:
	// [80 222 294 807 1057 1410] <nil>
	// [389 1088 1873] <nil>
}
