package cli

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/model"
	"github.com/deup-screening/deup/suggest"
)

func suggestCommand() *Command {
	return &Command{Name: "suggest", Short: "export the next experiments (CSV, Parquet or JSON) from a campaign or a trained model", Run: runSuggest}
}

const suggestDesc = `Writes a batch of suggested experiments to --out (CSV, Parquet or JSON by
extension): rank, both drugs' names, IDs, PubChem CIDs and SMILES, the cell
line, the predicted mu, sigma_total, sigma_epistemic and sigma_aleatoric,
the acquisition score and the reason the pair was chosen.

--campaign DIR: the campaign's open round, or, if none is open, a new round
proposed now and recorded durably in the campaign's ledger (with --batch and
--acquisition overriding the campaign's settings for that round).

--model MODEL: a model file from 'deup train' (any method), scoring every
unmeasured pair of the drugs of the screen it was trained on, on its cell line
and score (the model file records them). --screen DIR scores another screen's
drugs instead. Acquisition: ucb[:KAPPA], ei[:XI], thompson, greedy, explore,
random; EI improves on the best measured score of the screen.

Next: give the file to the lab; with a campaign, bring the results back with
deup campaign import-results.`

func runSuggest(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet(env, "deup suggest", "deup suggest (--campaign DIR | --model MODEL [--screen DIR]) [--batch B] [--acquisition ucb] --out FILE", suggestDesc)
	campaignDir := fs.String("campaign", "", "campaign directory")
	modelPath := fs.String("model", "", "model file from deup train --out (any method)")
	screenDir := fs.String("screen", "", "with --model: screen directory (default: the screen the model was trained on)")
	cellLine := fs.String("cell-line", "", "with --model: cell line (default: the model's)")
	score := fs.String("score", "", "with --model: score column (default: the model's)")
	batch := fs.Int("batch", 0, "suggestions (default: the campaign's batch; 30 with --model)")
	acqName := fs.String("acquisition", "", "acquisition function (default: the campaign's; ucb with --model)")
	perDrug := maxPerDrugFlag(fs)
	seed := fs.Uint64("seed", 1, "with --model: seed of thompson and random draws")
	out := fs.String("out", "", "output file: .csv, .parquet or .json")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, pos, 0, 0); err != nil {
		return err
	}
	if (*campaignDir == "") == (*modelPath == "") || *out == "" {
		fs.Usage()
		return fmt.Errorf("%w: deup suggest: give --out and exactly one of --campaign and --model", ErrUsage)
	}
	if _, err := suggest.FormatOf(*out); err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	batchSet := false
	fs.Visit(func(f *flag.Flag) { batchSet = batchSet || f.Name == "batch" })
	if batchSet && *batch < 1 {
		// Refused before a campaign round is proposed and recorded.
		return fmt.Errorf("%w: --batch %d: want at least 1 suggestion", ErrUsage, *batch)
	}
	if *campaignDir != "" {
		if perDrug.set {
			return fmt.Errorf("%w: --max-per-drug is set when a campaign starts (deup campaign init --max-per-drug)", ErrUsage)
		}
		return suggestFromCampaign(ctx, env, *campaignDir, *batch, *acqName, *out)
	}
	if *batch == 0 {
		*batch = 30
	}
	if *acqName == "" {
		*acqName = "ucb"
	}
	return suggestFromModel(ctx, env, *modelPath, *screenDir, *cellLine, *score, *batch, *acqName, perDrug.resolve(*batch), *seed, *out)
}

func suggestFromCampaign(ctx context.Context, env Env, dir string, batch int, acqName, out string) error {
	l, c, err := openCampaign(dir)
	if err != nil {
		return err
	}
	defer l.Close()
	rd := c.Open()
	if rd == nil {
		s, _, err := campaignParts(c)
		if err != nil {
			return err
		}
		acq, _ := active.ParseAcquisition(c.Config.Acquisition)
		if acqName != "" {
			if acq, err = active.ParseAcquisition(acqName); err != nil {
				return fmt.Errorf("%w: %v", ErrUsage, err)
			}
		}
		if batch == 0 {
			batch = c.Config.Batch
		}
		prop, err := c.ProposeWith(ctx, s, acq, batch)
		if err != nil {
			return err
		}
		rd = prop.Round
		fmt.Fprintf(env.Stdout, "round %d proposed by %s and recorded in the ledger\n", rd.Index, rd.ModelVersion)
	} else if batch != 0 || acqName != "" {
		return fmt.Errorf("%w: round %d is already proposed (%d suggestions); export it without --batch/--acquisition, or import its results first", ErrUsage, rd.Index, len(rd.Suggestions))
	}
	var rows []suggest.Suggestion
	for _, s := range rd.Suggestions {
		rows = append(rows, suggest.Suggestion{Rank: s.Rank, DrugA: c.Config.Drugs[s.Pair.A], DrugB: c.Config.Drugs[s.Pair.B],
			CellLine: c.Config.CellLines[s.Pair.CellLine], Mu: s.Mu, SigmaTotal: s.SigmaTotal, SigmaEpistemic: s.SigmaEpistemic,
			SigmaAleatoric: s.SigmaAleatoric, Acquisition: s.Score, Reason: s.Reason})
	}
	if err := suggest.WriteFile(out, rows); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %d suggestions of round %d to %s (%d already measured; %s, set at campaign init)\n", len(rows), rd.Index, out, len(rd.Measured), active.MaxPerDrugNote(c.Config.MaxPerDrug))
	return nil
}

