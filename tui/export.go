package tui

import "github.com/deup-screening/deup/drugcomb"

// Exporter writes the batch of marked pairs to a file. deup tui passes one
// that writes suggestion files (package suggest, the files of deup
// suggest); the UI itself knows no file format. Without one (a nil
// Options.Export), the export prompt opens but writes nothing and says so.
type Exporter interface {
	// Check reports whether Export can write a file named path, before
	// anything is written; its error's text is the status line.
	Check(path string) error
	// Export writes batch to path. It runs in a tea.Cmd, off the UI's
	// goroutine, and must not keep batch.
	Export(path string, batch []Pick) error
}

// Pick is one marked pair of the batch, as Batch returns it and an Exporter
// writes it: its rank in marking order (1 first), the pair, the row's
// prediction and why it was marked.
type Pick struct {
	Rank         int
	DrugA, DrugB drugcomb.Drug
	CellLine     string

	Mu, SigmaTotal, SigmaEpistemic, SigmaAleatoric float64
	// Interval is the calibrated prediction interval of the score
	// (Options.Interval); nil without a calibration.
	Interval    *Bounds
	Acquisition float64
	Reason      string
}

// Bounds is a prediction interval [Lower, Upper] of a score.
type Bounds struct {
	Lower, Upper float64
}
