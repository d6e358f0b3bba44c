package active

import (
	"encoding/json"

	"github.com/deup-screening/deup/drugcomb"
)

// configDrug is a drug as campaign.json and the ledger's init event spell
// it: snake_case keys, as every JSON file of deup (docs/vocabulary.md).
type configDrug struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	PubChemCID int64  `json:"pubchem_cid"`
	SMILES     string `json:"smiles"`
}

// legacyModel is the old name of the Bayesian-ridge DEUP surrogate, which a
// campaign file may still hold; renamedModel is its name now
// (surrogate.RidgeDEUP, whose tests check that the two agree).
const legacyModel, renamedModel = "deup", "deup-ridge"

type configAlias Config

type configJSON struct {
	configAlias
	Drugs []configDrug `json:"drugs"`
}

// MarshalJSON implements json.Marshaler: snake_case keys throughout.
func (c Config) MarshalJSON() ([]byte, error) {
	out := configJSON{configAlias: configAlias(c), Drugs: make([]configDrug, len(c.Drugs))}
	for i, d := range c.Drugs {
		out.Drugs[i] = configDrug{ID: d.ID, Name: d.Name, PubChemCID: d.PubChemCID, SMILES: d.SMILES}
	}
	return json.Marshal(out)
}

// UnmarshalJSON implements json.Unmarshaler. It reads both spellings of a
// drug's keys (id/pubchem_cid and the older ID/PubChemCID), so ledgers and
// campaign.json files written before the keys were snake_case still load; a
// model named "deup" (the name of the Bayesian-ridge DEUP surrogate before
// it was renamed deup-ridge) reads as deup-ridge.
func (c *Config) UnmarshalJSON(b []byte) error {
	var raw struct {
		configAlias
		Drugs []json.RawMessage `json:"drugs"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	cfg := Config(raw.configAlias)
	cfg.Drugs = make([]drugcomb.Drug, len(raw.Drugs))
	for i, rd := range raw.Drugs {
		// encoding/json matches keys case-insensitively: decode the two
		// spellings from a map so that "id" and "ID" are told apart.
		var m map[string]json.RawMessage
		if err := json.Unmarshal(rd, &m); err != nil {
			return err
		}
		var d configDrug
		for _, k := range []struct {
			snake, legacy string
			dst           any
		}{{"id", "ID", &d.ID}, {"name", "Name", &d.Name}, {"pubchem_cid", "PubChemCID", &d.PubChemCID}, {"smiles", "SMILES", &d.SMILES}} {
			v, ok := m[k.snake]
			if !ok {
				v, ok = m[k.legacy]
			}
			if !ok {
				continue
			}
			if err := json.Unmarshal(v, k.dst); err != nil {
				return err
			}
		}
		cfg.Drugs[i] = drugcomb.Drug{ID: d.ID, Name: d.Name, PubChemCID: d.PubChemCID, SMILES: d.SMILES}
	}
	if cfg.Model == legacyModel {
		cfg.Model = renamedModel
	}
	*c = cfg
	return nil
}
