package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
)

// TestDataSynth: the same seed gives byte-identical files; another seed
// gives another screen; the truth columns are saved and read back.
func TestDataSynth(t *testing.T) {
	tmp := t.TempDir()
	var outs []string
	for i, seed := range []string{"7", "7", "8"} {
		dir := filepath.Join(tmp, "s"+string(rune('0'+i)))
		out, errOut, code := dataRun(t, "data", "synth", "--seed", seed, "--out", dir)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		outs = append(outs, dir)
		if i == 0 {
			dataGolden(t, "data_synth_seed7.stdout", strings.ReplaceAll(out, dir, "$OUT"))
		}
	}
	for _, f := range []string{drugcomb.MetaFile, drugcomb.DrugsArrowFile, drugcomb.PairsArrowFile, drugcomb.DrugsParquetFile, drugcomb.PairsParquetFile} {
		a, _ := os.ReadFile(filepath.Join(outs[0], f))
		b, _ := os.ReadFile(filepath.Join(outs[1], f))
		c, _ := os.ReadFile(filepath.Join(outs[2], f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs with seed 7", f)
		}
		if f == drugcomb.PairsArrowFile && bytes.Equal(a, c) {
			t.Errorf("%s is the same for seeds 7 and 8", f)
		}
	}
	s, err := drugcomb.OpenForm(outs[0], drugcomb.FormParquet)
	if err != nil {
		t.Fatal(err)
	}
	if s.Truth == nil || len(s.Drugs) != 60 || len(s.Pairs) != 1800 || len(s.CellLines) != 2 {
		t.Fatalf("synthetic screen: truth %v, %d drugs, %d pairs, %d cell lines", s.Truth != nil, len(s.Drugs), len(s.Pairs), len(s.CellLines))
	}
	js, _, code := dataRun(t, "data", "inspect", outs[0], "--json")
	if code != 0 || !strings.Contains(js, `"truth": true`) || !strings.Contains(js, `"drugs_without_smiles": []`) {
		t.Errorf("inspect of a synthetic screen:\n%s", js)
	}
	// Bad configuration is a usage error.
	if _, errOut, code := dataRun(t, "data", "synth", "--drugs", "3", "--pairs", "100", "--out", filepath.Join(tmp, "bad")); code != 2 || !strings.Contains(errOut, "pairs") {
		t.Errorf("impossible config: exit %d: %s", code, errOut)
	}
}
