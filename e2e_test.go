package main

import (
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEndToEndPTY runs the built binary in a real 200x50 pty with --demo,
// checks that 8 GPUs appear, presses ? s q, and that it exits 0 and restores
// the terminal (leaves the alternate screen and shows the cursor again).
func TestEndToEndPTY(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	tm := startPTY(t, exec.Command(buildBinary(t), "--demo", "--interval", "200ms"), 50, 200)
	tm.waitFor("8 GPUs on screen", func(s string) bool { return strings.Count(s, "H200") >= 8 })
	// back sends keys and waits for the main screen's panes to be drawn again.
	back := func(keys, from string) {
		m := tm.mark()
		tm.send(keys)
		tm.waitFor("the main screen after "+from, func(s string) bool {
			if tm.appeared(s, m, "Why idle") || tm.appeared(s, m, "Processes") {
				return true
			}
			// Already on screen at m (T toggles the tree on the main screen):
			// drawn again since.
			now := screenText(s, tm.cols, tm.rows)
			return (strings.Contains(now, "Why idle") || strings.Contains(now, "Processes")) && now != screenText(s[:m], tm.cols, tm.rows)
		})
	}
	tm.press("?", "press ? or esc to close")
	back("?", "the help overlay")
	// Each view opens and esc comes back: GPU detail (enter on the focused
	// GPU row), topology, then the process tree on and off.
	for _, step := range []struct{ keys, back, marker string }{
		{"\r", "\x1b", "GPU detail"},
		{"t", "\x1b", "Topology"},
		{"T", "T", "· tree"},
	} {
		tm.press(step.keys, step.marker)
		back(step.back, step.marker)
	}
	// s sorts the process table by its next column, GPU% after GPU-MEM.
	tm.press("s", "sort GPU% ▼")
	tm.send("q")
	if code := waitExit(t, tm.cmd, 10*time.Second); code != 0 {
		t.Fatalf("gpuscope exited with status %d after q", code)
	}
	// The last bytes can still be in the pty when Wait returns.
	for _, seq := range []string{"\x1b[?1049l", "\x1b[?25h"} {
		tm.waitFor("the terminal restored ("+strconv.Quote(seq)+")", func(s string) bool { return strings.Contains(s, seq) })
	}
}

// TestSIGTERMRestoresTerminalAndExits143: a supervisor's SIGTERM ends the
// dashboard cleanly (terminal restored) with 128+15, not a quiet 0.
func TestSIGTERMRestoresTerminalAndExits143(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	tm := startPTY(t, exec.Command(buildBinary(t), "--demo"), 24, 80)
	tm.waitFor("the first frame", func(s string) bool { return strings.Count(s, "H200") >= 8 })
	if code := signalAndWait(t, tm.cmd, syscall.SIGTERM); code != 143 {
		t.Fatalf("exit status %d after SIGTERM, want 143", code)
	}
	tm.waitFor("the alternate screen left after SIGTERM", func(s string) bool { return strings.Contains(s, "\x1b[?1049l") })
}
