package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/deup-screening/deup/suggest"
)

// Campaign is what the UI needs to run one round of an active-learning
// campaign (train on everything measured so far, then suggest the next
// batch). The active-learning package implements it; until then no command
// sets Options.Campaign and the R key is disabled.
//
// Round may take minutes. It must report progress through progress (from
// any goroutine, never after it returns) and stop with ctx.Err() when ctx is
// cancelled.
type Campaign interface {
	Round(ctx context.Context, progress func(RoundProgress)) (RoundResult, error)
}

// RoundProgress is a progress report of a campaign round.
type RoundProgress struct {
	Stage       string // e.g. "train", "predict", "suggest"
	Done, Total int    // units of the stage; Total 0 when unknown
	Detail      string // e.g. "epoch 12, val RMSE 31.2"
}

// RoundResult is what a round produced: the suggested batch and the source
// of the retrained model's predictions (nil to keep the current one).
type RoundResult struct {
	Suggestions []suggest.Suggestion
	Source      Source
}

// The message flow of a round: startRound's Cmd starts Round in a goroutine
// and answers roundStartedMsg with the channel it reports on; Update then
// waits on the channel, one Cmd per message (RoundProgress …, then
// roundDoneMsg), so the UI stays live and Update never blocks.
type (
	roundStartedMsg struct{ ch <-chan tea.Msg }
	roundDoneMsg    struct {
		res RoundResult
		err error
	}
	roundProgressMsg struct {
		p  RoundProgress
		ch <-chan tea.Msg
	}
)

func (m Model) startRound() (Model, tea.Cmd) {
	if m.opt.Campaign == nil {
		m.status = "no campaign open (running a round needs deup tui --campaign, which comes with active learning)"
		return m, nil
	}
	if m.round != nil {
		m.status = "a round is already running"
		return m, nil
	}
	m.round = &RoundProgress{Stage: "starting"}
	c, ctx := m.opt.Campaign, m.opt.Context
	return m, func() tea.Msg {
		ch := make(chan tea.Msg, 64)
		go func() {
			res, err := c.Round(ctx, func(p RoundProgress) { ch <- p })
			ch <- roundDoneMsg{res: res, err: err}
			close(ch)
		}()
		return roundStartedMsg{ch: ch}
	}
}

func waitRound(ch <-chan tea.Msg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return nil
		}
		if p, isProgress := msg.(RoundProgress); isProgress {
			return roundProgressMsg{p: p, ch: ch}
		}
		return msg
	}
}

func (m Model) updateRound(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case roundStartedMsg:
		return m, waitRound(msg.ch)
	case roundProgressMsg:
		p := msg.p
		m.round = &p
		return m, waitRound(msg.ch)
	case roundDoneMsg:
		m.round = nil
		if msg.err != nil {
			m.status = "round failed: " + msg.err.Error()
			return m, nil
		}
		m.status = fmt.Sprintf("round done: %d suggestions", len(msg.res.Suggestions))
		if msg.res.Source != nil {
			m.src, m.info = msg.res.Source, msg.res.Source.Info()
			m.marks = nil
			return m.requery()
		}
	}
	return m, nil
}
