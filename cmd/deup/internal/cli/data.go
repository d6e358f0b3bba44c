package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
)

// dataCommand groups the data-layer subcommands: import, inspect, synth,
// fetch, signatures, synergy. Each one's run function lives in its own
// file (data_*.go).
func dataCommand() *cmdline.Command {
	return &cmdline.Command{
		Name:  "data",
		Short: "import, inspect, generate and fetch screens and signatures",
		Subs: []*cmdline.Command{
			{Name: "import", Short: "import a screen (ALMANAC, DrugComb summary, or any table with a column map) into a screen directory", Run: runDataImport},
			{Name: "inspect", Short: "summarize a screen directory: counts, scores, drugs without SMILES or signatures", Run: runDataInspect},
			{Name: "synth", Short: "generate the embedded default: a synthetic screen with its hidden ground truth", Run: runDataSynth},
			{Name: "fetch", Short: "download the public sources (DrugComb, NCI-ALMANAC, LINCS) into a cache directory", Run: runDataFetch},
			{Name: "signatures", Short: "match L1000 signatures (GCT) to a screen's drugs and store them beside it", Run: runDataSignatures},
			{Name: "synergy", Short: synergyShort(), Run: runDataSynergy},
		},
	}
}

// checkSMILES is the structure check of data import and inspect: the one
// training applies (features.CheckSMILES), its message without the package
// prefix.
func checkSMILES(smiles string) error {
	if err := features.CheckSMILES(smiles); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "chem: "))
	}
	return nil
}

// readCatalogue reads --drugs with the columns --drug-id-col and
// --smiles-col name ("" for a recognised spelling).
func readCatalogue(path, idCol, smilesCol string) (*drugcomb.Catalogue, error) {
	cat, err := drugcomb.ReadCatalogueFileWith(path, drugcomb.CatalogueColumns{ID: idCol, SMILES: smilesCol})
	if err != nil {
		return nil, fmt.Errorf("%w (name the columns with --drug-id-col and --smiles-col)", err)
	}
	return cat, nil
}

// baseName is path's file name without its extension: the default name of
// an imported screen.
func baseName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}
