package vocab

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// pattern compiles a column name with {placeholders}: a placeholder with
// values in vars matches one of them, any other one segment (no '.').
func pattern(name string, vars map[string][]string) (*regexp.Regexp, int) {
	var b strings.Builder
	b.WriteString("^")
	literal := 0
	for name != "" {
		i := strings.IndexByte(name, '{')
		j := strings.IndexByte(name, '}')
		if i < 0 || j < i {
			b.WriteString(regexp.QuoteMeta(name))
			literal += len(name)
			break
		}
		b.WriteString(regexp.QuoteMeta(name[:i]))
		literal += i
		if vs, ok := vars[name[i+1:j]]; ok {
			q := make([]string, len(vs))
			for k, v := range vs {
				q[k] = regexp.QuoteMeta(v)
			}
			b.WriteString("(?:" + strings.Join(q, "|") + ")")
			if len(vs) == 0 {
				b.WriteString("$.") // matches nothing
			}
		} else {
			b.WriteString(`[^.]+`)
		}
		name = name[j+1:]
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String()), literal
}

// expand returns name with its placeholders replaced by every combination
// of their values in vars; nil when a placeholder has no values given.
func expand(name string, vars map[string][]string) []string {
	i := strings.IndexByte(name, '{')
	if i < 0 {
		return []string{name}
	}
	j := strings.IndexByte(name[i:], '}') + i
	vs, ok := vars[name[i+1:j]]
	if !ok {
		return nil
	}
	var out []string
	for _, v := range vs {
		for _, rest := range expand(name[j+1:], vars) {
			out = append(out, name[:i]+v+rest)
		}
	}
	return out
}

// compatible reports whether a column read from a file of format f as type
// got (with nulls missing values) fits the vocabulary's column c.
func compatible(f Format, c Column, got Type, nulls int) error {
	if nulls > 0 && !c.Nullable && !(f == CSV && c.Type == String) {
		return fmt.Errorf("%d missing values, but the column is never missing", nulls)
	}
	if got == Null {
		if !c.Nullable && !(f == CSV && c.Type == String) {
			return fmt.Errorf("every value is missing, but the column is never missing")
		}
		return nil
	}
	switch f {
	case Parquet, Arrow:
		if got != c.Type {
			return fmt.Errorf("type %s, want %s", got, c.Type)
		}
		return nil
	case CSV:
		switch c.Type {
		case String:
			return nil // CSV carries no types: "5702198" reads as a number
		case ListInt32:
			if got == String || got == Int64 { // space-separated integers
				return nil
			}
		case Int32, Int64, Uint64:
			if got == Int64 {
				return nil
			}
		default:
			if got == c.Type {
				return nil
			}
		}
		return fmt.Errorf("reads as %s, want %s", got, c.Type)
	case JSON:
		want := c.Type
		switch want {
		case Int32, Uint64:
			want = Int64
		}
		if got != want {
			return fmt.Errorf("reads as %s, want %s", got, c.Type)
		}
		return nil
	}
	return fmt.Errorf("unknown format %q", f)
}

// Check compares the table t, read by ReadFile, with the vocabulary of f.
// vars gives the values of f's placeholders ({score}: the screen's score
// names; {pairs_column}: the extra columns of a --pairs file); a
// placeholder without values matches any name. It returns every problem
// found, joined, naming the file and the column.
func (f File) Check(t *Table, vars map[string][]string) error {
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("%s (%s, %s): %s", t.Path, f.Key, t.Format, fmt.Sprintf(format, a...)))
	}
	okFormat := false
	for _, ff := range f.Formats {
		okFormat = okFormat || ff == t.Format
	}
	if !okFormat {
		bad("format %s is not one of %v", t.Format, f.Formats)
	}
	type compiled struct {
		re      *regexp.Regexp
		literal int
	}
	pats := make([]compiled, len(f.Columns))
	for i, c := range f.Columns {
		pats[i].re, pats[i].literal = pattern(c.Name, vars)
	}
	seen := make([]int, len(f.Columns))
	for _, rc := range t.Columns {
		best := -1
		for i, p := range pats {
			if p.re.MatchString(rc.Name) && (best < 0 || p.literal > pats[best].literal) {
				best = i
			}
		}
		if best < 0 {
			bad("column %q is not in the vocabulary", rc.Name)
			continue
		}
		seen[best]++
		if err := compatible(t.Format, f.Columns[best], rc.Type, rc.Nulls); err != nil {
			bad("column %q: %v", rc.Name, err)
		}
	}
	have := map[string]bool{}
	for _, rc := range t.Columns {
		have[rc.Name] = true
	}
	for i, c := range f.Columns {
		if c.Optional || strings.Contains(c.Name, "[]") {
			continue
		}
		names := expand(c.Name, vars)
		if names == nil { // a free placeholder: at least one match
			if seen[i] == 0 {
				bad("no column matches %q", c.Name)
			}
			continue
		}
		for _, n := range names {
			if !have[n] {
				bad("column %q is missing", n)
			}
		}
	}
	return errors.Join(errs...)
}
