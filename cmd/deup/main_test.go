package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deup-screening/deup/drugcomb"
	"github.com/deup-screening/deup/internal/sandbox"
)

// asMain makes the test binary run main() (see TestMain), so that the tests
// below drive the real process: flags, exit status and the sandbox's child,
// which sandbox.Run starts from os.Executable() — this same binary.
const asMain = "DEUP_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		main()
		return
	}
	code := m.Run()
	if fixDir != "" {
		os.RemoveAll(fixDir)
	}
	os.Exit(code)
}

// runDeup runs the test binary as deup with args.
func runDeup(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), asMain+"=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// A damaged GCTX file that makes scigolib/hdf5 ask for 255 TiB (byte 13949
// of lincs/testdata/small.gctx set to 0xff: one of the 43 single-byte
// changes of that 17,808-byte file, each set to 0xff in turn, that made
// the reader ask for 0.4 GB to 280 TB and end the process) gives an error
// naming the file and --max-memory, and the sound file still matches.
func TestDataSignaturesGCTXCapped(t *testing.T) {
	if !sandbox.Supported {
		t.Skip("no address-space cap on this platform")
	}
	dir := t.TempDir()
	b := drugcomb.NewBuilder("score")
	g := b.Drug(drugcomb.Drug{ID: "d1", Name: "Gefitinib"})
	v := b.Drug(drugcomb.Drug{ID: "d2", Name: "VORINOSTAT"})
	if err := b.Measure(g, v, b.CellLine("PC-3"), []float64{1}); err != nil {
		t.Fatal(err)
	}
	screen := filepath.Join(dir, "screen")
	if err := drugcomb.Save(screen, b.Screen("tiny")); err != nil {
		t.Fatal(err)
	}
	sound := filepath.Join("..", "..", "lincs", "testdata", "small.gctx")
	data, err := os.ReadFile(sound)
	if err != nil {
		t.Fatal(err)
	}
	data[13949] = 0xff
	damaged := filepath.Join(dir, "damaged.gctx")
	if err := os.WriteFile(damaged, data, 0o644); err != nil {
		t.Fatal(err)
	}
	text := filepath.Join(dir, "text.gctx")
	if err := os.WriteFile(text, []byte("#1.2\n1\t1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		inStdout string
		inStderr []string
	}{
		{"sound", []string{"--gct", sound}, 0, "2 of 2 drugs have a signature", nil},
		{"damaged", []string{"--gct", damaged}, 1, "",
			[]string{"deup: " + damaged + ": reading it needs more memory than --max-memory 4096 MiB allows", "255.0 TiB block", "raise --max-memory"}},
		// An ordinary error of the child is printed once, by the child,
		// and its exit status is the command's.
		{"not HDF5", []string{"--gct", text}, 1, "", []string{"deup: " + text + ": gctx: not an HDF5 file"}},
		{"bad cap", []string{"--gct", damaged, "--max-memory", "10"}, 2, "", []string{"--max-memory 10: want a number of MiB from 1024"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runDeup(t, append([]string{"data", "signatures", "--screen", screen}, tc.args...)...)
			if code != tc.code || !strings.Contains(out, tc.inStdout) {
				t.Fatalf("exit %d (want %d)\nstdout: %s\nstderr: %s", code, tc.code, out, errs)
			}
			for _, s := range tc.inStderr {
				if !strings.Contains(errs, s) {
					t.Errorf("stderr %q does not contain %q", errs, s)
				}
			}
			if n := strings.Count(errs, "deup: "); tc.code == 1 && n != 1 {
				t.Errorf("stderr has %d error lines, want 1:\n%s", n, errs)
			}
			if strings.Contains(errs, "goroutine") {
				t.Errorf("stderr carries a runtime crash report:\n%s", errs)
			}
		})
	}
}
