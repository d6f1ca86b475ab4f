package main

import (
	"bytes"
	"strings"
	"testing"
)

// A GPU that falls off the bus during a check and comes back after a reset
// before the check ends (the demo's lost fault: gone at 60 s, back at
// 150 s) fails the check: the verdict is not just the last moment's.
func TestCheckCountsAGPULostMidway(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"check", "--demo=healthy", "--demo-fault", "lost", "--for", "3m"}, &out, &errb)
	if code != 2 || !strings.Contains(out.String(), "GPU 3 fell off the bus") || !strings.Contains(out.String(), "gone by its end") {
		t.Fatalf("exit %d, want 2 naming the lost GPU:\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"check", "--demo=healthy", "--for", "3m"}, &out, &errb); code != 0 {
		t.Errorf("healthy: exit %d\n%s", code, out.String())
	}
}
