package model

import (
	"math"
	"testing"
)

func TestProgressDetail(t *testing.T) {
	tests := []struct {
		name string
		p    Progress
		want string
	}{
		{"no out-of-sample loss", Progress{TrainLoss: 1.23456, OutLoss: math.NaN(), ValRMSE: 15.678, BestEpoch: 4}, "loss 1.235 val-rmse 15.7 best 4"},
		{"DEUP's out-of-sample loss", Progress{TrainLoss: 0.5, OutLoss: 2.25, ValRMSE: 0.125, BestEpoch: 9}, "loss 0.500 out 2.250 val-rmse 0.125 best 9"},
	}
	for _, tc := range tests {
		if got := tc.p.Detail(); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
