package plate

import (
	"fmt"
	"strconv"
	"strings"
)

// Format is a microplate's geometry: Rows × Cols wells.
type Format struct {
	Rows, Cols int
}

// The standard formats (ANSI/SLAS 4-2004).
var (
	Plate96   = Format{8, 12}
	Plate384  = Format{16, 24}
	Plate1536 = Format{32, 48}
)

// ParseFormat reads a format by its well count: "96", "384" or "1536".
func ParseFormat(s string) (Format, error) {
	switch strings.TrimSpace(s) {
	case "96":
		return Plate96, nil
	case "384":
		return Plate384, nil
	case "1536":
		return Plate1536, nil
	}
	return Format{}, fmt.Errorf("plate: format %q: want 96, 384 or 1536", s)
}

// FormatOf is the standard format with rows × cols wells.
func FormatOf(rows, cols int) (Format, bool) {
	for _, f := range []Format{Plate96, Plate384, Plate1536} {
		if f.Rows == rows && f.Cols == cols {
			return f, true
		}
	}
	return Format{}, false
}

// Wells is the number of wells.
func (f Format) Wells() int { return f.Rows * f.Cols }

func (f Format) String() string { return strconv.Itoa(f.Wells()) }

// RowName is the letter name of row r (0-based): A … Z, then AA … AF on
// a 1536-well plate.
func RowName(r int) string {
	if r < 26 {
		return string(rune('A' + r))
	}
	return "A" + string(rune('A'+r-26))
}

// WellName is the name of the well at row r, column c (0-based): "A1",
// "P24", "AF48".
func WellName(r, c int) string { return RowName(r) + strconv.Itoa(c+1) }

// ParseRow reads a row name (case-insensitive) as a 0-based row.
func ParseRow(s string) (int, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	switch {
	case len(s) == 1 && s[0] >= 'A' && s[0] <= 'Z':
		return int(s[0] - 'A'), true
	case len(s) == 2 && s[0] == 'A' && s[1] >= 'A' && s[1] <= 'Z':
		return 26 + int(s[1]-'A'), true
	}
	return 0, false
}

// ParseWell reads a well name such as "A1", "a01" or "AF48" as 0-based
// row and column; the well must lie on f.
func (f Format) ParseWell(s string) (r, c int, err error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] < '0' || s[i] > '9') {
		i++
	}
	r, ok := ParseRow(s[:i])
	n, nerr := strconv.Atoi(s[i:])
	if !ok || nerr != nil || i == len(s) {
		return 0, 0, fmt.Errorf("well %q is not a well name (want a row letter and a column number, as A1)", s)
	}
	c = n - 1
	if r >= f.Rows || c < 0 || c >= f.Cols {
		return 0, 0, fmt.Errorf("well %q is not on a %d-well plate (rows A–%s, columns 1–%d)", s, f.Wells(), RowName(f.Rows-1), f.Cols)
	}
	return r, c, nil
}
