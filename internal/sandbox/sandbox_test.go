package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// childEnv makes the test binary act as a sandboxed child (see TestMain).
const childEnv = "SANDBOX_TEST_CHILD"

// TestMain runs the child's side when childEnv is set: it applies the cap
// and then does what the variable says.
func TestMain(m *testing.M) {
	action := os.Getenv(childEnv)
	if action == "" {
		os.Exit(m.Run())
	}
	capped, err := Apply(os.Getenv)
	if err != nil || !capped {
		fmt.Fprintln(os.Stderr, "child: cap not applied:", capped, err)
		os.Exit(3)
	}
	switch {
	case action == "ok":
		fmt.Println("hello")
		fmt.Fprint(os.Stderr, "progress 1/2\rprogress 2/2\n")
	case action == "fail":
		fmt.Fprintln(os.Stderr, "child: bad input")
		os.Exit(1)
	case strings.HasPrefix(action, "alloc "):
		var n int
		fmt.Sscan(strings.TrimPrefix(action, "alloc "), &n)
		b := make([]byte, n)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		fmt.Println("allocated", len(b))
	case action == "panic":
		panic("boom")
	}
	os.Exit(0)
}

func TestRun(t *testing.T) {
	if !Supported {
		t.Skip("no address-space limit on this platform")
	}
	const gib = 2 << 30 // 2 GiB: the runtime itself maps about 1 GiB
	for _, tc := range []struct {
		action     string
		limit      int64
		wantOut    string
		wantErr    string // substring; "" for success
		wantMemory bool
		wantStderr string
		noStderr   string
	}{
		{action: "ok", limit: gib, wantOut: "hello\n", wantStderr: "progress 1/2\rprogress 2/2\n"},
		{action: "fail", limit: gib, wantErr: "exit status 1", wantStderr: "child: bad input\n"},
		// 100 MiB fits in 2 GiB; 64 GiB does not (the Go runtime asks
		// the OS for the whole block at once).
		{action: "alloc 104857600", limit: gib, wantOut: "allocated 104857600\n"},
		{action: "alloc 68719476736", limit: gib, wantErr: "64.0 GiB block beyond its cap of 2.0 GiB", wantMemory: true, noStderr: "goroutine"},
		{action: "panic", limit: gib, wantErr: "crashed: panic: boom", wantStderr: "goroutine"},
	} {
		t.Run(tc.action, func(t *testing.T) {
			var out, errOut bytes.Buffer
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			err = Run(context.Background(), exe, nil, Config{
				Limit: tc.limit, Stdout: &out, Stderr: &errOut,
				Env: append(os.Environ(), childEnv+"="+tc.action),
			})
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Run: %v (stderr %q)", err, errOut.String())
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("Run: error %v, want one containing %q (stderr %q)", err, tc.wantErr, errOut.String())
			}
			if got := errors.Is(err, ErrMemory); got != tc.wantMemory {
				t.Errorf("errors.Is(err, ErrMemory) = %v, want %v", got, tc.wantMemory)
			}
			if out.String() != tc.wantOut {
				t.Errorf("stdout %q, want %q", out.String(), tc.wantOut)
			}
			if !strings.Contains(errOut.String(), tc.wantStderr) {
				t.Errorf("stderr %q, want it to contain %q", errOut.String(), tc.wantStderr)
			}
			if tc.noStderr != "" && strings.Contains(errOut.String(), tc.noStderr) {
				t.Errorf("stderr %q contains %q", errOut.String(), tc.noStderr)
			}
			var ee *ExitError
			if tc.action == "fail" && (!errors.As(err, &ee) || ee.Code != 1) {
				t.Errorf("error %v is not ExitError{1}", err)
			}
		})
	}
}

func TestApply(t *testing.T) {
	for _, tc := range []struct {
		val     string
		capped  bool
		wantErr bool
	}{
		{"", false, false},
		{"lots", false, true},
		{"1024", false, true}, // below the minimum
	} {
		capped, err := Apply(func(string) string { return tc.val })
		if capped != tc.capped || (err != nil) != tc.wantErr {
			t.Errorf("Apply(%q) = %v, %v; want %v, error %v", tc.val, capped, err, tc.capped, tc.wantErr)
		}
	}
}

func TestFilterStderr(t *testing.T) {
	for _, tc := range []struct {
		name, in, out, report string
	}{
		{"plain", "a\nb\n", "a\nb\n", ""},
		{"progress", "1/3\r2/3\r3/3\n", "1/3\r2/3\r3/3\n", ""},
		{"no final newline", "done", "done", ""},
		{"oom", "reading\nruntime: out of memory: cannot allocate 8-byte block (1 in use)\nfatal error: out of memory\n\ngoroutine 1\n",
			"reading\n", "runtime: out of memory: cannot allocate 8-byte block (1 in use)\nfatal error: out of memory\n\ngoroutine 1\n"},
		{"mid-line is not a crash", "x panic: no\n", "x panic: no\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w bytes.Buffer
			rep := filterStderr(strings.NewReader(tc.in), &w)
			if w.String() != tc.out || rep.String() != tc.report {
				t.Errorf("passed %q, kept %q; want %q, %q", w.String(), rep.String(), tc.out, tc.report)
			}
		})
	}
}
