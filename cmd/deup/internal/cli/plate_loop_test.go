package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/plate"
	"gonum.org/v1/gonum/stat"
)

// readCSV reads a CSV file into maps keyed by the header's names.
func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for j, h := range recs[0] {
			m[h] = r[j]
		}
		out = append(out, m)
	}
	return out
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPlateLoop is the lab's loop, three rounds, nothing edited by hand:
// campaign init → suggest → plate design → the simulated lab's reader
// file → plate read → campaign import-results --plates. The campaign's
// screen measures 30 of the 66 pairs of its 12 drugs; the lab's screen is
// the same synthetic screen with every pair (data.Synth draws its hidden
// truth before it picks the pairs, so a pair's truth is the same in both),
// so the simulator knows every suggested pair's true synergy. Each step runs twice, as after a kill that leaves
// it unknown whether the step finished: the second run writes the same
// bytes or, for the import, is refused with the ledger unchanged. Round 2
// has a bad plate: reported, kept out. Each round's Bliss scores (deup data
// synergy on the responses) are within 4 sd of the simulator's truth,
// and they are the results the ledger records.
func TestPlateLoop(t *testing.T) {
	cfg := data.SynthConfig{Seed: 5, Drugs: 12, CellLines: 1, Pairs: 30, ReplicateFrac: 0.2, MaxReplicates: 2,
		LatentDim: 3, Scale: 10, NoiseMin: 1, NoiseMax: 3, RareWeight: 0.1, RareEffect: 1}
	sc, err := data.Synth(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Pairs = 66
	all, err := data.Synth(cfg)
	if err != nil {
		t.Fatal(err)
	}
	allTruth := screenTruth(all)
	for i, p := range sc.Pairs {
		if v, ok := allTruth(sc.Drugs[p.A].ID, sc.Drugs[p.B].ID, sc.CellLines[p.CellLine]); !ok || v != sc.Truth.Mean[i] {
			t.Fatalf("pair %d: truth %v in the full screen (%v), %v in the campaign's", i, v, ok, sc.Truth.Mean[i])
		}
	}
	tmp := t.TempDir()
	screen, labScreen := filepath.Join(tmp, "screen"), filepath.Join(tmp, "lab-screen")
	for _, s := range []struct {
		dir string
		sc  *drugcomb.Screen
	}{{screen, sc}, {labScreen, all}} {
		if err := drugcomb.Save(s.dir, s.sc); err != nil {
			t.Fatal(err)
		}
	}
	camp := filepath.Join(tmp, "c")
	mustRun(t, "campaign", "init", "--screen", screen, "--batch", "6", "--acquisition", "ei", "--model", "deup-ridge", camp)
	same := func(paths ...string) func() {
		before := map[string][]byte{}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			before[p] = b
		}
		return func() {
			for _, p := range paths {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(b, before[p]) {
					t.Errorf("%s changed when its step ran again", p)
				}
			}
		}
	}
	twice := func(files []string, args ...string) string {
		out := mustRun(t, args...)
		check := same(files...)
		mustRun(t, args...)
		check()
		return out
	}
	measured := 0
	var scored, truths []float64
	for round := 1; round <= 3; round++ {
		rd := func(name string) string { return filepath.Join(tmp, fmt.Sprintf("%s%d", name, round)) }
		batch := rd("batch") + ".csv"
		out := mustRun(t, "suggest", "--campaign", camp, "--out", batch)
		if !strings.Contains(out, fmt.Sprintf("suggestions of round %d", round)) {
			t.Fatalf("round %d: suggest: %s", round, out)
		}
		n := len(readCSV(t, batch))
		design := rd("design")
		twice([]string{filepath.Join(design, plate.MapCSV), filepath.Join(design, plate.MapParquet), filepath.Join(design, plate.PickList)},
			"plate", "design", "--batch", batch, "--seed", strconv.Itoa(round), "--prefix", fmt.Sprintf("R%dP", round), "--out", design)
		bad := 0
		if round == 2 {
			bad = 1
		}
		lab := rd("lab")
		twice([]string{filepath.Join(lab, "reads.txt"), filepath.Join(lab, "truth.csv")},
			"plate", "simulate", "--map", design, "--screen", labScreen, "--seed", strconv.Itoa(10+round), "--bad-plate", strconv.Itoa(bad), "--scale", "5", "--out", lab)
		resp := rd("responses") + ".csv"
		rep := rd("read") + ".json"
		out = twice([]string{resp, rep}, "plate", "read", "--map", design, "--reads", filepath.Join(lab, "reads.txt"), "--out", resp, "--report", rep)
		var rr plate.ReadReport
		b, _ := os.ReadFile(rep)
		if err := json.Unmarshal(b, &rr); err != nil {
			t.Fatal(err)
		}
		if rr.KeptOut != min(bad, 1) || rr.Flagged != rr.KeptOut {
			t.Errorf("round %d: %d plates kept out, %d flagged, want %d:\n%s", round, rr.KeptOut, rr.Flagged, bad, out)
		}
		badName := fmt.Sprintf("R%dP01", round)
		for _, r := range readCSV(t, resp) {
			if bad > 0 && r["plate"] == badName {
				t.Fatalf("round %d: a response from the bad plate %s", round, badName)
			}
		}
		if bad > 0 && !strings.Contains(out, badName+" ") || bad > 0 && !strings.Contains(out, "kept out (Z′ below") {
			t.Errorf("round %d: the bad plate is not reported:\n%s", round, out)
		}
		// The scores from the plates against the truth.
		syn := rd("synergy")
		mustRun(t, "data", "synergy", "--responses", resp, "--out", syn)
		truth := map[string]float64{}
		for _, r := range readCSV(t, filepath.Join(lab, "truth.csv")) {
			truth[r["block_id"]] = num(t, r["bliss"])
			if r["score"] == "0" {
				t.Errorf("round %d: block %s: the simulator does not know its synergy", round, r["block_id"])
			}
		}
		// One copy's sd of a block's mean Bliss δ (platesim's lab test):
		// 3 % noise, 25 inner wells and two single-agent series of 5.
		sd := 3 * math.Sqrt(1.0/25+2.0/5)
		blocks := readCSV(t, filepath.Join(syn, "blocks.csv"))
		if len(blocks) != n {
			t.Fatalf("round %d: %d blocks scored, want %d", round, len(blocks), n)
		}
		bliss := map[[2]string]float64{}
		for _, bl := range blocks {
			got, want := num(t, bl["bliss"]), truth[bl["block_id"]]
			if !(math.Abs(got-want) < 4*sd) {
				t.Errorf("round %d block %s: Bliss %.2f, truth %.2f", round, bl["block_id"], got, want)
			}
			bliss[[2]string{bl["drug_row"], bl["drug_col"]}] = got
			scored, truths = append(scored, got), append(truths, want)
		}
		// Import, then again: refused, the ledger unchanged.
		out = mustRun(t, "campaign", "import-results", camp, resp, "--plates", "--plate-score", "bliss")
		if want := fmt.Sprintf("round %d: recorded %d results (%d of %d measured)", round, n, n, n); !strings.Contains(out, want) {
			t.Fatalf("import: want %q in\n%s", want, out)
		}
		events := len(ledgerEvents(t, camp))
		if _, _, code := run(t, "campaign", "import-results", camp, resp, "--plates", "--plate-score", "bliss"); code == 0 {
			t.Errorf("round %d: importing again succeeded", round)
		}
		ev := ledgerEvents(t, camp)
		if len(ev) != events {
			t.Errorf("round %d: a refused import added %d events", round, len(ev)-events)
		}
		last := ev[len(ev)-1]
		if len(last.Records) != n {
			t.Fatalf("round %d: the ledger's last event holds %d records, want %d", round, len(last.Records), n)
		}
		for _, r := range last.Records {
			a, b := sc.Drugs[r.A].ID, sc.Drugs[r.B].ID
			want, ok := bliss[[2]string{a, b}]
			if !ok {
				want, ok = bliss[[2]string{b, a}]
			}
			if !ok || math.Abs(r.Y-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("round %d: ledger %s × %s = %v, Bliss from the plates %v", round, a, b, r.Y, want)
			}
		}
		measured += n
	}
	// Over the 18 blocks: the scores follow the truth (Pearson r; a
	// scorer that ignored the plates would have r near 0) and their mean
	// absolute error is below one sd.
	var mae float64
	for i := range scored {
		mae += math.Abs(scored[i]-truths[i]) / float64(len(scored))
	}
	if r := stat.Correlation(scored, truths, nil); !(r > 0.9) || !(mae < 3*math.Sqrt(1.0/25+2.0/5)) {
		t.Errorf("Bliss from the plates against the truth: r %.3f (want > 0.9), mean |error| %.2f (want < %.2f)", r, mae, 3*math.Sqrt(1.0/25+2.0/5))
	}
	out := mustRun(t, "campaign", "report", camp)
	for round := 1; round <= 3; round++ {
		if !strings.Contains(out, fmt.Sprintf("\n%d      6/6", round)) {
			t.Errorf("report: round %d not 6/6 measured:\n%s", round, out)
		}
	}
	if measured != 18 {
		t.Errorf("%d pairs measured in 3 rounds, want 18", measured)
	}
}
