package surrogate

import (
	"encoding/json"
	"testing"

	"github.com/deup-screening/deup/active"
)

// TestLegacyNameDecodes: a campaign file that names the Bayesian-ridge DEUP
// surrogate by its old name (LegacyRidgeDEUP) decodes, in package active,
// to RidgeDEUP, a name New accepts: active spells both names itself, and
// this test keeps them in step with the surrogates'.
func TestLegacyNameDecodes(t *testing.T) {
	var cfg active.Config
	if err := json.Unmarshal([]byte(`{"model": "`+LegacyRidgeDEUP+`", "drugs": []}`), &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Model != RidgeDEUP {
		t.Errorf("model %q decodes as %q, want %q", LegacyRidgeDEUP, cfg.Model, RidgeDEUP)
	}
	if err := CheckName(cfg.Model); err != nil {
		t.Error(err)
	}
}
