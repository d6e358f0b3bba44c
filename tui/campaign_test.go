package tui_test

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/deup-screening/deup/tui"
)

// pausedCampaign reports one epoch, waits for release, then returns a
// round over a fresh fixture table with three unmeasured PC-3 pairs marked.
type pausedCampaign struct {
	t       *testing.T
	release chan struct{}
}

func (c pausedCampaign) Round(ctx context.Context, progress func(tui.RoundProgress)) (tui.RoundResult, error) {
	progress(tui.RoundProgress{Stage: "train (round 2, 130 pairs)", Done: 37, Total: 100, Detail: "network 1, epoch 37/100, val RMSE 12.3"})
	<-c.release
	tab := fixture(c.t)
	var res tui.RoundResult
	res.Source = tab
	for i := 0; i < tab.Len() && len(res.Marks) < 3; i++ {
		if r := tab.Row(i); !r.IsMeasured() && r.CellLine == 0 {
			res.Marks = append(res.Marks, r.Index)
			res.Suggested++
			res.Reasons = append(res.Reasons, "ucb:2 rank "+string(rune('0'+len(res.Marks)))+" of 47")
		}
	}
	return res, nil
}

// TestRoundGoldenViews: the table while a round runs (progress bar, the UI
// still answering keys) and after it (suggestions marked, their reasons in
// the batch view).
func TestRoundGoldenViews(t *testing.T) {
	c := pausedCampaign{t: t, release: make(chan struct{})}
	var m tea.Model = tui.New(fixture(t), tui.Options{Renderer: asciiRenderer(), Campaign: c})
	m = send(t, m, m.(tui.Model).Init()())
	m, cmd := m.Update(keys("R")[0])
	m, cmd = m.Update(cmd())   // started: waits on the round's channel
	m, wait := m.Update(cmd()) // the epoch report; wait reads the next message
	// Keys still work while the round runs (the wait is a pending Cmd).
	m = send(t, m, keys("down")...)
	v := m.View()
	checkFrame(t, v, 80, 24)
	golden(t, "round-running", v)
	if !strings.Contains(v, "[███████░░░░░░░░░░░░░] 37/100") {
		t.Errorf("no progress bar in the running view:\n%s", v)
	}
	m, cmd = m.Update(keys("R")[0])
	if cmd != nil || !strings.Contains(m.View(), "round: train") {
		t.Fatal("a second R while the round runs must not start another")
	}
	close(c.release)
	m = send(t, m, wait())
	v = m.View()
	checkFrame(t, v, 80, 24)
	golden(t, "round-done", v)
	if !strings.Contains(v, "round done: 3 suggestions, 3 marked") {
		t.Errorf("status after the round:\n%s", v)
	}
	got := m.(tui.Model).Batch()
	if len(got) != 3 || got[0].Reason != "ucb:2 rank 1 of 47" {
		t.Fatalf("batch after the round: %+v", got)
	}
	m = send(t, m, keys("B")...)
	golden(t, "round-batch", m.View())
}
