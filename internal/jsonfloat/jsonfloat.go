// Package jsonfloat is the JSON form of the floating-point fields of the
// result files (bench results.json, smo results.json, campaign simulate
// report.json): a float is always written with a decimal point or an
// exponent (0 is 0.0, 3 is 3.0), so that pandas, DuckDB and Arrow read the
// field as a float column, never an integer one; NaN and infinities are
// written as null and read back as NaN. docs/vocabulary.md states the rule.
package jsonfloat

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Append appends v's JSON form to b: encoding/json's shortest
// round-tripping form, with ".0" added when it would read as an integer;
// null for NaN and ±Inf.
func Append(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "null"...)
	}
	// As encoding/json: 'f' for 1e-6 <= |v| < 1e21, else 'e' with a
	// two-digit exponent shortened (1e-07 -> 1e-7).
	abs, format := math.Abs(v), byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	n := len(b)
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if format == 'e' {
		if k := len(b); k-n >= 4 && b[k-4] == 'e' && b[k-3] == '-' && b[k-2] == '0' {
			b[k-2] = b[k-1]
			b = b[:k-1]
		}
		return b
	}
	if bytes.IndexByte(b[n:], '.') < 0 {
		b = append(b, ".0"...)
	}
	return b
}

// Float is a float64 written by Append and read back with null as NaN.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) { return Append(nil, float64(f)), nil }

// UnmarshalJSON implements json.Unmarshaler: null reads as NaN.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = Float(v)
	return nil
}

// Floats is a []float64 written element by element as Float.
type Floats []float64

// MarshalJSON implements json.Marshaler.
func (f Floats) MarshalJSON() ([]byte, error) {
	if f == nil {
		return []byte("null"), nil
	}
	b := []byte{'['}
	for i, v := range f {
		if i > 0 {
			b = append(b, ',')
		}
		b = Append(b, v)
	}
	return append(b, ']'), nil
}

// UnmarshalJSON implements json.Unmarshaler (null elements read as NaN).
func (f *Floats) UnmarshalJSON(b []byte) error {
	var raw []*float64
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if raw == nil {
		*f = nil
		return nil
	}
	*f = make(Floats, len(raw))
	for i, p := range raw {
		if p == nil {
			(*f)[i] = math.NaN()
		} else {
			(*f)[i] = *p
		}
	}
	return nil
}

// IntegerKeys returns, sorted and without repeats, the keys of the JSON
// document b under which a number is written without a decimal point or
// exponent (an integer to pandas and DuckDB); a number in an array counts
// under the array's key. The tests of every writer of result files check
// that only their integer fields (counts, seeds) are listed.
func IntegerKeys(b []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(k, e)
			}
		case []any:
			for _, e := range x {
				walk(key, e)
			}
		case json.Number:
			if !strings.ContainsAny(string(x), ".eE") {
				seen[key] = true
			}
		}
	}
	walk("", doc)
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, nil
}

// MeanSD is the JSON form of a mean and a standard deviation over seeds
// ({"mean": …, "sd": …}; NaN, as for one seed's sd, is written null).
type MeanSD struct {
	Mean Float `json:"mean"`
	SD   Float `json:"sd"`
}

// NewMeanSD is the MeanSD of a mean and an sd, as uq.MeanSD returns them.
func NewMeanSD(mean, sd float64) MeanSD { return MeanSD{Float(mean), Float(sd)} }
