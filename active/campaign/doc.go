// Package campaign keeps an active-learning campaign (package active) in a
// directory: its ledger (package active/ledger), the source of truth, and
// campaign.json, a human-readable copy of its configuration. It starts a
// campaign (Screens.Table or Select, FromModel and FromModelFile, Init with
// CheckInit's refusals), opens one (Open; Screens.OpenParts with the
// surrogate and the oracle a round needs from the campaign's screen),
// decides and runs its rounds (Opened.Resumption, Opened.Step, Run),
// imports the lab's results (Import), reports it (Screens.Report),
// simulates campaigns on a measured screen (Table.Simulate), and converts a
// round to the rows of a suggestions file (Suggestions); the adapter that
// runs its rounds in deup tui lives in the command layer. Settings a
// screen or campaign refuses are *SettingError, which deup reports as usage
// errors.
package campaign
