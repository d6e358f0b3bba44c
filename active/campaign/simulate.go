package campaign

import (
	"context"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/simreport"
	"github.com/deup-screening/deup/active/simulate"
	"github.com/deup-screening/deup/active/surrogate"
)

// SimConfig completes cfg for a simulation on t: Init 0 becomes
// active.DefaultInit of t's pairs; cfg.Features must encode t's screen. A
// cap per cell line (cfg.MaxPerLine) on fewer than two lines is a
// *SettingError.
func (t *Table) SimConfig(cfg simulate.Config) (simulate.Config, error) {
	if err := t.checkPerLine(cfg.MaxPerLine, "a simulation"); err != nil {
		return cfg, err
	}
	if cfg.Init == 0 {
		cfg.Init = active.DefaultInit(len(t.Oracle))
	}
	if err := CheckBatch(cfg.Batch, cfg.MaxPerLine, len(t.Oracle)-cfg.Init, len(t.Lines)); err != nil {
		return cfg, err
	}
	_, err := surrogate.NewEncoder(active.Config{Features: cfg.Features, Drugs: t.Screen.Drugs, CellLines: t.Screen.CellLines})
	return cfg, err
}

// Simulate runs the retrospective campaigns of cfg on t (simulate.Run,
// each finished round reported to each) and summarises them
// (simreport.Build) with t's cell lines and pairs; the caller adds the
// screen's name, its top pairs and the wall time.
func (t *Table) Simulate(ctx context.Context, cfg simulate.Config, each func(simulate.Progress)) (*simreport.Report, []simulate.Trace, error) {
	base := active.Config{Score: t.Screen.ScoreNames[t.Score], Drugs: t.Screen.Drugs, CellLines: t.Screen.CellLines}
	traces, err := simulate.Run(ctx, t.Oracle, base, cfg, each)
	if err != nil {
		return nil, nil, err
	}
	rep := simreport.Build(traces, cfg)
	rep.CellLine, rep.Pairs = t.Label, len(t.Oracle)
	return rep, traces, nil
}

// Run steps c until it is done, each round reported to each after it ran
// (a round left open by a crash is first measured: active.State.Step).
func Run(ctx context.Context, c *active.State, s active.Surrogate, oracle active.Oracle, each func(*active.Round)) error {
	for !c.Done() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := checkNext(c); err != nil {
			return err
		}
		if _, err := c.Step(ctx, s, oracle); err != nil {
			return err
		}
		each(c.Rounds()[len(c.Rounds())-1])
	}
	return nil
}
