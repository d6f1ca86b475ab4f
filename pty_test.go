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

// built is the one gpuscope binary of this test run: every end-to-end test
// and benchmark runs the same build (each building its own cost a link of
// ~5 s, over a dozen tests).
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

// screen collects everything a program writes to its terminal (or stderr).
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

// last is the last n bytes written, for a failure message.
func (s *screen) last(n int) string {
	out := s.String()
	return out[max(0, len(out)-n):]
}

// waitFor polls the output until cond holds, or fails the test.
func waitFor(t *testing.T, s *screen, what string, cond func(string) bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if cond(s.String()) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s; last output:\n%q", what, s.last(2000))
}

// term is a program running in a pty of its own: what it writes collects
// in out, and the tests wait on what it says, never for a fixed time.
type term struct {
	t          *testing.T
	cmd        *exec.Cmd
	pty        *os.File
	out        screen
	rows, cols int
}

// startPTY starts cmd in a rows×cols pty with TERM=xterm-256color, unless
// cmd.Env names another TERM (cmd.Env is added to the test's environment).
// The process is killed and the pty closed when the test ends.
func startPTY(t *testing.T, cmd *exec.Cmd, rows, cols uint16) *term {
	t.Helper()
	cmd.Env = append(append(os.Environ(), "TERM=xterm-256color"), cmd.Env...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: rows, Cols: cols})
	if err != nil {
		t.Fatalf("start %s in a pty: %v", cmd.Path, err)
	}
	tm := &term{t: t, cmd: cmd, pty: f, rows: int(rows), cols: int(cols)}
	go func() { _, _ = copyUntilEOF(&tm.out, f) }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		_ = f.Close()
	})
	return tm
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

// waitFor polls everything written so far until cond holds.
func (tm *term) waitFor(what string, cond func(string) bool) {
	tm.t.Helper()
	waitFor(tm.t, &tm.out, what, cond)
}

// waitText waits for text on screen after mark (a length of the output, 0
// for all of it), escape sequences left out.
func (tm *term) waitText(mark int, text string) {
	tm.t.Helper()
	tm.waitFor(strings.TrimSpace(text), func(s string) bool { return tm.appeared(s, mark, text) })
}

// appeared: text was written after mark, or is on the screen now and was
// not at mark. The dashboard writes only the cells that changed
// (ui.TermWriter), so a word can be on screen without being written whole.
func (tm *term) appeared(s string, mark int, text string) bool {
	if strings.Contains(ansi.Strip(s[mark:]), text) {
		return true
	}
	return strings.Contains(screenText(s, tm.cols, tm.rows), text) && !strings.Contains(screenText(s[:mark], tm.cols, tm.rows), text)
}

// screenText is the screen out draws on a cols×rows terminal, row by row:
// text only (styles, modes and titles left out), as far as the dashboard
// moves the cursor (home, CUP, CR, LF) and erases (EL, ED).
func screenText(out string, cols, rows int) string {
	scr := make([][]string, rows)
	for y := range scr {
		scr[y] = make([]string, cols)
	}
	x, y := 0, 0
	erase := func(y, from int) {
		for i := from; i < cols; i++ {
			scr[y][i] = " "
		}
	}
	for len(out) > 0 {
		switch c := out[0]; {
		case c == '\r':
			x, out = 0, out[1:]
		case c == '\n':
			y, out = min(y+1, rows-1), out[1:]
		case c == 0x1b && len(out) > 1 && out[1] == ']': // OSC, to BEL or ST
			end := strings.IndexAny(out[2:], "\a\x1b")
			if end < 0 {
				out = ""
				break
			}
			out = strings.TrimPrefix(out[2+end+1:], "\\") // BEL, or ST: ESC \\
		case c == 0x1b && len(out) > 1 && out[1] == '[':
			j := 2
			for j < len(out) && (out[j] < 0x40 || out[j] > 0x7e) {
				j++
			}
			if j == len(out) {
				out = ""
				break
			}
			args := out[2:j]
			switch out[j] {
			case 'H':
				r, c, _ := strings.Cut(args, ";")
				row, _ := strconv.Atoi(r)
				col, _ := strconv.Atoi(c)
				y, x = min(max(row, 1), rows)-1, min(max(col, 1), cols)-1
			case 'K':
				erase(y, x)
			case 'J':
				from := y + 1
				if args == "2" {
					from = 0
				} else {
					erase(y, x)
				}
				for i := from; i < rows; i++ {
					erase(i, 0)
				}
			}
			out = out[j+1:]
		case c < 0x20 || c == 0x1b:
			out = out[1:]
		default:
			g, w := ansi.FirstGraphemeCluster(out, ansi.GraphemeWidth)
			if x < cols && w > 0 {
				scr[y][x] = g
				for i := 1; i < w && x+i < cols; i++ {
					scr[y][x+i] = ""
				}
			}
			x = min(x+max(w, 1), cols)
			out = out[len(g):]
		}
	}
	var b strings.Builder
	for _, r := range scr {
		b.WriteString(strings.Join(r, ""))
		b.WriteByte('\n')
	}
	return b.String()
}

// mark is how much has been written so far.
func (tm *term) mark() int { return len(tm.out.String()) }

// send types keys without waiting for an answer (q before waitExit).
func (tm *term) send(keys string) {
	tm.t.Helper()
	if _, err := tm.pty.WriteString(keys); err != nil {
		tm.t.Fatalf("send %q: %v", keys, err)
	}
}

// press types keys and waits until want is on screen after them.
func (tm *term) press(keys, want string) {
	tm.t.Helper()
	m := tm.mark()
	tm.send(keys)
	tm.waitText(m, want)
}

// waitExit waits up to within for cmd to end and returns its exit status.
func waitExit(t *testing.T, cmd *exec.Cmd, within time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if err == nil {
			return 0
		}
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return ee.ExitCode()
	case <-time.After(within):
		_ = cmd.Process.Kill()
		t.Fatalf("%s did not exit within %v", filepath.Base(cmd.Path), within)
		return -1
	}
}

// signalAndWait signals cmd and returns its exit status.
func signalAndWait(t *testing.T, cmd *exec.Cmd, sig syscall.Signal) int {
	t.Helper()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	return waitExit(t, cmd, 15*time.Second)
}

// tail is the end of a program's output, for a failure message.
func tail(s string) string { return s[max(0, len(s)-400):] }
