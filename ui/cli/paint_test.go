package cli

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/creack/pty"
)

// crashes panics in Update on a window size, or in the command it returns.
type crashes struct{ inCmd bool }

func (m crashes) Init() tea.Cmd { return nil }
func (m crashes) View() string  { return "a frame" }
func (m crashes) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.WindowSizeMsg); !ok {
		return m, nil
	}
	if m.inCmd {
		return m, func() tea.Msg { panic("boom in a command") }
	}
	panic("boom in Update")
}

// A panic in the painted dashboard, in its Update or in a command, reaches
// the user: on stderr after the terminal left the alternate screen (where
// Bubble Tea's own catch printed it, and restoring the screen erased it),
// with its stack, and the exit is 1.
func TestPaintedPanicIsToldAfterTheTerminalIsRestored(t *testing.T) {
	for _, tc := range []struct {
		m    crashes
		want string
	}{{crashes{}, "boom in Update"}, {crashes{inCmd: true}, "boom in a command"}} {
		t.Run(tc.want, func(t *testing.T) {
			ptm, tty, err := pty.Open()
			if err != nil {
				t.Skipf("no pty here: %v", err)
			}
			defer ptm.Close()
			_ = pty.Setsize(ptm, &pty.Winsize{Rows: 10, Cols: 40})
			var got bytes.Buffer
			read := make(chan struct{})
			go func() { _, _ = io.Copy(&got, ptm); close(read) }()
			done := make(chan error, 1)
			go func() { done <- runPainted(tc.m, "dashboard", screen{in: tty, out: tty, stderr: tty}) }()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the program did not end after its model panicked")
			}
			var ec exitCode
			if !errors.As(err, &ec) || ec != 1 {
				t.Errorf("runPainted = %v, want exit 1", err)
			}
			tty.Close()
			<-read
			out := got.String()
			leave, msg := strings.LastIndex(out, "\x1b[?1049l"), strings.Index(out, tc.want)
			if leave < 0 || msg < 0 || msg < leave {
				t.Fatalf("want the alternate screen left (at %d) before the panic's message (at %d):\n%q", leave, msg, out)
			}
			if !strings.Contains(out[msg:], "paint_test.go") {
				t.Errorf("the message has no stack naming where it panicked:\n%s", out[msg:])
			}
		})
	}
}
