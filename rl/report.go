package rl

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"

	"github.com/deup-screening/deup/internal/moments"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/deup-screening/deup/internal/atomicfile"
	"github.com/deup-screening/deup/internal/jsonfloat"
	"github.com/deup-screening/deup/internal/plotstyle"

	"github.com/deup-screening/deup/uq"
)

// Summary gathers the runs of several agents over the same seeds.
type Summary struct {
	Env      string
	Episodes int
	Order    []string // agents in the order asked
	Runs     map[string][]*Result
	Wall     float64 // seconds for the whole table
}

// MeanSD is a mean and sample standard deviation (uq.MeanSD: n−1; NaN,
// written null, for one value).
type MeanSD = jsonfloat.MeanSD

func meanSD(v []float64) MeanSD { return jsonfloat.NewMeanSD(uq.MeanSD(v)) }

// AverageRegret is the mean ± sd over seeds of the agent's average regret
// (total regret after the last episode / episodes).
func (s *Summary) AverageRegret(agent string) MeanSD {
	var v []float64
	for _, r := range s.Runs[agent] {
		v = append(v, r.AverageRegret())
	}
	return meanSD(v)
}

// Score is the mean ± sd over seeds of the agent's bsuite score.
func (s *Summary) Score(agent string) MeanSD {
	var v []float64
	for _, r := range s.Runs[agent] {
		v = append(v, r.Score())
	}
	return meanSD(v)
}

// Curve returns, per episode k, the mean over seeds of the average regret
// after episode k (total regret / k) and its standard error.
func (s *Summary) Curve(agent string) (mean, se []float64) {
	runs := s.Runs[agent]
	mean, se = make([]float64, s.Episodes), make([]float64, s.Episodes)
	v := make([]float64, len(runs))
	for k := range mean {
		for i, r := range runs {
			v[i] = r.TotalRegret[k] / float64(k+1)
		}
		ms := meanSD(v)
		mean[k], se[k] = float64(ms.Mean), float64(ms.SD)/math.Sqrt(float64(len(v)))
		if len(v) < 2 {
			se[k] = 0 // one seed: no band (as smo's curves)
		}
	}
	return mean, se
}

type seedJSON struct {
	Seed        uint64          `json:"seed"`
	TotalRegret jsonfloat.Float `json:"total_regret"`
	BestEpisode jsonfloat.Float `json:"best_episode"`
	WallSeconds jsonfloat.Float `json:"wall_seconds"`
}

type agentJSON struct {
	AverageRegret MeanSD           `json:"average_regret"`
	Score         MeanSD           `json:"score"`
	PerSeed       []seedJSON       `json:"per_seed"`
	RegretCurve   jsonfloat.Floats `json:"regret_curve"`
}

type summaryJSON struct {
	Env         string               `json:"env"`
	Episodes    int                  `json:"episodes"`
	Seeds       int                  `json:"seeds"`
	Agents      map[string]agentJSON `json:"agents"`
	WallSeconds jsonfloat.Float      `json:"wall_seconds"`
}

