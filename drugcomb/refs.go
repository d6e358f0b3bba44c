package drugcomb

import (
	"strconv"
	"strings"
)

// RefIndex maps the references a user may write for a drug (its name, ID
// or PubChem CID, lower-cased and trimmed) to its index in drugs: how a
// campaign's imported results and a list of pairs to predict name their
// drugs (look a reference up lower-cased and trimmed). A name or CID shared
// by two drugs is dropped (ambiguous) unless it is the ID of one; IDs win.
// Screen.DrugIndex, by contrast, finds one drug by its exact ID.
func RefIndex(drugs []Drug) map[string]int {
	m := map[string]int{}
	amb := map[string]bool{}
	add := func(k string, i int) {
		k = strings.ToLower(strings.TrimSpace(k))
		if k == "" {
			return
		}
		if j, ok := m[k]; ok && j != i {
			amb[k] = true
			return
		}
		m[k] = i
	}
	for i, d := range drugs {
		add(d.Name, i)
		if d.PubChemCID > 0 {
			add(strconv.FormatInt(d.PubChemCID, 10), i)
		}
	}
	for k := range amb {
		delete(m, k)
	}
	for i, d := range drugs {
		if k := strings.ToLower(strings.TrimSpace(d.ID)); k != "" {
			m[k] = i
		}
	}
	return m
}
