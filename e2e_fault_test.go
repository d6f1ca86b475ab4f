package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/gpuscope/gpuscope/sampler/record"
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

// TestQuitWhileRecordingNamesTheFile: r then q in the dashboard prints the
// recording's name after the screen is restored; the file is private
// (0600) and complete.
func TestQuitWhileRecordingNamesTheFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "--demo", "--interval", "100ms")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TERM=screen")
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	var out screen
	go func() { _, _ = copyUntilEOF(&out, ptmx) }()
	waitFor(t, &out, "the first frame", func(s string) bool { return strings.Contains(s, "H200") })
	send(t, ptmx, "r")
	waitFor(t, &out, "recording started", func(s string) bool { return strings.Contains(s, "recording to") })
	time.Sleep(500 * time.Millisecond)
	send(t, ptmx, "q")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "gpuscope-*.jsonl.gz"))
	if len(files) != 1 {
		t.Fatalf("recordings %v", files)
	}
	// The last bytes can still be in the pty when Wait returns.
	waitFor(t, &out, "the line after quitting", func(s string) bool {
		return strings.Contains(s[strings.LastIndex(s, "\x1b[?1049l")+1:], "recording stopped:")
	})
	s := out.String()
	after := s[strings.LastIndex(s, "\x1b[?1049l")+1:] // printed once the screen is restored
	if !strings.Contains(after, "recording stopped:") || !strings.Contains(after, filepath.Base(files[0])) {
		t.Errorf("the file's name is not said after quitting: %q", tail(after))
	}
	if st, err := os.Stat(files[0]); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v (%v), want 0600", st.Mode().Perm(), err)
	}
	if n := countRecorded(t, files[0]); n < 1 {
		t.Errorf("%d snapshots recorded", n)
	}
}

func countRecorded(t *testing.T, path string) int {
	t.Helper()
	r, err := record.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	for {
		if _, err := r.Next(); err != nil {
			return n
		}
		n++
	}
}
