package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	cmd := exec.Command(buildBinary(t), "--demo", "--demo-fault", "all")
	cmd.Env = []string{"TERM=screen"}
	tm := startPTY(t, cmd, 50, 200)
	tm.waitFor("the lost GPU", func(s string) bool { return tm.appeared(s, 0, "LOST") })
	tm.waitFor("the hostile command line, escaped", func(s string) bool { return strings.Contains(s, "^[]0;PWNED^G") })
	tm.send("q")
	if code := waitExit(t, cmd, 10*time.Second); code != 0 {
		t.Fatalf("exit status %d after q", code)
	}
	if s := tm.out.String(); strings.Contains(s, "\x1b]0;PWNED") || strings.Contains(s, "PWNED\a") {
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
	dir := t.TempDir()
	cmd := exec.Command(buildBinary(t), "--demo", "--interval", "100ms")
	cmd.Dir = dir
	cmd.Env = []string{"TERM=screen"}
	tm := startPTY(t, cmd, 40, 120)
	tm.waitFor("the first frame", func(s string) bool { return strings.Contains(s, "H200") })
	tm.press("r", "recording to")
	// Quit once a frame has reached the file: the recording holds at least
	// one snapshot, whatever the machine's load.
	deadline := time.Now().Add(20 * time.Second)
	for {
		files, _ := filepath.Glob(filepath.Join(dir, "gpuscope-*.jsonl.gz"))
		if len(files) == 1 && recorded(files[0]) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no snapshot recorded in 20 s: %v", files)
		}
		time.Sleep(20 * time.Millisecond)
	}
	tm.send("q")
	if code := waitExit(t, cmd, 10*time.Second); code != 0 {
		t.Fatalf("exit status %d after q", code)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "gpuscope-*.jsonl.gz"))
	if len(files) != 1 {
		t.Fatalf("recordings %v", files)
	}
	// The last bytes can still be in the pty when Wait returns.
	tm.waitFor("the line after quitting", func(s string) bool {
		return strings.Contains(s[strings.LastIndex(s, "\x1b[?1049l")+1:], "recording stopped:")
	})
	s := tm.out.String()
	after := s[strings.LastIndex(s, "\x1b[?1049l")+1:] // printed once the screen is restored
	if !strings.Contains(after, "recording stopped:") || !strings.Contains(after, filepath.Base(files[0])) {
		t.Errorf("the file's name is not said after quitting: %q", tail(after))
	}
	if st, err := os.Stat(files[0]); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v (%v), want 0600", st.Mode().Perm(), err)
	}
	if n := recorded(files[0]); n < 1 {
		t.Errorf("%d snapshots recorded", n)
	}
}

// recorded counts the snapshots readable in the recording at path, as far
// as it is written.
func recorded(path string) int {
	r, err := record.Open(path)
	if err != nil {
		return 0
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
