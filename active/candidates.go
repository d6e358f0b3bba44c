package active

import "io"

// ReadCandidates reads a live campaign's candidate file (r, named name in
// messages) for a campaign on cellLines (indices into cfg.CellLines): its
// rows are parsed against those lines only (ParseCandidates) and returned
// as pairs on the campaign's line indices (CandidatePairs, which refuses a
// pair listed twice or measured in measured).
func ReadCandidates(r io.Reader, name string, cfg Config, cellLines []int, measured TableOracle) ([]PairOnLine, error) {
	cc := cfg
	cc.CellLines = nil
	for _, i := range cellLines {
		cc.CellLines = append(cc.CellLines, cfg.CellLines[i])
	}
	rs, err := ParseCandidates(r, name, cc)
	if err != nil {
		return nil, err
	}
	return CandidatePairs(rs, name, cellLines, measured)
}
