package almanac

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/deup-screening/deup/chem"
)

// Compound is one structure of NCI's ComboCompoundSet.sdf.
type Compound struct {
	NSC    int
	Title  string
	Line   int       // line of the record in the SD file
	Mol    *chem.Mol // nil when the structure was refused
	SMILES string    // written from Mol; "" when refused
	Err    error     // why the structure was refused (as RDKit refuses it)
}

// ReadCompounds reads an SD file whose records carry the NSC number in the
// data item <NSC> (or, without it, as the title line). Structures RDKit
// refuses come back with Err set; a record without an NSC number, or a
// second record of one NSC, is an error naming its line.
func ReadCompounds(r io.Reader, name string) (map[int]*Compound, error) {
	rd := chem.NewSDReader(r, name)
	out := map[int]*Compound{}
	for {
		rec, err := rd.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		v, ok := rec.Field("NSC")
		if !ok {
			v = rec.Title
		}
		nsc, ok := parseNSC([]byte(strings.TrimSpace(v)))
		if !ok || nsc == 0 {
			return nil, fmt.Errorf("%s:%d: record %q has no NSC number (data item <NSC> or title)", name, rec.Line, rec.Title)
		}
		if c, dup := out[nsc]; dup {
			return nil, fmt.Errorf("%s:%d: NSC %d already given at line %d", name, rec.Line, nsc, c.Line)
		}
		c := &Compound{NSC: nsc, Title: rec.Title, Line: rec.Line, Mol: rec.Mol, Err: rec.Err}
		if rec.Mol != nil {
			c.SMILES, _ = chem.WriteSMILES(rec.Mol)
		}
		out[nsc] = c
	}
}

// ReadNames reads NCI's ComboCompoundNames file: lines "NSC<TAB>name"
// (a first line whose first field is not a number is a header). A
// malformed line is an error naming it.
func ReadNames(r io.Reader, name string) (map[int]string, error) {
	sc := bufio.NewScanner(r)
	out := map[int]string{}
	line := 0
	for sc.Scan() {
		line++
		l := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(l) == "" {
			continue
		}
		f, n, ok := strings.Cut(l, "\t")
		nsc, err := strconv.Atoi(strings.TrimSpace(f))
		if line == 1 && err != nil {
			continue // header (NCI's is "IX<TAB>Drug")
		}
		n = strings.TrimSpace(n)
		if !ok || err != nil || nsc <= 0 || n == "" {
			return nil, fmt.Errorf("%s:%d: want NSC<TAB>name, got %q", name, line, l)
		}
		out[nsc] = n
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return out, nil
}
