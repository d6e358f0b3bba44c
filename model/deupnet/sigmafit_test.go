package deupnet

import (
	"context"
	"testing"
)

// TestDEUPSigmaLossLog: a DEUP fitted with SigmaLoss "log" has a
// positive scale other than 1, which a saved and loaded DEUP keeps; an
// unknown loss is refused.
func TestDEUPSigmaLossLog(t *testing.T) {
	tp := makeToy(12, 40, 64, 8, 0.3) // jointFitted's toy (model/sigmafit_test.go)
	dc := toyConfig(2)
	dc.MaxEpochs = 3
	dc.SigmaLoss = "log"
	m := New(dc)
	if err := m.Fit(context.Background(), tp.d, tp.split, nil); err != nil {
		t.Fatal(err)
	}
	if !(m.sigmaScale > 0) || m.sigmaScale == 1 {
		t.Errorf("scale %v after a log refit", m.sigmaScale)
	}
	saveLoadSame(t, m, tp)
	if bad := New(Config{Options: Options{SigmaLoss: "l1"}}); bad.Fit(context.Background(), tp.d, tp.split, nil) == nil {
		t.Error("sigma loss l1 accepted")
	}
}
