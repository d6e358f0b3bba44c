package campaign

import (
	"errors"
	"fmt"
	"strings"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/surrogate"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
)

// Screens opens the screen a campaign runs on (its Config.Screen) for the
// rounds that need it.
type Screens struct {
	// Open opens a screen directory; "" is the synthetic default screen.
	Open func(dir string) (*drugcomb.Screen, error)
	// Label names a screen directory in messages.
	Label func(dir string) string
}

// Structured opens the screen in dir under the one structure rule
// (features.KeepStructured): a drug whose SMILES cannot be fingerprinted is
// left out with its pairs (left lists each, named, with the parser's
// message); a drug without any SMILES stays. The synthetic default is
// returned whole.
func (s Screens) Structured(dir string) (sc *drugcomb.Screen, left []string, err error) {
	if sc, err = s.Open(dir); err != nil || dir == "" {
		return sc, nil, err
	}
	sc, left = features.KeepStructured(sc)
	return sc, left, nil
}

// Oracle opens the screen of a retrospective campaign with cfg under the
// structure rule (a campaign started before the rule, which kept every
// drug, opens it whole) and returns its oracle (active.OracleFor).
func (s Screens) Oracle(cfg active.Config) (active.TableOracle, error) {
	sc, left, err := s.Structured(cfg.Screen)
	if err != nil {
		return nil, fmt.Errorf("opening the oracle screen: %w", err)
	}
	if len(left) > 0 && len(sc.Drugs) != len(cfg.Drugs) {
		if sc, err = s.Open(cfg.Screen); err != nil {
			return nil, fmt.Errorf("opening the oracle screen: %w", err)
		}
	}
	t, err := active.OracleFor(cfg, sc)
	if errors.Is(err, active.ErrScreenChanged) {
		return nil, fmt.Errorf("screen %s: %w", s.Label(cfg.Screen), err)
	}
	return t, err
}

// Parts builds the surrogate of c (surrogate.ForCampaign) and, for a retrospective
// campaign, its oracle; a live campaign's oracle is nil (the lab measures).
func (s Screens) Parts(c *active.State) (active.Surrogate, active.Oracle, error) {
	sur, err := surrogate.ForCampaign(c.Config)
	if err != nil {
		return nil, nil, err
	}
	if c.Config.Mode != active.Retrospective {
		return sur, nil, nil
	}
	table, err := s.Oracle(c.Config)
	if err != nil {
		return nil, nil, err
	}
	return sur, table, nil
}

// Same returns nil when the campaign with cfg runs on sc: the same drugs,
// in the same order, possibly followed by more (deup tui --drugs appends),
// and the same cell lines.
func (s Screens) Same(cfg active.Config, sc *drugcomb.Screen) error {
	if err := active.CheckScreen(cfg, sc, true, true); err != nil {
		return fmt.Errorf("%s: open it with the campaign's screen (%s)", strings.TrimPrefix(err.Error(), active.ErrScreenChanged.Error()+": "), s.Label(cfg.Screen))
	}
	return nil
}
