package tui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/deup-screening/deup/tui/table"
)

// keyMap holds every binding; the help screen lists them by group.
type keyMap struct {
	Move table.KeyMap

	Sort     key.Binding // 1–9
	Search   key.Binding
	Cell     key.Binding
	CellBack key.Binding
	Line     key.Binding
	Measured key.Binding
	Clear    key.Binding

	Detail key.Binding
	DrugA  key.Binding
	DrugB  key.Binding
	Mark   key.Binding
	Batch  key.Binding
	Export key.Binding
	Unmark key.Binding
	Round  key.Binding
	Back   key.Binding
	Help   key.Binding
	Quit   key.Binding
}

func defaultKeys() keyMap {
	return keyMap{
		Move:     table.DefaultKeyMap(),
		Sort:     key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1–9", "sort by column (twice: reverse)")),
		Search:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search drug names")),
		Cell:     key.NewBinding(key.WithKeys("c"), key.WithHelp("c/C", "next/previous cell line")),
		CellBack: key.NewBinding(key.WithKeys("C")),
		Line:     key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "choose a cell line by name")),
		Measured: key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "all/measured/unmeasured")),
		Clear:    key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "clear filters")),
		Detail:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "pair detail")),
		DrugA:    key.NewBinding(key.WithKeys("a"), key.WithHelp("a/b", "drug A/B view")),
		DrugB:    key.NewBinding(key.WithKeys("b")),
		Mark:     key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "mark/unmark, move down")),
		Batch:    key.NewBinding(key.WithKeys("B"), key.WithHelp("B", "batch summary")),
		Export:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export the batch")),
		Unmark:   key.NewBinding(key.WithKeys("delete", "backspace", " "), key.WithHelp("space/del", "unmark (batch view)")),
		Round:    key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "campaign round")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:     key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit (asks if unsaved)")),
	}
}

// FullHelp is the help screen, one column per group.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Move.Up, k.Move.Down, k.Move.PageUp, k.Move.PageDown, k.Move.Top, k.Move.Bottom},
		{k.Sort, k.Search, k.Cell, k.Line, k.Measured, k.Clear},
		{k.Detail, k.DrugA, k.Mark, k.Batch, k.Export, k.Unmark, k.Round, k.Back, k.Quit},
	}
}
