package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/model"
)

func TestEventDetail(t *testing.T) {
	tests := []struct {
		name string
		e    Event
		want string
	}{
		{"done", Event{Method: "deup", Seed: 3, Train: model.Progress{Done: true}}, "deup seed 3 done"},
		{"single network", Event{Method: "due", Seed: 1, Train: model.Progress{Members: 1, Epoch: 4, MaxEpochs: 50, ValRMSE: 12.345}}, "due seed 1 epoch 4/50 val-rmse 12.3"},
		{"ensemble member", Event{Method: "ensemble", Seed: 2, Train: model.Progress{Member: 1, Members: 5, Epoch: 7, MaxEpochs: 50, ValRMSE: 0.5}}, "ensemble seed 2 member 2/5 epoch 7/50 val-rmse 0.5"},
	}
	for _, tc := range tests {
		if got := tc.e.Detail(); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestResultWriteNotes(t *testing.T) {
	r := &Result{Rows: []Row{
		{Method: "deup", Note: "aleatoric: learned"},
		{Method: "due", Note: "aleatoric: none", Floored: []int{2, 0, 1}}, // 3 floored in all
	}}
	want := "  deup: aleatoric: learned\n  due: aleatoric: none\n" +
		"  due: 3 test predictions had sigma below 1e-06 × sd(y) and were scored at that floor\n"
	var b strings.Builder
	if err := r.WriteNotes(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}

func TestResultSaveJSON(t *testing.T) {
	r := &Result{Screen: "s", Rows: []Row{{Method: "deup"}}}
	dir := t.TempDir() + "/new"
	p, err := r.SaveJSON(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	if err := r.WriteJSON(&want); err != nil {
		t.Fatal(err)
	}
	if p != filepath.Join(dir, "results.json") || string(got) != want.String() {
		t.Errorf("SaveJSON wrote %s:\n%s\nwant %s with WriteJSON's\n%s", p, got, filepath.Join(dir, "results.json"), want.String())
	}
}
