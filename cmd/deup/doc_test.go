package main

import (
	"bytes"
	"context"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/deup-screening/deup/cmd/deup/internal/cli"
)

// TestDocMatchesHelp: the package documentation (go doc ./cmd/deup) lists
// every subcommand exactly as 'deup -h' does, so the two cannot drift.
func TestDocMatchesHelp(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Doc.Text()
	var out, errb bytes.Buffer
	if code := cli.Main(context.Background(), []string{"-h"}, cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}); code != 0 {
		t.Fatalf("deup -h: exit %d", code)
	}
	help := out.String() + errb.String()
	n := 0
	for _, line := range strings.Split(help, "\n") {
		line = strings.TrimSpace(line) // the title and trailer lines are paraphrased in the doc
		fields := strings.Fields(line)
		if len(fields) < 2 || strings.HasSuffix(fields[0], ":") || fields[0] == "Run" {
			continue
		}
		n++
		if !strings.Contains(doc, line) {
			t.Errorf("doc.go lacks the help line %q (update doc.go from 'deup -h')", line)
		}
	}
	if n < 5 {
		t.Fatalf("found %d subcommand lines in 'deup -h':\n%s", n, help)
	}
	// And no subcommand in the doc that the help does not list.
	inList := false
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "Subcommands:"):
			inList = true
		case inList && strings.HasPrefix(line, "Run "):
			inList = false
		case inList && strings.TrimSpace(line) != "":
			if !strings.Contains(help, strings.TrimSpace(line)) {
				t.Errorf("doc.go lists %q, which 'deup -h' does not", strings.TrimSpace(line))
			}
		}
	}
}
