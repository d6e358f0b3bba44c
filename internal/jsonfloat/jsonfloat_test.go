package jsonfloat

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestAppend: expected forms are encoding/json's for the same float64
// (Go 1.22 json.Marshal), with ".0" added where json writes an integer.
func TestAppend(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{3, "3.0"},
		{-42, "-42.0"},
		{0.5, "0.5"},
		{1.0 / 3, "0.3333333333333333"},
		{1e20, "100000000000000000000.0"},
		{1e21, "1e+21"},
		{1e-7, "1e-7"},
		{2.5e-10, "2.5e-10"},
		{1e-6, "0.000001"},
		{math.NaN(), "null"},
		{math.Inf(1), "null"},
		{math.Inf(-1), "null"},
	} {
		got := string(Append(nil, c.v))
		if got != c.want {
			t.Errorf("Append(%v) = %s, want %s", c.v, got, c.want)
		}
		if c.want == "null" {
			continue
		}
		// Same value as encoding/json's form, read back.
		std, _ := json.Marshal(c.v)
		var a, b float64
		if err := json.Unmarshal([]byte(got), &a); err != nil {
			t.Fatal(err)
		}
		json.Unmarshal(std, &b)
		if a != b {
			t.Errorf("%v: %s reads as %v, json's %s as %v", c.v, got, a, std, b)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	type doc struct {
		X  Float  `json:"x"`
		Xs Floats `json:"xs"`
	}
	b, err := json.Marshal(doc{0, Floats{1, math.NaN(), 0.25}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"x":0.0,"xs":[1.0,null,0.25]}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	var d doc
	if err := json.Unmarshal([]byte(`{"x":null,"xs":[2,null]}`), &d); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(float64(d.X)) || d.Xs[0] != 2 || !math.IsNaN(d.Xs[1]) {
		t.Errorf("read back %+v", d)
	}
}

func TestIntegerKeys(t *testing.T) {
	got, err := IntegerKeys([]byte(`{"a": 0, "b": 0.0, "c": [1.5, 2], "d": {"e": 1e3, "f": -3}, "g": null}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "a c f"; strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
}
