package drugcomb

import (
	"maps"
	"testing"
)

// TestRefIndex: names, IDs and CIDs map lower-cased to their drug; a name
// or CID two drugs share is dropped, unless it is one drug's ID.
func TestRefIndex(t *testing.T) {
	for _, c := range []struct {
		name  string
		drugs []Drug
		want  map[string]int
	}{
		{"none", nil, map[string]int{}},
		{"name, ID and CID", []Drug{{ID: "D1", Name: " Cisplatin ", PubChemCID: 5702198}},
			map[string]int{"d1": 0, "cisplatin": 0, "5702198": 0}},
		{"no CID, no name", []Drug{{ID: "x"}}, map[string]int{"x": 0}},
		{"shared name dropped", []Drug{{ID: "a", Name: "Same"}, {ID: "b", Name: "same"}},
			map[string]int{"a": 0, "b": 1}},
		{"shared CID dropped", []Drug{{ID: "a", PubChemCID: 7}, {ID: "b", PubChemCID: 7}},
			map[string]int{"a": 0, "b": 1}},
		{"an ID wins over another drug's name", []Drug{{ID: "a", Name: "b"}, {ID: "b", Name: "c"}},
			map[string]int{"a": 0, "b": 1, "c": 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := RefIndex(c.drugs); !maps.Equal(got, c.want) {
				t.Errorf("RefIndex = %v, want %v", got, c.want)
			}
		})
	}
}
