package uq

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// MarshalJSON writes m as one object keyed by metric name ("n" first),
// NaN and ±Inf as null, which encoding/json cannot write as numbers.
func (m Metrics) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"n":%d`, m.N)
	for _, f := range metricFields(&m) {
		fmt.Fprintf(&b, `,%q:`, f.name)
		b.WriteString(jsonNum(*f.v))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads what MarshalJSON writes; null or an absent metric
// reads as NaN.
func (m *Metrics) UnmarshalJSON(data []byte) error {
	var raw map[string]*float64
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("uq: metrics: %w", err)
	}
	*m = Metrics{}
	if v := raw["n"]; v != nil {
		m.N = int(*v)
	}
	for _, f := range metricFields(m) {
		*f.v = math.NaN()
		if v := raw[f.name]; v != nil {
			*f.v = *v
		}
	}
	return nil
}

// MarshalJSON writes o with NaN as null.
func (o OOD) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`{"n":%d,"srcc":%s,"auroc":%s}`, o.N, jsonNum(o.SRCC), jsonNum(o.AUROC))), nil
}

// UnmarshalJSON reads what MarshalJSON writes; null reads as NaN.
func (o *OOD) UnmarshalJSON(data []byte) error {
	var raw struct {
		N     int      `json:"n"`
		SRCC  *float64 `json:"srcc"`
		AUROC *float64 `json:"auroc"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("uq: ood metrics: %w", err)
	}
	*o = OOD{N: raw.N, SRCC: math.NaN(), AUROC: math.NaN()}
	if raw.SRCC != nil {
		o.SRCC = *raw.SRCC
	}
	if raw.AUROC != nil {
		o.AUROC = *raw.AUROC
	}
	return nil
}

func jsonNum(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "null"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
