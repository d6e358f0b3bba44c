package vocab

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/deup-screening/deup/internal/arrowguard"
)

// ReadColumn is one column of a file as ReadFile saw it.
type ReadColumn struct {
	Name  string
	Type  Type
	Nulls int // missing values (CSV empty fields, JSON nulls or absent keys, Arrow nulls)
}

// Table is a file's columns as ReadFile saw them, in file order (JSON
// documents: in the order of first appearance).
type Table struct {
	Path    string
	Format  Format
	Rows    int // rows of a table; 1 for a JSON document
	Columns []ReadColumn
}

// Column returns the column named name, or false.
func (t *Table) Column(name string) (ReadColumn, bool) {
	for _, c := range t.Columns {
		if c.Name == name {
			return c, true
		}
	}
	return ReadColumn{}, false
}

// FormatOf returns the format named by path's extension (case-insensitive):
// .csv; .json; .parquet or .pq; .arrow, .ipc or .feather (Arrow IPC file).
// It is the project's one table of file extensions: internal/tabular and
// package suggest narrow it to the formats they write.
func FormatOf(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return CSV, nil
	case ".json":
		return JSON, nil
	case ".parquet", ".pq":
		return Parquet, nil
	case ".arrow", ".ipc", ".feather":
		return Arrow, nil
	}
	return "", fmt.Errorf("%s: extension names no format (.csv, .json, .parquet, .arrow)", path)
}

// ReadFile reads the file at path, in the format of its extension, and
// returns its columns (see the package documentation for how types are
// read).
func ReadFile(path string) (*Table, error) {
	f, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t := &Table{Path: path, Format: f}
	switch f {
	case CSV:
		err = readCSV(t, b)
	case JSON:
		err = readJSON(t, b)
	default:
		err = readArrow(t, b)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// class is the type of one value written as text.
func class(s string) Type {
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return Int64
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return Float64
	}
	switch strings.ToLower(s) {
	case "true", "false":
		return Bool
	}
	return String
}

// merge is the type of a column holding values of types a and b (Null for
// none yet).
func merge(a, b Type) Type {
	switch {
	case a == Null:
		return b
	case b == Null || a == b:
		return a
	case a == String || b == String:
		return String
	case (a == Int64 || a == Float64 || a == Mixed) && (b == Int64 || b == Float64 || b == Mixed):
		return Mixed
	}
	return String
}

func readCSV(t *Table, b []byte) error {
	r := csv.NewReader(bytes.NewReader(b))
	head, err := r.Read()
	if err != nil {
		return fmt.Errorf("header: %w", err)
	}
	t.Columns = make([]ReadColumn, len(head))
	for i, h := range head {
		t.Columns[i] = ReadColumn{Name: h, Type: Null}
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		t.Rows++
		for i, v := range rec {
			c := &t.Columns[i]
			if v == "" {
				c.Nulls++
				continue
			}
			c.Type = merge(c.Type, class(v))
		}
	}
}

// jsonType is the type of one decoded JSON scalar (decoded with UseNumber).
func jsonType(v any) Type {
	switch x := v.(type) {
	case nil:
		return Null
	case bool:
		return Bool
	case string:
		return String
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return Float64
		}
		return Int64
	}
	return String
}

func readJSON(t *Table, b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	idx := map[string]int{}
	add := func(name string, typ Type) {
		i, ok := idx[name]
		if !ok {
			i = len(t.Columns)
			idx[name] = i
			t.Columns = append(t.Columns, ReadColumn{Name: name, Type: Null})
		}
		c := &t.Columns[i]
		if typ == Null {
			c.Nulls++
		}
		c.Type = merge(c.Type, typ)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				p := k
				if path != "" {
					p = path + "." + k
				}
				walk(p, x[k])
			}
		case []any:
			for _, e := range x {
				walk(path+"[]", e)
			}
		default:
			add(path, jsonType(v))
		}
	}
	rows, isArray := doc.([]any)
	table := isArray
	for _, r := range rows {
		if _, ok := r.(map[string]any); !ok {
			table = false
		}
	}
	if !table {
		t.Rows = 1
		walk("", doc)
		return nil
	}
	// An array of objects: a table whose columns are the objects' keys, in
	// the order of the first object (encoding/json keeps a struct's order;
	// a map's is lost, so take the document's own order).
	order, err := firstObjectKeys(b)
	if err != nil {
		return err
	}
	for _, k := range order {
		idx[k] = len(t.Columns)
		t.Columns = append(t.Columns, ReadColumn{Name: k, Type: Null})
	}
	t.Rows = len(rows)
	for _, r := range rows {
		obj := r.(map[string]any)
		for k, v := range obj {
			switch v.(type) {
			case map[string]any, []any:
				add(k, String) // nested values are not a table's
			default:
				add(k, jsonType(v))
			}
		}
		for _, c := range t.Columns {
			if _, ok := obj[c.Name]; !ok {
				t.Columns[idx[c.Name]].Nulls++
			}
		}
	}
	return nil
}

// firstObjectKeys returns the keys of the first object of a JSON array, in
// document order.
func firstObjectKeys(b []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // [
		return nil, err
	}
	if !dec.More() {
		return nil, nil
	}
	var keys []string
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// arrowType names an Arrow type in the vocabulary's terms (its Arrow name
// when the vocabulary has none).
func arrowType(dt arrow.DataType) Type {
	switch dt.ID() {
	case arrow.STRING:
		return String
	case arrow.FLOAT64:
		return Float64
	case arrow.INT32:
		return Int32
	case arrow.INT64:
		return Int64
	case arrow.UINT64:
		return Uint64
	case arrow.BOOL:
		return Bool
	case arrow.LIST:
		switch dt.(*arrow.ListType).Elem().ID() {
		case arrow.INT32:
			return ListInt32
		case arrow.FLOAT32:
			return ListFloat32
		case arrow.FLOAT64:
			return ListFloat
		}
	}
	return Type(dt.String())
}

func readArrow(t *Table, b []byte) error {
	mem := memory.NewGoAllocator()
	var tbl arrow.Table
	var err error
	if t.Format == Parquet {
		tbl, err = arrowguard.ReadParquet(bytes.NewReader(b), int64(len(b)), mem)
	} else {
		tbl, err = arrowguard.ReadIPC(bytes.NewReader(b), int64(len(b)), mem)
	}
	if err != nil {
		return err
	}
	defer tbl.Release()
	t.Rows = int(tbl.NumRows())
	for i, f := range tbl.Schema().Fields() {
		t.Columns = append(t.Columns, ReadColumn{Name: f.Name, Type: arrowType(f.Type), Nulls: tbl.Column(i).Data().NullN()})
	}
	return nil
}
