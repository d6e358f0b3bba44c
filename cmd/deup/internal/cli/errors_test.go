package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/data"
	"github.com/deup-screening/deup/drugcomb"
)

var updateErrors = flag.Bool("update-errors", false, "rewrite testdata/errors.golden")

// TestErrorMessages runs every command with a missing file, a directory
// that is not a screen, a bad model file and an output directory that does
// not exist, and compares what it prints with testdata/errors.golden
// (-update-errors rewrites it). Beyond the golden file: no message starts
// with, or holds after a colon, an internal package's name, and each names
// the file it is about.
func TestErrorMessages(t *testing.T) {
	t.Chdir(t.TempDir())
	sc, err := data.Synth(data.SynthConfig{Seed: 3, Drugs: 8, CellLines: 1, Pairs: 20, ReplicateFrac: 0.2, MaxReplicates: 2,
		LatentDim: 2, Scale: 10, NoiseMin: 1, NoiseMax: 3, RareWeight: 0.1, RareEffect: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := drugcomb.Save("scr", sc); err != nil {
		t.Fatal(err)
	}
	if err := drugcomb.Save("broken", sc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("broken", drugcomb.PairsArrowFile), []byte("ARROW1\x00\x00truncated"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"notscreen/notes.txt": "not a screen\n",
		"bad.model":           "this is not a model file\n",
		"cat.csv":             "id,smiles\na,CCO\n",
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		args string
		file string // the file the message must name
	}{
		{"train --screen nosuchdir --out m.model", "nosuchdir"},
		{"train --screen notscreen --out m.model", "notscreen"},
		{"train --screen scr/meta.json --out m.model", "scr/meta.json"},
		{"train --screen broken --out m.model", "broken"},
		{"train --screen scr --out nodir/m.model", "nodir"},
		{"bench --screen nosuchdir", "nosuchdir"},
		{"bench --screen notscreen", "notscreen"},
		{"predict --model nosuch.model --all-pairs --out x.csv", "nosuch.model"},
		{"predict --model bad.model --all-pairs --out x.csv", "bad.model"},
		{"predict --model scr --all-pairs --out x.csv", "scr"},
		{"predict --model bad.model --pairs nosuch.csv --out x.csv", "nosuch.csv"},
		{"predict --model bad.model --pairs notscreen --out x.csv", "notscreen"},
		{"predict --model bad.model --all-pairs --drugs nosuch.csv --out x.csv", "nosuch.csv"},
		{"predict --model bad.model --all-pairs --out nodir/x.csv", "nodir"},
		{"suggest --model nosuch.model --out s.csv", "nosuch.model"},
		{"suggest --model bad.model --out s.csv", "bad.model"},
		{"suggest --model bad.model --out nodir/s.csv", "nodir"},
		{"suggest --campaign nosuchcamp --out s.csv", "nosuchcamp"},
		{"suggest --campaign notscreen --out s.csv", "notscreen"},
		{"campaign init --screen notscreen c1", "notscreen"},
		{"campaign init --candidates nosuch.csv c1", "nosuch.csv"},
		{"campaign init --from-model bad.model c1", "bad.model"},
		{"campaign init --from-model nosuch.model c1", "nosuch.model"},
		{"campaign step nosuchcamp", "nosuchcamp"},
		{"campaign report nosuchcamp", "nosuchcamp"},
		{"campaign import-results nosuchcamp nosuch.csv", "nosuch.csv"},
		{"campaign simulate --screen nosuchdir --out sim", "nosuchdir"},
		{"tui --screen nosuchdir", "nosuchdir"},
		{"tui --model bad.model", "bad.model"},
		{"tui --predictions nosuch.csv", "nosuch.csv"},
		{"data inspect nosuchdir", "nosuchdir"},
		{"data inspect notscreen", "notscreen"},
		{"data inspect scr/meta.json", "scr/meta.json"},
		{"data inspect broken", "broken"},
		{"data import --format drugcomb --out s2 nosuch.csv", "nosuch.csv"},
		{"data import --format drugcomb --out s2 notscreen", "notscreen"},
		{"data import --format almanac --drugs nosuch.csv --pairs cat.csv --out s2", "nosuch.csv"},
		{"data signatures --gct nosuch.gct --screen scr", "nosuch.gct"},
		{"data signatures --gct cat.csv --pertinfo nosuch.txt --screen scr", "nosuch.txt"},
		{"campaign report scr --json x.json", "scr"},
		{"fingerprint nosuch.csv", "nosuch.csv"},
		{"fingerprint --out nodir/fp.csv cat.csv", "nodir"},
	}
	var golden bytes.Buffer
	for _, c := range cases {
		args := strings.Fields(c.args)
		var out, errb bytes.Buffer
		code := Main(context.Background(), args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
		fmt.Fprintf(&golden, "$ deup %s\n%sexit %d\n\n", c.args, errb.String(), code)
		msg := lastLine(errb.String())
		if code != 1 && code != 2 {
			t.Errorf("deup %s: exit %d, want 1 or 2", c.args, code)
		}
		if code == 2 { // usage error: the message precedes the usage line
			msg = strings.SplitN(errb.String(), "\n", 2)[0]
		}
		if !strings.Contains(msg, c.file) {
			t.Errorf("deup %s: message %q does not name %s", c.args, msg, c.file)
		}
		if got := userMessage(errors.New(msg)); got != msg {
			t.Errorf("deup %s: message %q holds an internal package name (%q without)", c.args, msg, got)
		}
	}
	path := filepath.Join(testdataDir(t), "errors.golden")
	if *updateErrors {
		if err := os.WriteFile(path, golden.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/cli -run TestErrorMessages -update-errors)", err)
	}
	if !bytes.Equal(golden.Bytes(), want) {
		t.Errorf("messages differ from %s (-update-errors rewrites it):\n%s", path, golden.String())
	}
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// testdataDir is the package's testdata directory, found from the source
// file's directory (the test changes its working directory).
func testdataDir(t *testing.T) string {
	t.Helper()
	return filepath.Join(pkgDir, "testdata")
}

// pkgDir is the package directory, the working directory the test binary
// starts in.
var pkgDir = func() string {
	d, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return d
}()

func TestUserMessage(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, tc := range []struct{ in, want string }{
		{"drugcomb: open: open x/meta.json: not a directory", "open x/meta.json: not a directory"},
		{"m.deup: model: not a valid model file", "m.deup: not a valid model file"},
		{"usage: deup suggest: suggest: unknown suggestions format", "usage: deup suggest: unknown suggestions format"},
		{"p.csv:2: column drug_a: unknown drug", "p.csv:2: column drug_a: unknown drug"},
		{"lincs: x.gct: line 3: bad header", "x.gct: line 3: bad header"},
	} {
		if got := userMessage(errors.New(tc.in)); got != tc.want {
			t.Errorf("userMessage(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// A prefix that is also the name of a file that exists may be the path
	// the message is about: kept.
	if err := os.WriteFile("model", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := userMessage(errors.New("model: model: not a valid model file")), "model: model: not a valid model file"; got != want {
		t.Errorf("with a file named model: %q, want %q", got, want)
	}
}
