// Package tui is the terminal UI of deup (bubbletea v1, bubbles, lipgloss):
// browse a screen's pairs with their measurements and predictions (μ,
// σ_total, σ_epistemic, σ_aleatoric, acquisition), sort and filter them,
// look at one pair (both drugs, μ ± σ against the screen's score
// distribution, the nearest measured pairs) or one drug against all its
// partners, mark pairs for the next batch and export it.
//
// Layers: the UI imports no model, campaign or file format. What it needs
// from above comes in Options as interfaces: Source (the rows), Exporter
// (writing a batch; deup tui passes one over package suggest, the files of
// `deup suggest`) and Campaign (running a round). Their adapters live in the
// command layer (cmd/deup/internal/cli), so the UI links no network code.
//
// Data: the UI reads rows through Source, an interface it defines and that
// tui/pairs implements in memory (column storage, a permutation per query).
// Only the visible rows are ever rendered; Row is called for them alone.
//
// Concurrency: Update and View are pure functions of the Model value (no
// package state, no I/O, no blocking). Queries, nearest-pair lookups,
// exports and campaign rounds run in tea.Cmds and answer with messages that
// carry what they answer (a sequence number, a row index), so an answer to
// a superseded request is dropped. Search keystrokes can be debounced
// (Options.Debounce) so typing a word runs one query.
//
// Campaign rounds: Options.Campaign (deup tui --campaign sets an adapter
// over package active/campaign, in cmd/deup/internal/cli) runs in a goroutine started by a Cmd
// and reports RoundProgress through a channel that Update drains one Cmd at
// a time, shown as a progress bar in the status line. Its RoundResult may
// replace the source (the round's predictions) and marks the suggestions
// (Marks), replacing the batch; without a campaign the R key explains that
// one is needed. One round runs at a time.
//
// Colours: styles come from a lipgloss.Renderer (Options.Renderer); with the
// Ascii profile (no colour support, NO_COLOR) the output is plain text and
// every state stays visible: ">" marks the cursor row, "*" marked pairs.
// Views always fill the terminal exactly (lines cut to its width).
package tui
