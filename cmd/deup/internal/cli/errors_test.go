package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/cmd/deup/internal/cmdline"
	"github.com/deup-screening/deup/drugcomb"
)

// TestErrorMessages runs every command with a missing file, a directory
// that is not a screen, a bad model file and an output directory that does
// not exist (testdata/script/errors.txtar holds what each prints), and
// checks that no message starts with, or holds after a colon, an internal
// package's name, and that each names the file it is about.
func TestErrorMessages(t *testing.T) {
	t.Chdir(t.TempDir())
	sc, err := smallScreen()
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
	for _, c := range cases {
		args := strings.Fields(c.args)
		_, serr, code := run(t, args...)
		msg := lastLine(serr)
		if code != 1 && code != 2 {
			t.Errorf("deup %s: exit %d, want 1 or 2", c.args, code)
		}
		if code == 2 { // usage error: the message precedes the usage line
			msg = strings.SplitN(serr, "\n", 2)[0]
		}
		if !strings.Contains(msg, c.file) {
			t.Errorf("deup %s: message %q does not name %s", c.args, msg, c.file)
		}
		if got := cmdline.UserMessage(errors.New(msg)); got != msg {
			t.Errorf("deup %s: message %q holds an internal package name (%q without)", c.args, msg, got)
		}
	}
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
