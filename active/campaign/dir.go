package campaign

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/ledger"
	"github.com/deup-screening/deup/active/surrogate"
	"github.com/deup-screening/deup/internal/atomicfile"
)

// Init starts the campaign of cfg in dir on the measured pairs t (Select):
// the campaign's score, drugs and cell lines are t's, its screen the
// absolute path of cfg.Screen ("" stays: the synthetic default). A
// retrospective campaign without a round count gets
// active.DefaultRetrospectiveRounds; a live campaign's candidates come from
// the CSV file candidates (active.ReadCandidates) when it is not "", else
// every unmeasured pair of t's lines; initN is the initial set of a
// retrospective campaign (active.Start). Nothing is left on disk when Init
// fails (Create); settings that do not fit t or the mode (CheckInit) are
// refused first.
func Init(dir string, cfg active.Config, t *Table, initN int, candidates string) (*active.State, error) {
	if err := CheckInit(cfg, t, initN, candidates); err != nil {
		return nil, err
	}
	sc := t.Screen
	cfg.Score, cfg.Drugs, cfg.CellLines = sc.ScoreNames[t.Score], sc.Drugs, sc.CellLines
	if cfg.Screen != "" {
		abs, err := filepath.Abs(cfg.Screen)
		if err != nil {
			return nil, err
		}
		cfg.Screen = abs
	}
	if cfg.Mode == active.Retrospective && cfg.Rounds == 0 {
		cfg.Rounds = active.DefaultRetrospectiveRounds
	}
	var cands []active.PairOnLine
	if candidates != "" {
		f, err := os.Open(candidates)
		if err != nil {
			return nil, err
		}
		cands, err = active.ReadCandidates(f, candidates, cfg, t.Lines, t.Oracle)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	initial, cands, err := active.Start(cfg, t.Oracle, initN, len(cfg.Drugs), t.Lines, cands)
	if err != nil {
		return nil, err
	}
	if err := CheckBatch(cfg.Batch, cfg.MaxPerLine, len(cands), len(t.Lines)); err != nil {
		return nil, err
	}
	if _, err := surrogate.NewEncoder(cfg); err != nil {
		return nil, err
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	return Create(dir, cfg, initial, cands)
}

// CheckInit refuses, as a *SettingError, the settings of Init that do not
// fit the table t or the campaign's mode: a cap per cell line
// (cfg.MaxPerLine) on fewer than two lines, a candidates file for a
// retrospective campaign (its candidates are the screen's pairs), an
// initial set size for a live one (it starts from every measured pair).
func CheckInit(cfg active.Config, t *Table, initN int, candidates string) error {
	if err := t.checkPerLine(cfg.MaxPerLine, "a campaign"); err != nil {
		return err
	}
	switch {
	case cfg.Mode == active.Retrospective && candidates != "":
		return &SettingError{Candidates, errors.New("a retrospective campaign's candidates are the screen's pairs")}
	case cfg.Mode == active.Live && initN != 0:
		return &SettingError{InitSize, errors.New("a live campaign starts from every measured pair")}
	}
	return nil
}

// Create creates the campaign directory dir with its ledger and
// campaign.json. On an error it removes what it created: a refused init
// leaves nothing on disk (a directory that existed before is kept, emptied
// of the ledger it did not hold).
func Create(dir string, cfg active.Config, initial []active.Measurement, cands []active.PairOnLine) (c *active.State, err error) {
	_, statErr := os.Stat(dir)
	existed := statErr == nil
	ld := filepath.Join(dir, "ledger")
	defer func() {
		if err == nil {
			return
		}
		if existed {
			os.RemoveAll(ld)
			os.Remove(filepath.Join(dir, "campaign.json"))
		} else {
			os.RemoveAll(dir)
		}
	}()
	l, err := ledger.Open(ld)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	if c, err = active.Create(l, cfg, initial, cands); err != nil {
		return nil, err
	}
	if err := writeJSON(dir, cfg); err != nil {
		return nil, err
	}
	return c, nil
}

// InUseError is a directory that already holds a campaign (CheckFree).
type InUseError struct {
	Dir    string
	Events int // in its ledger
}

func (e *InUseError) Error() string {
	return fmt.Sprintf("%s already holds a campaign (%d events in its ledger)", e.Dir, e.Events)
}

// NotCampaignError is a directory Open finds no campaign in: it does not
// exist (Missing), or its ledger cannot be read (Ledger, the error without
// its path) or is not there (both zero). Campaigns are created by Init.
type NotCampaignError struct {
	Dir     string
	Missing bool
	Ledger  error
}

func (e *NotCampaignError) Error() string {
	switch {
	case e.Missing:
		return fmt.Sprintf("campaign directory %s does not exist", e.Dir)
	case e.Ledger != nil:
		return fmt.Sprintf("%s is not a campaign directory (its ledger: %v)", e.Dir, e.Ledger)
	}
	return fmt.Sprintf("%s is not a campaign directory (no ledger)", e.Dir)
}

// CheckFree refuses a directory whose ledger holds events (a ledger left
// empty by an init killed before its first event is not a campaign yet).
func CheckFree(dir string) error {
	ld := filepath.Join(dir, "ledger")
	if _, err := os.Stat(ld); err != nil {
		return nil
	}
	l, err := ledger.Open(ld)
	if err != nil {
		return err
	}
	n := len(l.Events())
	l.Close()
	if n > 0 {
		return &InUseError{Dir: dir, Events: n}
	}
	return nil
}

// Open opens the ledger of the campaign in dir and replays it; the caller
// closes the ledger. A campaign.json lost to a kill right after init's
// ledger event is written again.
func Open(dir string) (*ledger.Ledger, *active.State, error) {
	ld := filepath.Join(dir, "ledger")
	if _, err := os.Stat(ld); err != nil {
		if _, derr := os.Stat(dir); errors.Is(derr, fs.ErrNotExist) {
			return nil, nil, &NotCampaignError{Dir: dir, Missing: true}
		}
		if !errors.Is(err, fs.ErrNotExist) {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, nil, &NotCampaignError{Dir: dir, Ledger: err}
		}
		return nil, nil, &NotCampaignError{Dir: dir}
	}
	l, err := ledger.Open(ld)
	if err != nil {
		return nil, nil, err
	}
	c, err := active.Load(l)
	if err != nil {
		l.Close()
		return nil, nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "campaign.json")); errors.Is(err, fs.ErrNotExist) {
		if err := writeJSON(dir, c.Config); err != nil {
			l.Close()
			return nil, nil, err
		}
	}
	return l, c, nil
}

// writeJSON writes campaign.json, the human-readable copy of cfg (the
// ledger's init event is the source of truth).
func writeJSON(dir string, cfg active.Config) error {
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(dir, "campaign.json"), append(b, '\n'))
}
