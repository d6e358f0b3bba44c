package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/deup-screening/deup/internal/sandbox"
)

// sandboxed runs `deup ARGS` through env.Sandbox with an address-space cap
// of limit bytes and translates how the child ended: its own failures
// (already reported on stderr) keep their exit status, and running out of
// the cap becomes an error naming the file and the flag that raises it.
func sandboxed(ctx context.Context, env Env, args []string, limit int64, file, flagName string) error {
	err := env.Sandbox(ctx, args, limit)
	var ee *sandbox.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee):
		return exitError{ee.Code}
	case errors.Is(err, sandbox.ErrMemory):
		return fmt.Errorf("%s: reading it needs more memory than %s %d MiB allows (%v): a damaged file can declare sizes it does not have; if the file is sound, raise %s",
			file, flagName, limit>>20, err, flagName)
	default:
		return fmt.Errorf("%s: %w", file, err)
	}
}
