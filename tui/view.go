package tui

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/deup-screening/deup/tui/table"
	"github.com/deup-screening/deup/tui/textplot"
)

type styles struct {
	title, dim, marked, err lipgloss.Style
	table                   table.Styles
}

func newStyles(r *lipgloss.Renderer) styles {
	accent := lipgloss.AdaptiveColor{Light: "#5A3FC0", Dark: "#B8A6FF"}
	return styles{
		title:  r.NewStyle().Bold(true).Foreground(accent),
		dim:    r.NewStyle().Faint(true),
		marked: r.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#A05A00", Dark: "#FFB454"}),
		err:    r.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#B00020", Dark: "#FF6B6B"}),
		table: table.Styles{
			Header:   r.NewStyle().Bold(true).Underline(true),
			Selected: r.NewStyle().Reverse(true),
			Row:      r.NewStyle(),
		},
	}
}

// View renders the current screen; every line fits the terminal width and
// there are exactly as many lines as the terminal is high.
func (m Model) View() string {
	var body string
	switch m.mode {
	case modeDetail:
		body = m.viewDetail()
	case modeDrug:
		body = m.viewDrug()
	case modeBatch, modeExport:
		body = m.viewBatch()
	case modeExported:
		body = m.viewExported()
	case modeHelp:
		body = m.viewHelp()
	case modeQuit:
		body = m.viewQuit()
	default:
		body = m.viewTable()
	}
	return m.frame(body)
}

// frame cuts or pads body to the terminal size.
func (m Model) frame(body string) string {
	lines := strings.Split(body, "\n")
	if len(lines) > m.height {
		lines = lines[:m.height]
	}
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > m.width {
			lines[i] = ansi.Truncate(l, m.width, "…")
		}
	}
	return strings.Join(lines, "\n")
}

// num formats a table number in at most w cells; NaN is "—".
func num(x float64, w int) string {
	if math.IsNaN(x) {
		return "—"
	}
	for _, prec := range []int{2, 1, 0} {
		if s := strconv.FormatFloat(x, 'f', prec, 64); len(s) <= w {
			return s
		}
	}
	return strconv.FormatFloat(x, 'g', 2, 64)
}

