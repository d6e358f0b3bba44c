package doseresp

import (
	"slices"

	"github.com/deup-screening/deup/internal/kernels"
)

// Scored is a block with its scores (nil Result and non-nil Err for a block
// that could not be scored).
type Scored struct {
	Block  *Block
	Result *Result
	Err    error
}

// ScoreAll scores every block on all cores (blocks are independent; each
// worker takes the next block from a shared counter, so the result does not
// depend on the schedule) and returns them in input order, with the blocks
// that failed counted in rep (when not nil) under ReasonFit, and the
// fit statistics (the curve models, the synergies' fallbacks) added to it.
func ScoreAll(blocks []*Block, opt Options, rep *Report) []Scored {
	out := make([]Scored, len(blocks))
	kernels.ForChunks(len(blocks), 1, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			r, err := Score(blocks[i], opt)
			out[i] = Scored{Block: blocks[i], Result: r, Err: err}
		}
	})
	if rep == nil {
		return out
	}
	if rep.FitModels == nil {
		rep.FitModels = map[string]int{}
	}
	syn := opt.Synergies
	if syn == nil {
		syn = Synergies()
	}
	at := map[string]int{} // index in rep.Fallbacks by synergy name
	for _, m := range syn {
		if m.Fallback == (Fallback{}) {
			continue
		}
		k := slices.IndexFunc(rep.Fallbacks, func(c FallbackCount) bool { return c.Fallback == m.Fallback })
		if k < 0 {
			k = len(rep.Fallbacks)
			rep.Fallbacks = append(rep.Fallbacks, FallbackCount{Fallback: m.Fallback})
		}
		at[m.Name] = k
	}
	for _, s := range out {
		if s.Err != nil {
			rep.skip(ReasonFit, "block "+s.Block.ID, s.Err.Error())
			continue
		}
		rep.Blocks++
		rep.FitModels[s.Result.RowFit.Model.String()]++
		rep.FitModels[s.Result.ColFit.Model.String()]++
		for _, sf := range s.Result.Synergy {
			if k, ok := at[sf.Synergy.Name]; ok {
				rep.Fallbacks[k].Count += sf.Fallbacks
			}
		}
		for i := range s.Block.N {
			for _, n := range s.Block.N[i] {
				rep.Wells++
				if n > 1 {
					rep.Replicated++
				}
			}
		}
	}
	return out
}
