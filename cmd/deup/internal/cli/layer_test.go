package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
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
