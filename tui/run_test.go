package tui

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestRun: the program enters the alternate screen on its output and quits on q (the
// Quit key); a cancelled context ends it with the context's error.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := Run(context.Background(), testSource(), Options{}, strings.NewReader("q"), &out, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\x1b[?1049h") { // the alternate screen
		t.Errorf("output %q does not enter the alternate screen", out.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Run(ctx, testSource(), Options{}, strings.NewReader(""), &out, true); err != context.Canceled {
		t.Errorf("cancelled: err %v, want context.Canceled", err)
	}
}
