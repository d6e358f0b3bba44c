// Package campaign keeps an active-learning campaign (package active) in a
// directory: its ledger (package active/ledger), the source of truth, and
// campaign.json, a human-readable copy of its configuration. It starts a
// campaign (Select, Init, FromModel), opens one (Open), builds the surrogate and the oracle a
// round needs from the campaign's screen (Screens), and runs rounds for
// deup tui (TUI, an implementation of tui.Campaign).
package campaign
