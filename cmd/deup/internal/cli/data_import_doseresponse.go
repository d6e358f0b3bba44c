package cli

import (
	"context"
	_ "embed"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/doseresp"
	"github.com/deup-screening/deup/drugcomb"
)

//go:embed help/dataImportDoseResponse.txt
var dataImportDoseResponseDesc string

func runDataImportDoseResponse(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup data import",
		"deup data import --format doseresponse --responses FILE --drugs CATALOGUE --score "+scoreChoices+" --out DIR", dataImportDoseResponseDesc)
	fs.String("format", "doseresponse", "doseresponse")
	pf := newPlateFlags(fs)
	drugs := fs.String("drugs", "", "drug catalogue with names and SMILES (required)")
	idCol := fs.String("drug-id-col", "", "catalogue column of the drug name, when not a recognised spelling")
	smilesCol := fs.String("smiles-col", "", smilesColUsage)
	score := fs.String("score", "css", "the block score to model: "+strings.Join(doseresp.Scores(), ", "))
	out := fs.String("out", "", screenOutUsage)
	name := fs.String("name", "", "screen name (default: the input file's base name)")
	cellName := fs.String("cell-line-name", "", "cell line of every block when the table has none (default \"unknown\")")
	if _, err := cmdline.ParseWant(fs, args, 0, 0); err != nil {
		return err
	}
	if *pf.in == "" || *out == "" || *drugs == "" {
		return cmdline.UsageError(fs, "deup data import --format doseresponse needs --responses FILE, --drugs CATALOGUE and --out DIR")
	}
	if err := cmdline.NeedFile("--drugs", *drugs, catalogueWhat); err != nil {
		return err
	}
	ropt, sopt, err := pf.options()
	if err != nil {
		return err
	}
	cat, err := readCatalogue(*drugs, *idCol, *smilesCol)
	if err != nil {
		return err
	}
	im, err := doseresp.ImportFile(*pf.in, *name, *score, ropt, sopt, drugcomb.Options{Catalogue: cat, CellLineName: *cellName})
	if im != nil {
		if werr := im.WriteText(env.Stdout); werr != nil {
			return werr
		}
	}
	if err != nil {
		return plateColumnHint(err)
	}
	if err := im.Save(*out); err != nil {
		return err
	}
	s := im.Screen
	fmt.Fprintf(env.Stdout, "wrote %s: %d pairs (target %s), %d measurements, %d drugs, %d cell line(s); block scores in %s\n",
		*out, len(s.Pairs), *score, s.Measurements(), len(s.Drugs), len(s.CellLines), filepath.Join(*out, doseresp.BlocksDir))
	return nil
}