// WriteJSON writes results.json: {"env", "episodes", "seeds" (how many),
// "agents": {NAME: {"average_regret": {"mean", "sd"}, "score": {"mean",
// "sd"}, "per_seed": [{"seed", "total_regret", "best_episode",
// "wall_seconds"}], "regret_curve": [mean average regret after each
// episode]}}, "wall_seconds"}.
func (s *Summary) WriteJSON(w io.Writer) error {
	out := summaryJSON{Env: s.Env, Episodes: s.Episodes, Agents: map[string]agentJSON{}, WallSeconds: jsonfloat.Float(s.Wall)}
	for _, a := range s.Order {
		runs := s.Runs[a]
		out.Seeds = len(runs)
		aj := agentJSON{AverageRegret: s.AverageRegret(a), Score: s.Score(a)}
		for _, r := range runs {
			aj.PerSeed = append(aj.PerSeed, seedJSON{r.Seed, jsonfloat.Float(r.TotalRegret[len(r.TotalRegret)-1]), jsonfloat.Float(r.BestEpisode), jsonfloat.Float(r.Wall.Seconds())})
		}
		mean, _ := s.Curve(a)
		aj.RegretCurve = jsonfloat.Floats(mean)
		out.Agents[a] = aj
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteCSV writes runs.csv: agent,seed,episode,return,total_regret (episodes from 1).
func (s *Summary) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("agent,seed,episode,return,total_regret\n")
	var b []byte
	for _, a := range s.Order {
		for _, r := range s.Runs[a] {
			for k, ret := range r.Returns {
				b = append(b[:0], a...)
				b = append(b, ',')
				b = strconv.AppendUint(b, r.Seed, 10)
				b = append(b, ',')
				b = strconv.AppendInt(b, int64(k+1), 10)
				b = append(b, ',')
				b = strconv.AppendFloat(b, ret, 'g', -1, 64)
				b = append(b, ',')
				b = strconv.AppendFloat(b, r.TotalRegret[k], 'g', -1, 64)
				b = append(b, '\n')
				bw.Write(b)
			}
		}
	}
	return bw.Flush()
}

// WriteTable writes the markdown table: per agent, average regret and
// bsuite score (mean ± sd over seeds), the runs whose best episode exceeds
// 500, mean steps and wall time per run.
func (s *Summary) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "| agent | average regret (mean ± sd) | bsuite score (mean ± sd) | best episode > %g | steps/run | wall/run |\n", GoodEpisode)
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, a := range s.Order {
		runs := s.Runs[a]
		ar, sc := s.AverageRegret(a), s.Score(a)
		solved, steps, wall := 0, 0.0, 0.0
		for _, r := range runs {
			if r.BestEpisode > GoodEpisode {
				solved++
			}
			steps += float64(r.Steps) / float64(len(runs))
			wall += r.Wall.Seconds() / float64(len(runs))
		}
		if _, err := fmt.Fprintf(w, "| %s | %s | %s | %d/%d | %.0f | %.1fs |\n", a, moments.Format(float64(ar.Mean), float64(ar.SD), 1, "n/a"),
			moments.Format(float64(sc.Mean), float64(sc.SD), 3, "n/a"), solved, len(runs), steps, wall); err != nil {
			return err
		}
	}
	return nil
}

// WriteFiles writes results.json (WriteJSON), runs.csv (WriteCSV) and the
// figure regret.png, regret.svg (Plot) into dir.
func (s *Summary) WriteFiles(dir string) error {
	if err := atomicfile.WriteNamed(filepath.Join(dir, "results.json"), s.WriteJSON); err != nil {
		return err
	}
	if err := atomicfile.WriteNamed(filepath.Join(dir, "runs.csv"), s.WriteCSV); err != nil {
		return err
	}
	return s.Plot(filepath.Join(dir, "regret.png"), filepath.Join(dir, "regret.svg"))
}

// Plot draws the average regret against episodes, one line per agent with
// a band of ± one standard error over seeds, into each path (.png, .svg).
func (s *Summary) Plot(paths ...string) error {
	p := plot.New()
	nseeds := 0
	if len(s.Order) > 0 {
		nseeds = len(s.Runs[s.Order[0]])
	}
	plural := "s"
	if nseeds == 1 {
		plural = ""
	}
	p.Title.Text = fmt.Sprintf("%s: average regret, mean ± s.e. over %d seed%s", s.Env, nseeds, plural)
	p.X.Label.Text = "episode"
	p.Y.Label.Text = "average regret (total regret / episodes)"
	p.X.Tick.Marker = plotstyle.CountTicks{}
	for i, a := range s.Order {
		mean, se := s.Curve(a)
		c := plotstyle.Color(i)
		poly, l, err := plotstyle.MeanBand(1, mean, se, c)
		if err != nil {
			return fmt.Errorf("rl: plot: %w", err)
		}
		p.Add(poly, l)
		p.Legend.Add(a, l)
	}
	p.Legend.Top = true
	p.Y.Min = 0
	for _, path := range paths {
		if err := p.Save(7*vg.Inch, 4.5*vg.Inch, path); err != nil {
			return fmt.Errorf("rl: plot: %w", err)
		}
	}
	return nil
}
