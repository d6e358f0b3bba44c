// Temporary analysis (not committed): σ_epi by unseen count from a bench predictions.parquet.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"github.com/deup-screening/deup/drugcomb"
)

func main() {
	sc, err := drugcomb.Open(os.Args[1])
	if err != nil {
		panic(err)
	}
	rdr, err := file.OpenParquetFile(os.Args[2], false)
	if err != nil {
		panic(err)
	}
	fr, _ := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		panic(err)
	}
	tr := array.NewTableReader(tbl, 1<<20)
	type key struct {
		m    string
		seed uint64
	}
	sum := map[key]*[3]float64{}
	cnt := map[key]*[3]int{}
	zero := map[key]int{}
	tot := map[key]int{}
	seen := map[uint64]map[int]bool{}
	var order []string
	for tr.Next() {
		rec := tr.Record()
		seeds := rec.Column(0).(*array.Uint64)
		meth := rec.Column(1).(*array.String)
		pair := rec.Column(2).(*array.Int64)
		epi := rec.Column(8).(*array.Float64)
		for r := 0; r < int(rec.NumRows()); r++ {
			s := seeds.Value(r)
			if seen[s] == nil {
				sp := drugcomb.SplitByDrug(sc, 0.3, 0.3, s)
				seen[s] = map[int]bool{}
				for _, i := range sp.Train {
					seen[s][sc.Pairs[i].A], seen[s][sc.Pairs[i].B] = true, true
				}
			}
			k := key{meth.Value(r), s}
			if sum[k] == nil {
				sum[k], cnt[k] = &[3]float64{}, &[3]int{}
				if s == 1 {
					order = append(order, k.m)
				}
			}
			p := sc.Pairs[pair.Value(r)]
			u := 0
			if !seen[s][p.A] {
				u++
			}
			if p.B != p.A && !seen[s][p.B] {
				u++
			}
			sum[k][u] += epi.Value(r)
			cnt[k][u]++
			tot[k]++
			if epi.Value(r) <= 1e-6*46 {
				zero[k]++
			}
		}
	}
	for _, m := range order {
		fmt.Printf("%s:", m)
		for s := uint64(1); s <= 3; s++ {
			k := key{m, s}
			if sum[k] == nil {
				continue
			}
			fmt.Printf("  seed %d: u1 %.2f (n %d) u2 %.2f (n %d) zero %.1f%%;", s, sum[k][1]/float64(cnt[k][1]), cnt[k][1], sum[k][2]/float64(cnt[k][2]), cnt[k][2], 100*float64(zero[k])/float64(tot[k]))
		}
		fmt.Println()
	}
}
