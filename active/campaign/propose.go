package campaign

import (
	"context"
	"fmt"

	"github.com/deup-screening/deup/active"
)

// Propose returns the round of c that deup suggest --campaign exports: the
// open round, or else a new one proposed and recorded in the ledger with
// the overrides of Campaign.AcquisitionWith (acq "" and explore < 0 keep
// the campaign's) and batch suggestions (0: the campaign's batch); proposed
// says which. Overrides given while a round is open, and an acquisition
// AcquisitionWith refuses, are a *SettingError.
func (s Screens) Propose(ctx context.Context, c *active.State, batch int, acq string, explore float64) (r *active.Round, proposed bool, err error) {
	if r := c.Open(); r != nil {
		if batch != 0 || acq != "" || explore >= 0 {
			return nil, false, &SettingError{Overrides, fmt.Errorf("round %d is already proposed (%d suggestions)", r.Index, len(r.Suggestions))}
		}
		return r, false, nil
	}
	sur, _, err := s.Parts(c)
	if err != nil {
		return nil, false, err
	}
	a, err := c.AcquisitionWith(acq, explore)
	if err != nil {
		return nil, false, &SettingError{Err: err}
	}
	if batch == 0 {
		batch = c.Config.Batch
	}
	prop, err := c.ProposeWith(ctx, sur, a, batch)
	if err != nil {
		return nil, false, err
	}
	return prop.Round, true, nil
}
