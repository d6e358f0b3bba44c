package tui

import (
	"context"
	"errors"
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// Run runs the UI over src on a terminal until it quits: in is its
// keyboard (nil: the process's standard input), out its screen (the
// alternate screen); mouse turns on wheel scrolling and click selection.
// o.Renderer is set to one for out. When ctx ends, Run returns ctx.Err().
func Run(ctx context.Context, src Source, o Options, in io.Reader, out io.Writer, mouse bool) error {
	r := lipgloss.NewRenderer(out)
	// Ask the terminal for its background colour now: once the program
	// reads the keyboard, the terminal's answer would arrive as keys.
	r.HasDarkBackground()
	o.Renderer = r
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithOutput(out), tea.WithAltScreen()}
	if mouse {
		opts = append(opts, tea.WithMouseCellMotion())
	}
	if in != nil {
		opts = append(opts, tea.WithInput(in))
	}
	if _, err := tea.NewProgram(New(src, o), opts...).Run(); err != nil {
		if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	return nil
}
