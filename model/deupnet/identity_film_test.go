package deupnet

import (
	"context"
	"fmt"
	"testing"
)

// TestIdentityFiLMSaveLoad: a DEUP on three lines with identity vectors
// (model.Config.Identity, dropped at 0.5) and FiLM (LineFiLM) trains,
// and its model file loads and predicts exactly as trained.
func TestIdentityFiLMSaveLoad(t *testing.T) {
	tp := linesToy(3)
	for i := range tp.d.Features.NumDrugs() {
		tp.d.Features.IDs = append(tp.d.Features.IDs, fmt.Sprintf("d%d", i))
	}
	cfg := toyConfig(2)
	cfg.MaxEpochs = 3
	cfg.Identity, cfg.IdentityDrop, cfg.LineFiLM = true, 0.5, true
	m := New(cfg)
	if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
		t.Fatal(err)
	}
	got := saveLoadSame(t, m, tp).(*DEUP)
	if c := got.cfg.Config; !c.Identity || c.IdentityDrop != 0.5 || !c.LineFiLM || len(c.IdentityIDs()) != tp.d.Features.NumDrugs() {
		t.Errorf("loaded config: identity %v drop %v film %v, %d ids", c.Identity, c.IdentityDrop, c.LineFiLM, len(c.IdentityIDs()))
	}
}
