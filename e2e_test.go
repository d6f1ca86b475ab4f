package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
)

// built is the one gpuscope binary of this test run: every end-to-end
// test runs the same build (each building its own cost a link of ~5 s,
// over a dozen tests).
var built struct {
	once     sync.Once
	dir, bin string
	out      []byte
	err      error
}

// buildBinary compiles gpuscope once per test run and returns its path.
func buildBinary(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "gpuscope-e2e-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "gpuscope")
		cmd := exec.Command("go", "build", "-o", built.bin, ".")
		cmd.Env = append(os.Environ(), "CGO_CFLAGS=-Wno-deprecated-declarations")
		built.out, built.err = cmd.CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("build: %v\n%s", built.err, built.out)
	}
	return built.bin
}

// TestMain removes the shared binary after the run.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// screen collects everything the program writes to its terminal.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor polls the output until cond holds, or fails the test.
func waitFor(t *testing.T, s *screen, what string, cond func(string) bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if cond(s.String()) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	out := s.String()
	t.Fatalf("timed out waiting for %s; last output:\n%q", what, out[max(0, len(out)-2000):])
}

// TestEndToEndPTY runs the built binary in a real 200x50 pty with --demo,
// checks that 8 GPUs appear, presses ? s q, and that it exits 0 and restores
// the terminal (leaves the alternate screen and shows the cursor again).
func TestEndToEndPTY(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	cmd := exec.Command(bin, "--demo", "--interval", "200ms")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		t.Fatalf("start in pty: %v", err)
	}
	defer ptmx.Close()
	var out screen
	go func() { _, _ = copyUntilEOF(&out, ptmx) }()

	waitFor(t, &out, "8 GPUs on screen", func(s string) bool { return strings.Count(s, "H200") >= 8 })
	mark := len(out.String())
	send(t, ptmx, "?")
	waitFor(t, &out, "the help overlay", func(s string) bool { return strings.Contains(s[mark:], "press ? or esc to close") })
	send(t, ptmx, "?")
	// Each view opens and esc comes back: GPU detail (enter on the focused
	// GPU row), topology, then the process tree on and off.
	for _, step := range []struct{ keys, back, marker string }{
		{"\r", "\x1b", "GPU detail"},
		{"t", "\x1b", "Topology"},
		{"T", "T", "· tree"},
	} {
		mark = len(out.String())
		send(t, ptmx, step.keys)
		waitFor(t, &out, step.marker, func(s string) bool { return strings.Contains(ansi.Strip(s[mark:]), step.marker) })
		mark = len(out.String())
		send(t, ptmx, step.back)
		waitFor(t, &out, "the main screen after "+step.marker, func(s string) bool {
			return strings.Contains(ansi.Strip(s[mark:]), "Why idle") || strings.Contains(ansi.Strip(s[mark:]), "Processes")
		})
	}
	send(t, ptmx, "s")
	send(t, ptmx, "q")

	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("gpuscope exited with %v", err)
		}
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("gpuscope did not exit after q")
	}
	// The last bytes can still be in the pty when Wait returns.
	for _, seq := range []string{"\x1b[?1049l", "\x1b[?25h"} {
		waitFor(t, &out, "the terminal restored ("+strconv.Quote(seq)+")", func(s string) bool { return strings.Contains(s, seq) })
	}
}

func send(t *testing.T, f *os.File, keys string) {
	t.Helper()
	if _, err := f.WriteString(keys); err != nil {
		t.Fatalf("send %q: %v", keys, err)
	}
	time.Sleep(150 * time.Millisecond)
}

func copyUntilEOF(dst *screen, src *os.File) (int64, error) {
	buf := make([]byte, 32<<10)
	var n int64
	for {
		k, err := src.Read(buf)
		if k > 0 {
			_, _ = dst.Write(buf[:k])
			n += int64(k)
		}
		if err != nil {
			return n, err
		}
	}
}

// TestSIGTERMRestoresTerminalAndExits143: a supervisor's SIGTERM ends the
// dashboard cleanly (terminal restored) with 128+15, not a quiet 0.
func TestSIGTERMRestoresTerminalAndExits143(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	cmd := exec.Command(bin, "--demo")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	var out screen
	go func() { _, _ = copyUntilEOF(&out, ptmx) }()
	waitFor(t, &out, "the first frame", func(s string) bool { return strings.Count(s, "H200") >= 8 })
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 143 {
			t.Fatalf("exit: %v, want status 143", err)
		}
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("no exit after SIGTERM")
	}
	waitFor(t, &out, "the alternate screen left after SIGTERM", func(s string) bool { return strings.Contains(s, "\x1b[?1049l") })
}