// count formats n with thousands separators.
func count(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && c != '-' && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// columns lays out the pairs table for the terminal width: numeric columns
// have fixed widths, the two drug names share what is left, and the least
// important columns go first on narrow terminals.
func (m Model) columns() ([]table.Column, []Column) {
	const numW = 7
	shown := []Column{ColDrugA, ColDrugB, ColCellLine, ColMeasured, ColMu, ColSigmaTotal, ColSigmaEpistemic, ColSigmaAleatoric, ColAcquisition}
	drop := []Column{ColSigmaAleatoric, ColSigmaTotal, ColMeasured, ColCellLine}
	cellW := 6
	for _, c := range m.info.CellLines {
		cellW = max(cellW, min(ansi.StringWidth(c), 10))
	}
	if m.q.Sort == ColCellLine {
		cellW = max(cellW, 7) // room for the sort arrow: "3 cell↑"
	}
	for {
		fixed := 2 // marker and cursor column
		for _, c := range shown {
			switch c {
			case ColDrugA, ColDrugB:
			case ColCellLine:
				fixed += cellW + 1
			case ColMeasured:
				fixed += numW + 2
			default:
				fixed += numW + 1
			}
		}
		nameW := (m.width - fixed - 2) / 2
		if nameW >= 10 || len(drop) == 0 {
			nameW = max(nameW, 4)
			cols := []table.Column{{Title: "", Width: 2}}
			for _, c := range shown {
				title := fmt.Sprintf("%d %s", int(c)+1, c)
				if c == m.q.Sort {
					title += map[bool]string{true: "↓", false: "↑"}[m.q.Desc]
				}
				tc := table.Column{Title: title, Width: numW, Right: true}
				switch c {
				case ColDrugA, ColDrugB:
					tc.Width, tc.Right = min(nameW, 30), false
				case ColCellLine:
					tc.Width, tc.Right = cellW, false
				case ColMeasured:
					tc.Width = numW + 1
				}
				if tc.Right && ansi.StringWidth(title) > tc.Width {
					tc.Title = fmt.Sprintf("%d%s", int(c)+1, strings.TrimPrefix(title, fmt.Sprintf("%d ", int(c)+1)))
				}
				cols = append(cols, tc)
			}
			return cols, shown
		}
		shown = remove(shown, drop[0])
		drop = drop[1:]
	}
}

func remove(cs []Column, c Column) []Column {
	out := make([]Column, 0, len(cs))
	for _, x := range cs {
		if x != c {
			out = append(out, x)
		}
	}
	return out
}

func (m Model) cells(r Row, shown []Column, cursor bool) []string {
	mk := " "
	if m.marked(r.Index) {
		mk = "*"
	}
	cur := " "
	if cursor {
		cur = ">"
	}
	out := []string{cur + mk}
	for _, c := range shown {
		var s string
		switch c {
		case ColDrugA:
			s = m.drugName(r.A)
		case ColDrugB:
			s = m.drugName(r.B)
		case ColCellLine:
			s = m.info.CellLines[r.CellLine]
		case ColMeasured:
			s = num(r.Measured, 8)
			if r.IsMeasured() && math.IsNaN(r.Measured) {
				s = "n/a"
			}
		case ColMu:
			s = num(r.Mu, 7)
		case ColSigmaTotal:
			s = num(r.SigmaTotal, 7)
		case ColSigmaEpistemic:
			s = num(r.SigmaEpistemic, 7)
		case ColSigmaAleatoric:
			s = num(r.SigmaAleatoric, 7)
		case ColAcquisition:
			s = num(r.Acquisition, 7)
		}
		out = append(out, s)
	}
	return out
}

func (m Model) header(right string) string {
	left := "deup · " + m.info.Name
	gap := m.width - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 1 {
		return m.st.title.Render(left) + " " + right
	}
	return m.st.title.Render(left) + strings.Repeat(" ", gap) + right
}

// footer is the last two lines of a view: the status line and, dimmed,
// the keys of the view.
func (m Model) footer(keys string) string {
	return m.statusLine() + "\n" + m.st.dim.Render(keys)
}

func (m Model) statusLine() string {
	switch {
	case m.round != nil:
		p := m.round
		s := "round: " + p.Stage
		if p.Total > 0 {
			s += fmt.Sprintf(" %s %d/%d", progressBar(p.Done, p.Total, 20), p.Done, p.Total)
		}
		if p.Detail != "" {
			s += " · " + p.Detail
		}
		return s
	case strings.HasPrefix(m.status, "query failed") || strings.HasSuffix(m.status, "failed"):
		return m.st.err.Render(m.status)
	}
	return m.status
}

func (m Model) viewTable() string {
	var b strings.Builder
	n := m.n()
	right := fmt.Sprintf("%s of %s pairs", count(n), count(m.src.Len()))
	if m.loading {
		right = "working… " + right
	}
	b.WriteString(m.header(right))
	b.WriteByte('\n')
	switch {
	case m.mode == modeSearch:
		b.WriteString(m.search.View())
	case m.mode == modeLine:
		b.WriteString(m.lineIn.View() + "   (enter: keep its pairs; empty: every line)")
	default:
		f := m.filters()
		if f == "" {
			f = "none"
		}
		line := "filter: " + f
		if len(m.marks) > 0 {
			line += " · " + m.st.marked.Render(fmt.Sprintf("batch: %d marked", len(m.marks)))
		}
		b.WriteString(line)
	}
	b.WriteByte('\n')
	cols, shown := m.columns()
	cursor := m.tbl.Cursor
	b.WriteString(m.tbl.View(cols, n, func(i int) []string { return m.cells(m.rows.Row(i), shown, i == cursor) }, m.st.table))
	b.WriteByte('\n')
	if n == 0 && !m.loading && m.rows != nil && m.status == "" && m.round == nil {
		b.WriteString("no pair matches the filter (x clears it)")
	} else {
		b.WriteString(m.statusLine())
	}
	b.WriteByte('\n')
	b.WriteString(m.st.dim.Render("? help · 1–9 sort · / search · c cell · m measured · space mark · enter detail · B batch · e export · q quit"))
	return b.String()
}

func (m Model) drugLines(d int, width int) []string {
	dr := m.info.Drugs[d]
	id := "id " + dr.ID
	if dr.PubChemCID != 0 {
		id += " · PubChem CID " + strconv.FormatInt(dr.PubChemCID, 10)
	}
	smiles := dr.SMILES
	if smiles == "" {
		smiles = "(no SMILES)"
	}
	return []string{
		m.drugName(d) + " · " + id,
		"   " + ansi.Truncate(smiles, max(width-3, 1), "…"),
	}
}

func (m Model) viewDetail() string {
	r := m.detail
	w := m.width
	var l []string
	state := "not measured"
	if r.IsMeasured() {
		state = fmt.Sprintf("measured (%d replicate%s)", r.Replicates, map[bool]string{true: "", false: "s"}[r.Replicates == 1])
	}
	if m.marked(r.Index) {
		state += " · " + m.st.marked.Render("in batch")
	}
	l = append(l, m.header("pair detail"))
	l = append(l, "cell line "+m.info.CellLines[r.CellLine]+" · "+state)
	da, db := m.drugLines(r.A, w), m.drugLines(r.B, w)
	l = append(l, "A  "+da[0], da[1], "B  "+db[0], db[1])
	score := m.info.ScoreName
	if score == "" {
		score = "score"
	}
	if r.IsMeasured() {
		s := "measured " + score + " " + textplot.Number(r.Measured)
		if !math.IsNaN(r.MeasuredSD) {
			s += " (replicate sd " + textplot.Number(r.MeasuredSD) + ")"
		}
		l = append(l, s)
	} else {
		l = append(l, "measured "+score+" —")
	}
	l = append(l, fmt.Sprintf("predicted μ %s ± σ_total %s · acquisition %s (%s)", num(r.Mu, 9), num(r.SigmaTotal, 9), num(r.Acquisition, 9), m.info.Acquisition))
	l = append(l, fmt.Sprintf("          σ_epistemic %s · σ_aleatoric %s", num(r.SigmaEpistemic, 9), num(r.SigmaAleatoric, 9)))
	if n := m.info.SigmaNote; n != "" {
		l = append(l, ansi.Truncate("          "+n, max(w, 1), "…"))
	}
	ivLo, ivHi, hasIv := m.opt.Interval.bounds(r)
	ivName := ""
	if iv := m.opt.Interval; iv != nil {
		ivName = strconv.FormatFloat(100*iv.Coverage, 'g', 4, 64) + "%"
		s := "—"
		if hasIv {
			s = "[" + num(ivLo, 9) + ", " + num(ivHi, 9) + "]"
		}
		l = append(l, ansi.Truncate(fmt.Sprintf("%s interval %s · %s", ivName, s, iv.Calibration), max(w, 1), "…"))
	}
	l = append(l, "")

	// the plot: the screen's score distribution, and μ ± σ_total and ± σ_epistemic under it
	pw := max(w-12, 10)
	sc := m.info.Scores
	lo, hi := 0.0, 1.0
	if len(sc) > 0 {
		lo, hi = sc[0], sc[len(sc)-1]
	}
	ext := []float64{r.Mu - r.SigmaTotal, r.Mu + r.SigmaTotal, r.Measured}
	if hasIv {
		ext = append(ext, ivLo, ivHi)
	}
	for _, v := range ext {
		if !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	l = append(l, fmt.Sprintf("%s of the %s measured pairs (top), prediction (below):", score, count(len(sc))))
	l = append(l, fmt.Sprintf("%-11s%s", "measured", textplot.Histogram(sc, lo, hi, pw)))
	l = append(l, fmt.Sprintf("%-11s%s", "μ±σ_total", textplot.Interval(r.Mu, r.SigmaTotal, lo, hi, pw)))
	l = append(l, fmt.Sprintf("%-11s%s", "μ±σ_epi", textplot.Interval(r.Mu, r.SigmaEpistemic, lo, hi, pw)))
	if hasIv {
		l = append(l, fmt.Sprintf("%-11s%s", ivName+" int.", textplot.Interval((ivLo+ivHi)/2, (ivHi-ivLo)/2, lo, hi, pw)))
	}
	if r.IsMeasured() {
		l = append(l, fmt.Sprintf("%-11s%s", "this pair", textplot.Interval(r.Measured, r.MeasuredSD, lo, hi, pw)))
	}
	l = append(l, fmt.Sprintf("%-11s%s", "", textplot.Axis(lo, hi, pw)))
	l = append(l, "")
	l = append(l, "nearest measured pairs ("+m.info.Similarity+"):")
	switch {
	case m.nearFor != r.Index || (m.near == nil && m.status == ""):
		l = append(l, "  working…")
	case len(m.near) == 0:
		l = append(l, "  none similar to this pair")
	}
	nw := max((w-43)/2, 6)
	for _, x := range m.near {
		l = append(l, fmt.Sprintf("  %s + %s %s measured %s  μ %s",
			table.Fit(m.drugName(x.A), nw, false), table.Fit(m.drugName(x.B), nw, false),
			table.Fit(m.info.CellLines[x.CellLine], 8, false), table.Fit(num(x.Measured, 7), 7, true), table.Fit(num(x.Mu, 7), 7, true)))
	}
	if len(l) > m.height-2 { // a short terminal: the footer stays, the nearest pairs give way
		l = l[:max(m.height-2, 1)]
	}
	for len(l) < m.height-2 {
		l = append(l, "")
	}
	l = append(l, m.footer("esc back · ↑/↓ previous/next pair · a/b drug view · space mark · ? help"))
	return strings.Join(l, "\n")
}

func (m Model) viewDrug() string {
	var b strings.Builder
	n := 0
	if m.drugRows != nil {
		n = m.drugRows.Len()
	}
	cell := "all cell lines"
	if m.q.CellLine >= 0 {
		cell = m.info.CellLines[m.q.CellLine]
	}
	b.WriteString(m.header("drug view"))
	b.WriteByte('\n')
	if !m.drugLoaded {
		b.WriteString(m.drugName(m.drug) + ": working…")
		return b.String()
	}
	b.WriteString(fmt.Sprintf("%s vs %s partner pairs · %s · by μ, bars μ (█) ± σ_total (─)", m.drugName(m.drug), count(n), cell))
	b.WriteByte('\n')
	nameW := max(min(24, m.width/4), 6)
	barW := max(m.width-nameW-7-8-8-2-5, 10)
	axis := textplot.Axis(m.drugLo, m.drugHi, barW)
	cols := []table.Column{{Width: 2}, {Title: "partner", Width: nameW}, {Title: "cell", Width: 7}, {Title: "μ", Width: 7, Right: true}, {Title: "σ_total", Width: 7, Right: true}, {Title: axis, Width: barW}}
	cursor := m.drugTbl.Cursor
	b.WriteString(m.drugTbl.View(cols, n, func(i int) []string {
		r := m.drugRows.Row(i)
		p := r.A
		if p == m.drug {
			p = r.B
		}
		mk := " "
		if m.marked(r.Index) {
			mk = "*"
		}
		cur := " "
		if i == cursor {
			cur = ">"
		}
		mu := r.Mu
		if math.IsNaN(mu) {
			mu = r.Measured
		}
		return []string{cur + mk, m.drugName(p), m.info.CellLines[r.CellLine], num(r.Mu, 7), num(r.SigmaTotal, 7), textplot.Bar(mu, r.SigmaTotal, m.drugLo, m.drugHi, barW)}
	}, m.st.table))
	b.WriteByte('\n')
	b.WriteString(m.footer("esc back · enter detail · space mark · ? help"))
	return b.String()
}

func (m Model) viewBatch() string {
	var b strings.Builder
	b.WriteString(m.header("next batch"))
	b.WriteByte('\n')
	batch := m.Batch()
	drugs, cells := map[string]bool{}, map[string]bool{}
	var sumMu, sumEpi, sumAcq float64
	var nMu, nEpi, nAcq, measured int
	for i, s := range batch {
		drugs[s.DrugA.ID], drugs[s.DrugB.ID], cells[s.CellLine] = true, true, true
		add := func(sum *float64, n *int, v float64) {
			if !math.IsNaN(v) {
				*sum += v
				*n++
			}
		}
		add(&sumMu, &nMu, s.Mu)
		add(&sumEpi, &nEpi, s.SigmaEpistemic)
		add(&sumAcq, &nAcq, s.Acquisition)
		if m.src.Row(m.marks[i].row).IsMeasured() {
			measured++
		}
	}
	mean := func(sum float64, n int) string {
		if n == 0 {
			return "—"
		}
		return textplot.Number(sum / float64(n))
	}
	b.WriteString(fmt.Sprintf("%d pairs · %d drugs · %d cell line(s) · %d already measured", len(batch), len(drugs), len(cells), measured))
	b.WriteByte('\n')
	b.WriteString(fmt.Sprintf("mean μ %s · mean σ_epistemic %s · mean acquisition %s", mean(sumMu, nMu), mean(sumEpi, nEpi), mean(sumAcq, nAcq)))
	b.WriteByte('\n')
	nameW := max((m.width-4-4-7-7-7-7-6)/2, 6)
	cols := []table.Column{{Width: 2}, {Title: "#", Width: 3, Right: true}, {Title: "drug A", Width: nameW}, {Title: "drug B", Width: nameW}, {Title: "cell", Width: 7}, {Title: "μ", Width: 7, Right: true}, {Title: "σ_epi", Width: 7, Right: true}, {Title: "acq", Width: 7, Right: true}}
	cursor := m.batchTbl.Cursor
	b.WriteString(m.batchTbl.View(cols, len(batch), func(i int) []string {
		s := batch[i]
		cur := " "
		if i == cursor {
			cur = ">"
		}
		name := func(d string, id string) string {
			if d != "" {
				return d
			}
			return id
		}
		return []string{cur, strconv.Itoa(s.Rank), name(s.DrugA.Name, s.DrugA.ID), name(s.DrugB.Name, s.DrugB.ID), s.CellLine, num(s.Mu, 7), num(s.SigmaEpistemic, 7), num(s.Acquisition, 7)}
	}, m.st.table))
	b.WriteByte('\n')
	if m.mode == modeExport {
		b.WriteString(m.path.View() + "   (.csv, .parquet or .json)")
		b.WriteByte('\n')
		b.WriteString(m.footer("enter write · esc cancel"))
	} else {
		b.WriteByte('\n')
		b.WriteString(m.footer("e export · space/del unmark · esc back · ? help"))
	}
	return b.String()
}

func (m Model) viewExported() string {
	e := m.exported
	l := []string{
		m.header("export"),
		"",
		fmt.Sprintf("Exported %d pair%s to %s", e.n, map[bool]string{true: "", false: "s"}[e.n == 1], e.path),
		"",
		"columns: rank, drug_a_id, drug_a_name, drug_a_pubchem_cid, drug_a_smiles,",
		"         drug_b_id, drug_b_name, drug_b_pubchem_cid, drug_b_smiles, cell_line,",
		"         mu, sigma_total, sigma_epistemic, sigma_aleatoric, lower, upper,",
		"         acquisition, reason" + exportedNote(m.opt.Interval != nil),
		"",
		"The same format as deup suggest: read it with pandas, polars or DuckDB.",
		"",
		m.st.dim.Render("press any key to go back"),
	}
	return strings.Join(l, "\n")
}

// exportedNote says what lower and upper hold: the calibrated interval,
// or nothing without a calibration.
func exportedNote(interval bool) string {
	if interval {
		return " (lower, upper: the calibrated interval)"
	}
	return " (lower, upper empty: the model has no calibration)"
}

func (m Model) viewQuit() string {
	n := len(m.marks)
	l := []string{
		m.header("quit"),
		"",
		fmt.Sprintf("%d marked pair%s not exported.", n, map[bool]string{true: "", false: "s"}[n == 1]),
		"",
		"y or q  quit without exporting",
		"e       export the batch first",
		"",
		m.st.dim.Render("any other key goes back"),
	}
	return strings.Join(l, "\n")
}

func (m Model) viewHelp() string {
	// two columns: moving and viewing on the left, acting on the right
	var cols [2][]string
	groups := m.keys.FullHelp()
	for gi, group := range groups {
		c := 0
		if gi == len(groups)-1 {
			c = 1
		} else if gi > 0 {
			cols[0] = append(cols[0], "")
		}
		for _, k := range group {
			if k.Enabled() {
				h := k.Help()
				cols[c] = append(cols[c], fmt.Sprintf("%-10s %s", h.Key, h.Desc))
			}
		}
	}
	w0 := 0
	for _, l := range cols[0] {
		w0 = max(w0, ansi.StringWidth(l))
	}
	var b strings.Builder
	b.WriteString(m.header("help"))
	b.WriteString("\n\n")
	for i := range max(len(cols[0]), len(cols[1])) {
		left, right := "", ""
		if i < len(cols[0]) {
			left = cols[0][i]
		}
		if i < len(cols[1]) {
			right = cols[1][i]
		}
		b.WriteString(strings.TrimRight("  "+table.Fit(left, w0, false)+"   "+right, " "))
		b.WriteByte('\n')
	}
	b.WriteString("\n")
	b.WriteString("meas: the screen's mean " + m.info.ScoreName + " · σ_tot² = σ_epi² + σ_ale²\n")
	b.WriteString("acq: " + m.info.Acquisition + "\n")
	b.WriteString(m.st.dim.Render("any key closes this help"))
	return b.String()
}
