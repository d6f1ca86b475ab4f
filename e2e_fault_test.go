package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestDemoFaultsPTY drives `--demo --demo-fault all` in a real pty: the lost
// GPU and the failed call are on screen, and the process whose command line
// holds escape sequences is shown escaped — the raw sequence (which would
// retitle and clear the user's terminal) never reaches the terminal.
func TestDemoFaultsPTY(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	cmd := exec.Command(bin, "--demo", "--demo-fault", "all")
	cmd.Env = append(os.Environ(), "TERM=screen")
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	var out screen
	go func() { _, _ = copyUntilEOF(&out, ptmx) }()
	waitFor(t, &out, "the lost GPU", func(s string) bool { return strings.Contains(s, "LOST") })
	waitFor(t, &out, "the hostile command line, escaped", func(s string) bool { return strings.Contains(s, "^[]0;PWNED^G") })
	send(t, ptmx, "q")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
	if s := out.String(); strings.Contains(s, "\x1b]0;PWNED") || strings.Contains(s, "PWNED\a") {
		t.Fatal("the process's escape sequence reached the terminal raw")
	}
}
