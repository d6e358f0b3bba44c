package cli

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestRunFunctionsShort: a command's run* function parses, calls a domain
// function and prints; at most 80 lines (issue 28), in every file.
func TestRunFunctionsShort(t *testing.T) {
	const maxLines = 80
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "run") {
				continue
			}
			if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxLines {
				t.Errorf("%s: %s is %d lines, more than %d: split it into parsing, a call of a domain function and printing", f, fd.Name.Name, n, maxLines)
			}
		}
	}
}

// layerRow is one row of the table in docs/layers.md.
type layerRow struct {
	line      int // in docs/layers.md
	layer     int
	name      string   // the layer's name
	pkgs      []string // paths below the module; "x/..." is x and below
	only, not []string // see docs/layers.md
}

// layerPattern reports whether a path matches pattern ("x" or "x/...")
// and how specifically: an exact name beats any pattern, a longer pattern a
// shorter one.
func layerPattern(pattern, path string) (ok bool, specificity int) {
	if base, isPattern := strings.CutSuffix(pattern, "/..."); isPattern {
		if path == base || strings.HasPrefix(path, base+"/") {
			return true, len(base)
		}
		return false, 0
	}
	return path == pattern, 1 << 20
}

var backticked = regexp.MustCompile("`([^`]+)`")

// readLayers reads the table of docs/layers.md: the rows below the header
// line "| layer | packages | links |".
func readLayers(t *testing.T, path string) []layerRow {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows []layerRow
	in := false
	for i, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "| layer | packages | links |"):
			in = true
			continue
		case !in || strings.HasPrefix(line, "|---"):
			continue
		case !strings.HasPrefix(line, "|"):
			in = false
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 3 {
			t.Fatalf("%s:%d: want 3 cells: %q", path, i+1, line)
		}
		num, name, _ := strings.Cut(cells[0], " ")
		r := layerRow{line: i + 1, name: name}
		if r.layer, err = strconv.Atoi(num); err != nil {
			t.Fatalf("%s:%d: layer %q: want a number and a name", path, i+1, cells[0])
		}
		for _, m := range backticked.FindAllStringSubmatch(cells[1], -1) {
			r.pkgs = append(r.pkgs, m[1])
		}
		names := func(s string) (out []string) {
			for _, m := range backticked.FindAllStringSubmatch(s, -1) {
				out = append(out, m[1])
			}
			return out
		}
		links := cells[2]
		switch {
		case strings.HasPrefix(links, "only "):
			r.only = names(links)
		case strings.HasPrefix(links, "layers 0–"+num):
			if _, not, ok := strings.Cut(links, ", not "); ok {
				r.not = names(not)
			}
		default:
			t.Fatalf("%s:%d: links %q: want \"only …\" or \"layers 0–%s[, not …]\"", path, i+1, links, num)
		}
		if len(r.pkgs) == 0 {
			t.Fatalf("%s:%d: no packages", path, i+1)
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no layer table", path)
	}
	return rows
}

// listedPackage is a package of the build as go list -deps reports it.
type listedPackage struct {
	standard bool
	imports  []string
	dir      string
	goFiles  []string
}

// goListDeps lists the module's packages and everything they link (not
// their tests): go list -deps ./... in the module root.
func goListDeps(t *testing.T, root string) map[string]*listedPackage {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command, to list the module's dependencies: %v", err)
	}
	cmd := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}}\t{{.Standard}}\t{{join .Imports \" \"}}\t{{.Dir}}\t{{join .GoFiles \" \"}}", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./...: %v\n%s", err, stderr.String())
	}
	pkgs := map[string]*listedPackage{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			t.Fatalf("go list: line %q", line)
		}
		pkgs[f[0]] = &listedPackage{standard: f[1] == "true", imports: strings.Fields(f[2]), dir: f[3], goFiles: strings.Fields(f[4])}
	}
	return pkgs
}

