package pairs

// Key names a row of a table: a pair of drug indices (A < B) on a cell line.
type Key struct{ A, B, CellLine int }

// Find returns, for each key of want, the index of the table's row of that
// pair (the row's Index), or -1 where the table has none.
func (t *Table) Find(want []Key) []int {
	at := make(map[Key]int, len(want))
	out := make([]int, len(want))
	for i, k := range want {
		at[k] = i
		out[i] = -1
	}
	for i := range t.Len() {
		if j, ok := at[Key{int(t.a[i]), int(t.b[i]), int(t.cell[i])}]; ok {
			out[j] = i
		}
	}
	return out
}
