package tui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// Campaign is what the UI needs to run one round of an active-learning
// campaign (train on everything measured so far, then suggest the next
// batch). deup tui --campaign DIR sets Options.Campaign to an adapter over
// package active's campaigns; without it the R key says no campaign is open.
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
	// Suggested is the number of pairs the round suggested.
	Suggested int
	Source    Source
	// Marks, when not nil, holds the Row.Index of each suggestion (in
	// Source, or in the current source when Source is nil): the UI marks
	// them for export, with the suggestion's reason, replacing the marks.
	Marks []int
	// Reasons holds why each of Marks was suggested (Reasons[i] for
	// Marks[i]); a missing or empty one reads "campaign round".
	Reasons []string
	// Note, when set, is the status line instead of "round done: …" (e.g.
	// that a round is already waiting for results and nothing was run).
	Note string
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
		m.status = "no campaign open (run deup tui --campaign DIR to run rounds)"
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
		res := msg.res
		m.status = fmt.Sprintf("round done: %d suggestions", res.Suggested)
		if res.Source != nil {
			m.src, m.info = res.Source, res.Source.Info()
			// The open detail and drug views show rows of the old source.
			m.marks, m.nearFor, m.drugLoaded, m.drugRows = nil, -1, false, nil
			m.mode, m.stack = modeTable, nil
		}
		if res.Marks != nil {
			m.marks = nil
			for i, row := range res.Marks {
				reason := "campaign round"
				if i < len(res.Reasons) && res.Reasons[i] != "" {
					reason = res.Reasons[i]
				}
				if row >= 0 && row < m.src.Len() && !m.marked(row) {
					m.marks = append(m.marks, mark{row: row, reason: reason})
				}
			}
			m.batchTbl = m.batchTbl.MoveTo(0, len(m.marks))
			m.unsaved = len(m.marks) > 0
			m.status += fmt.Sprintf(", %d marked (B: batch, e: export)", len(m.marks))
		}
		if res.Note != "" {
			m.status = res.Note
		}
		if res.Source != nil {
			return m.requery()
		}
	}
	return m, nil
}

// progressBar renders done/total as a bar of width cells.
func progressBar(done, total, width int) string {
	if total <= 0 || width <= 0 {
		return ""
	}
	done = min(max(done, 0), total)
	full := done * width / total
	return "[" + strings.Repeat("█", full) + strings.Repeat("░", width-full) + "]"
}
