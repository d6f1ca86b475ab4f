package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// silentTTYQueries are what Bubble Tea v1's init and termenv send to learn
// the background colour (OSC 11, then a cursor-position report as a
// sentinel); a terminal that never answers made them cost 5 s
// (ui/termguard).
var silentTTYQueries = []string{"\x1b]11;?", "\x1b[6n"}

// TestFirstFrameInSilentTerminal starts the dashboard in a pty that answers
// nothing, as a serial console, `script` or CI does, with the default theme,
// a named theme and --no-color: it must ask the terminal nothing and paint
// its first frame at once. The bound is loose (3 s, under a loaded test
// run); before ui/termguard every case took 5.2 s, and the measured figure
// is in docs/benchmarks.md.
func TestFirstFrameInSilentTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	for _, args := range [][]string{{"--demo"}, {"--demo", "--theme", "light"}, {"--demo", "--no-color"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cmd := exec.Command(bin, args...)
			cmd.Env = []string{"CI="}
			start := time.Now()
			tm := startPTY(t, cmd, 24, 80)
			tm.waitFor("the first frame", func(s string) bool { return strings.Contains(s, "Why idle") })
			took := time.Since(start)
			t.Logf("first frame after %v", took.Round(time.Millisecond))
			if took > 3*time.Second {
				t.Errorf("first frame after %v in a terminal that never answers", took)
			}
			for _, q := range silentTTYQueries {
				if strings.Contains(tm.out.String(), q) {
					t.Errorf("sent the terminal query %q", q)
				}
			}
		})
	}
}

// TestVersionAsksTheTerminalNothing: a command that draws nothing must not
// query the terminal either (Bubble Tea's init ran for every command).
func TestVersionAsksTheTerminalNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	cmd := exec.Command(buildBinary(t), "version")
	cmd.Env = []string{"CI="}
	tm := startPTY(t, cmd, 24, 80)
	if code := waitExit(t, cmd, 3*time.Second); code != 0 {
		t.Fatalf("gpuscope version: exit status %d", code)
	}
	tm.waitFor("the version line", func(s string) bool { return strings.Contains(s, "gpuscope") })
	for _, q := range silentTTYQueries {
		if strings.Contains(tm.out.String(), q) {
			t.Errorf("version sent the terminal query %q", q)
		}
	}
}
