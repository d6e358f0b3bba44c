package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/surrogate"
	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
)

// activeHint ends an error of the campaign packages with what to type: the
// library says what is wrong (active.ErrNotEmpty, active.ErrNoCampaign,
// *active.OpenRoundError, *surrogate.StructureError), the command layer
// which command or flag mends it. Any other error is returned as it is.
func activeHint(err error) error {
	var open *active.OpenRoundError
	var structure *surrogate.StructureError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &open):
		return fmt.Errorf("%w: import them with 'deup campaign import-results'", err)
	case errors.Is(err, active.ErrNotEmpty):
		return fmt.Errorf("%w (use resume)", err)
	case errors.Is(err, active.ErrNoCampaign):
		return fmt.Errorf("%w (use init)", err)
	case errors.As(err, &structure):
		return fmt.Errorf("%w (use --features identity for drugs without structures)", err)
	}
	return err
}

// withActiveHints wraps the Run of every command of cmds and of their
// subcommands with activeHint, and returns cmds.
func withActiveHints(cmds []*cmdline.Command) []*cmdline.Command {
	for _, c := range cmds {
		if run := c.Run; run != nil {
			c.Run = func(ctx context.Context, env Env, args []string) error {
				return activeHint(run(ctx, env, args))
			}
		}
		withActiveHints(c.Subs)
	}
	return cmds
}
