package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
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

// TestImportLayers checks the import graph of the module's non-test code
// (issue 28): internal/ holds leaves only (no package there imports a
// project package outside internal/), nothing outside cmd/ imports a
// command, cmdline (the command line's plumbing) is a leaf too, and the
// terminal UI takes what it needs from campaigns as parameters (no tui
// package imports active).
func TestImportLayers(t *testing.T) {
	const module = "github.com/deup-screening/deup/"
	root := filepath.Join(pkgDir, "..", "..", "..", "..")
	rules := []struct {
		from, to string // slash-terminated path prefixes below the module
		why      string
	}{
		{"internal/", "", "internal/ holds leaves: its packages import only internal/ and outside modules"},
		{"", "cmd/", "only commands import commands"},
		{"tui/", "active/", "the terminal UI takes campaign data as parameters"},
		{"cmd/deup/internal/cmdline/", "", "the command line's plumbing is a leaf: it knows no domain package"},
	}
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		af, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		from := filepath.ToSlash(rel) + "/"
		for _, im := range af.Imports {
			p := strings.Trim(im.Path.Value, `"`)
			if !strings.HasPrefix(p, module) {
				continue
			}
			to := strings.TrimPrefix(p, module) + "/"
			for _, r := range rules {
				if !strings.HasPrefix(from, r.from) {
					continue
				}
				bad := strings.HasPrefix(to, r.to)
				if r.to == "" { // a leaf → anything outside internal/
					bad = !strings.HasPrefix(to, "internal/")
				}
				if bad && (r.to == "" || !strings.HasPrefix(from, r.to)) {
					t.Errorf("%s imports %s: %s", strings.TrimSuffix(from, "/"), strings.TrimSuffix(to, "/"), r.why)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d Go files under %s: the module root is not where the test expects it", files, root)
	}
}