// TestImportLayers checks the module's layers, transitively, against the
// table of docs/layers.md (issue 39): every package of the module has a
// row; nothing links (imports directly or through others, as go list -deps
// counts) a package of a higher layer; a row's "only" list bounds what
// its packages link of the project (the leaves: internal/ alone), and its
// "not" list names what they must not link (the terminal UI: no model, no
// campaign, no gorgonia). With -v it logs the number of packages, the
// imports that reach up a layer and the largest package.
func TestImportLayers(t *testing.T) {
	const module = "github.com/deup-screening/deup"
	root := filepath.Join(pkgDir, "..", "..", "..", "..")
	rows := readLayers(t, filepath.Join(root, "docs", "layers.md"))
	listed := goListDeps(t, root)

	rel := func(path string) (string, bool) {
		if r, ok := strings.CutPrefix(path, module+"/"); ok {
			return r, true
		}
		return path, false
	}
	// Each project package's row: the most specific match.
	rowOf := map[string]*layerRow{}
	named := map[string]bool{}
	var project []string
	for path := range listed {
		p, ok := rel(path)
		if !ok {
			continue
		}
		project = append(project, p)
		best := -1
		for i := range rows {
			for _, pat := range rows[i].pkgs {
				if ok, s := layerPattern(pat, p); ok && s > best {
					best, rowOf[p] = s, &rows[i]
					named[pat] = true
				}
			}
		}
		if rowOf[p] == nil {
			t.Errorf("%s has no row in docs/layers.md: put it in its layer", p)
		}
	}
	slices.Sort(project)
	if len(project) < 40 {
		t.Fatalf("go list found %d packages of the module under %s: the module root is not where the test expects it", len(project), root)
	}
	for _, r := range rows {
		for _, pat := range r.pkgs {
			if !strings.HasSuffix(pat, "/...") && !named[pat] {
				t.Errorf("docs/layers.md:%d: %s names no package of the module", r.line, pat)
			}
		}
	}

	// Walk each package's dependencies breadth first, remembering through
	// which import each was reached, and check every one.
	up, direct := 0, 0
	for _, p := range project {
		r := rowOf[p]
		if r == nil {
			continue
		}
		for _, im := range listed[module+"/"+p].imports {
			if d, ok := rel(im); ok {
				direct++
				if rd := rowOf[d]; rd != nil && rd.layer > r.layer {
					up++
				}
			}
		}
		via := map[string]string{module + "/" + p: ""}
		queue := []string{module + "/" + p}
		for len(queue) > 0 {
			cur := queue[0]
			queue = queue[1:]
			for _, im := range listed[cur].imports {
				if _, seen := via[im]; seen || listed[im] == nil {
					continue
				}
				via[im] = cur
				queue = append(queue, im)
				if listed[im].standard {
					continue
				}
				if why := layerBreak(p, r, im, rowOf, rel); why != "" {
					chain := []string{}
					for c := im; c != ""; c = via[c] {
						n, _ := rel(c)
						chain = append(chain, n)
					}
					slices.Reverse(chain)
					t.Errorf("%s links %s (%s): %s", p, strings.TrimPrefix(im, module+"/"), strings.Join(chain, " → "), why)
				}
			}
		}
	}

	largest, lines := "", 0
	for _, p := range project {
		lp := listed[module+"/"+p]
		n := 0
		for _, f := range lp.goFiles {
			b, err := os.ReadFile(filepath.Join(lp.dir, f))
			if err != nil {
				t.Fatal(err)
			}
			n += bytes.Count(b, []byte("\n"))
		}
		if n > lines {
			largest, lines = p, n
		}
	}
	t.Logf("%d packages; %d imports between them, %d reaching up a layer; largest package %s (%d lines of non-test Go)", len(project), direct, up, largest, lines)
	if up != 0 {
		t.Errorf("%d imports reach up a layer, want 0", up)
	}
}

// layerBreak says which rule of docs/layers.md package p (in row r)
// breaks by linking dep (a full import path, not the standard library), or
// "" when it breaks none.
func layerBreak(p string, r *layerRow, dep string, rowOf map[string]*layerRow, rel func(string) (string, bool)) string {
	d, inModule := rel(dep)
	for _, pat := range r.not {
		if ok, _ := layerPattern(pat, d); ok {
			return "its row in docs/layers.md says not " + pat
		}
	}
	if !inModule {
		return ""
	}
	if r.only != nil && !strings.HasPrefix(d, p+"/") && !slices.ContainsFunc(r.only, func(pat string) bool { ok, _ := layerPattern(pat, d); return ok }) {
		return "its row in docs/layers.md says only " + strings.Join(r.only, ", ")
	}
	if rd := rowOf[d]; rd != nil && rd.layer > r.layer {
		return "it reaches up from layer " + strconv.Itoa(r.layer) + " " + r.name + " to layer " + strconv.Itoa(rd.layer) + " " + rd.name
	}
	return ""
}
