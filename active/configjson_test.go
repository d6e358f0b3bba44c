package active

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
)

// A campaign.json / init event written before issue 18: drug keys as
// encoding/json spelled the Go field names, and the Bayesian-ridge DEUP
// surrogate under its old name "deup".
const legacyConfig = `{
  "mode": "live",
  "score": "score",
  "acquisition": "ucb",
  "model": "deup",
  "features": "identity",
  "batch": 30,
  "rounds": 0,
  "max_per_drug": 0,
  "seed": 1,
  "drugs": [
    {"ID": "5743", "Name": "Dexamethasone", "PubChemCID": 5743, "SMILES": "CC1CC2"},
    {"ID": "d2", "Name": "B", "PubChemCID": 0, "SMILES": ""}
  ],
  "cell_lines": ["PC-3"]
}`

func TestConfigJSON(t *testing.T) {
	want := Config{Mode: Live, Score: "score", Acquisition: "ucb", Model: renamedModel, Features: "identity", Batch: 30, Seed: 1,
		Drugs:     []drugcomb.Drug{{ID: "5743", Name: "Dexamethasone", PubChemCID: 5743, SMILES: "CC1CC2"}, {ID: "d2", Name: "B"}},
		CellLines: []string{"PC-3"}}
	var old Config
	if err := json.Unmarshal([]byte(legacyConfig), &old); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(old, want) {
		t.Errorf("legacy config read as\n%+v\nwant\n%+v", old, want)
	}
	b, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	// Every key snake_case (docs/vocabulary.md): no capital letter in a key.
	var generic map[string]any
	if err := json.Unmarshal(b, &generic); err != nil {
		t.Fatal(err)
	}
	var keys []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				keys = append(keys, k)
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(generic)
	for _, k := range keys {
		if strings.ToLower(k) != k {
			t.Errorf("key %q is not snake_case in %s", k, b)
		}
	}
	for _, k := range []string{`"id":"5743"`, `"pubchem_cid":5743`, `"smiles":"CC1CC2"`, `"name":"Dexamethasone"`, `"model":"deup-ridge"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("%s lacks %s", b, k)
		}
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, want) {
		t.Errorf("round trip gave\n%+v\nwant\n%+v", back, want)
	}
}
