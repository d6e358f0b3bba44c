package model_test

import (
	"encoding/csv"
	"os"
	"strconv"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/features"
	"github.com/deup-screening/deup/internal/shareddata"
	"github.com/deup-screening/deup/model"
)

// loadPC3 builds the NCI-ALMANAC PC-3 screen from ../shared/data (the
// drugs that occur in its pairs; replicate rows aggregated) with radius-3
// 1024-bit Morgan features.
func loadPC3(tb testing.TB) (*drugcomb.Screen, *model.Dataset) {
	tb.Helper()
	return loadAlmanac(tb, "PC-3")
}

// loadAlmanac is loadPC3 for the cell line of almanac/synergy_<cell>.csv.
func loadAlmanac(tb testing.TB, cell string) (*drugcomb.Screen, *model.Dataset) {
	tb.Helper()
	read := func(rel ...string) [][]string {
		f, err := os.Open(shareddata.Path(tb, rel...))
		if err != nil {
			tb.Fatal(err)
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			tb.Fatal(err)
		}
		return rows[1:]
	}
	byCID := map[string]drugcomb.Drug{}
	for _, r := range read("almanac", "drugs.csv") {
		cid, _ := strconv.ParseInt(r[1], 10, 64)
		byCID[r[1]] = drugcomb.Drug{ID: r[1], Name: r[0], PubChemCID: cid, SMILES: r[2]}
	}
	b := drugcomb.NewBuilder("combo_score")
	for i, r := range read("almanac", "synergy_"+cell+".csv") {
		da, oka := byCID[r[0]]
		db, okb := byCID[r[1]]
		if !oka || !okb {
			tb.Fatalf("synergy_%s.csv row %d: unknown drug %s or %s", cell, i+2, r[0], r[1])
		}
		s, err := strconv.ParseFloat(r[3], 64)
		if err != nil {
			tb.Fatalf("row %d: %v", i+2, err)
		}
		if err := b.Measure(b.Drug(da), b.Drug(db), b.CellLine(r[2]), []float64{s}); err != nil {
			tb.Fatalf("row %d: %v", i+2, err)
		}
	}
	sc := b.Screen(cell)
	f, _, err := features.Build(sc.Drugs, features.Config{}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := model.NewDataset(sc, f, 0)
	if err != nil {
		tb.Fatal(err)
	}
	return sc, d
}
