package rusage

import (
	"runtime"
	"strings"
	"testing"
)

// TestSelf: on a Unix system the process has used some CPU time and holds
// at least the memory of a 32 MiB buffer it has just touched.
func TestSelf(t *testing.T) {
	buf := make([]byte, 32<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	burn := 0
	for i := 0; i < 50_000_000; i++ {
		burn += i % 7
	}
	cpu, rss, ok := Self()
	runtime.KeepAlive(buf)
	if !ok {
		t.Skip("no getrusage on " + runtime.GOOS)
	}
	if cpu <= 0 {
		t.Errorf("CPU time %v after a busy loop (%d), want > 0", cpu, burn)
	}
	if rss < 32<<20 {
		t.Errorf("peak RSS %d bytes, want at least the 32 MiB just written", rss)
	}
}

func TestNote(t *testing.T) {
	_, _, ok := Self()
	got := Note()
	if ok != strings.HasPrefix(got, ", CPU time ") || ok != strings.HasSuffix(got, " MB") || !ok && got != "" {
		t.Errorf("Note() = %q with Self ok %v; want \", CPU time … s, peak resident memory … MB\" exactly when ok", got, ok)
	}
}
