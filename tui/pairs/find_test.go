package pairs

import "testing"

// TestFind: every row is found at its own index; a pair the table does not
// hold is -1.
func TestFind(t *testing.T) {
	tab, _ := randomTable(t, 3, 6, 2)
	var want []Key
	for i := range tab.Len() {
		r := tab.Row(i)
		want = append(want, Key{r.A, r.B, r.CellLine})
	}
	want = append(want, Key{0, 1, 7}) // no cell line 7
	got := tab.Find(want)
	for i := range tab.Len() {
		if got[i] != i {
			t.Fatalf("row %d found at %d", i, got[i])
		}
	}
	if got[len(got)-1] != -1 {
		t.Errorf("a missing pair found at %d, want -1", got[len(got)-1])
	}
}