func suggestFromModel(ctx context.Context, env Env, modelPath, screenDir, cellLine, score string, batch int, acqName string, perDrug int, seed uint64, out string) error {
	acq, err := active.ParseAcquisition(acqName)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	tm, err := openModel(modelPath)
	if err != nil {
		return err
	}
	m := tm.Method
	sc, sigDir, err := modelScreen(env, "suggest", modelPath, tm, screenDir)
	if err != nil {
		return err
	}
	if tm.Meta != nil && screenDir == "" {
		// The model's own screen: its cell line and score by default.
		if cellLine == "" {
			cellLine = tm.Meta.Screen.CellLine
		}
		if score == "" {
			score = tm.Meta.Screen.Score
		}
	}
	si, err := campaignScoreIndex(sc, score)
	if err != nil {
		return err
	}
	cl, err := cellLineOf(sc, cellLine)
	if err != nil {
		return err
	}
	table, _, err := active.ScreenTable(sc, si, cl)
	if err != nil {
		return err
	}
	f, kept, err := modelFeatures(env, "suggest", "and are not suggested", tm, sc.Drugs, sigDir)
	if err != nil {
		return err
	}
	cellIdx := 0
	for i, c := range sc.CellLines {
		if c == cl {
			cellIdx = i
		}
	}
	var cands []active.Pair
	var mp []model.Pair
	for ra := 0; ra < len(kept); ra++ {
		for rb := ra + 1; rb < len(kept); rb++ {
			p := active.NewPair(kept[ra], kept[rb], cellIdx)
			if _, measured := table[p]; measured {
				continue
			}
			cands = append(cands, p)
			mp = append(mp, model.Pair{A: ra, B: rb})
		}
	}
	if len(cands) == 0 {
		return fmt.Errorf("every pair of the screen's drugs on %s is measured: nothing to suggest", cl)
	}
	preds, err := m.Predict(f, mp)
	if err != nil {
		return err
	}
	ap := make([]active.Prediction, len(preds))
	for i, p := range preds {
		ap[i] = active.Prediction{Mu: p.Mu, SigmaTotal: p.SigmaTotal, SigmaEpistemic: p.SigmaEpistemic, SigmaAleatoric: p.SigmaAleatoric}
	}
	best := math.Inf(-1)
	for _, y := range table {
		best = math.Max(best, y)
	}
	scores, err := acq.Scores(nil, ap, best, rand.New(rand.NewPCG(seed, 0x73756767)))
	if err != nil {
		return err
	}
	pick := active.SelectBatch(cands, scores, batch, perDrug)
	var rows []suggest.Suggestion
	for rank, i := range pick {
		p := cands[i]
		reason := acq.Reason(ap[i], scores[i], rank+1, len(cands))
		if perDrug > 0 {
			reason += fmt.Sprintf("; at most %d per drug", perDrug)
		}
		rows = append(rows, suggest.Suggestion{Rank: rank + 1, DrugA: sc.Drugs[p.A], DrugB: sc.Drugs[p.B], CellLine: cl,
			Mu: ap[i].Mu, SigmaTotal: ap[i].SigmaTotal, SigmaEpistemic: ap[i].SigmaEpistemic, SigmaAleatoric: ap[i].SigmaAleatoric,
			Acquisition: scores[i], Reason: reason})
	}
	if err := suggest.WriteFile(out, rows); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %d suggestions (%s by %s, from %d unmeasured pairs on %s; %s) to %s\n%s\n", len(rows), acq, m.Name(), len(cands), cl, active.MaxPerDrugNote(perDrug), out, m.AleatoricNote())
	return nil
}
