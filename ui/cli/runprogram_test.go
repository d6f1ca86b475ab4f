package cli

import (
	"bytes"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// signalModel sends its own process sig once the program runs.
type signalModel struct{ sig syscall.Signal }

func (m signalModel) Init() tea.Cmd {
	return func() tea.Msg { _ = syscall.Kill(os.Getpid(), m.sig); return nil }
}
func (m signalModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return m, nil }
func (m signalModel) View() string                        { return "x" }

// runProgram's own handler, installed before Run, ends the program on
// SIGTERM (143) and SIGINT (130) with no tty input, as Bubble Tea's did.
func TestRunProgramEndsOnSignals(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		want exitCode
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		p := tea.NewProgram(signalModel{c.sig}, tea.WithInput(strings.NewReader("")), tea.WithOutput(&bytes.Buffer{}))
		done := make(chan error, 1)
		go func() { done <- runProgram(p, "test") }()
		select {
		case err := <-done:
			if ec, ok := err.(exitCode); !ok || ec != c.want {
				t.Fatalf("%v: runProgram gave %v, want exit status %d", c.sig, err, c.want)
			}
		case <-time.After(10 * time.Second):
			p.Kill()
			t.Fatalf("%v: the program did not end", c.sig)
		}
	}
}
