package cli

import (
	"errors"
	"fmt"
	"testing"

	"github.com/deup-screening/deup/active"
	"github.com/deup-screening/deup/active/surrogate"
)

// TestActiveHint: the campaign packages' errors say what is wrong, and
// hint adds what to type, giving the messages the commands always
// printed, byte for byte; other errors pass unchanged.
func TestActiveHint(t *testing.T) {
	other := errors.New("something else")
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"open round", fmt.Errorf("x: %w", &active.OpenRoundError{Round: 2, Missing: 4}), "x: active: round 2 is waiting for 4 results: import them with 'deup campaign import-results'"},
		{"not empty", active.ErrNotEmpty, "active: the ledger already holds a campaign (use resume)"},
		{"no campaign", active.ErrNoCampaign, "active: empty ledger: no campaign (use init)"},
		{"structures", &surrogate.StructureError{Err: errors.New("drug 3 has no SMILES")}, "active: morgan features: drug 3 has no SMILES (use --features identity for drugs without structures)"},
		{"other", other, "something else"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := hint(c.err)
			if got.Error() != c.want {
				t.Errorf("hint = %q, want %q", got, c.want)
			}
			if !errors.Is(got, c.err) {
				t.Errorf("hint(%v) does not wrap it", c.err)
			}
		})
	}
	if hint(nil) != nil {
		t.Error("hint(nil) != nil")
	}
}
