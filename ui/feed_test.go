package ui

import (
	"io"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// counter counts the frames it is fed and quits when their source closes.
type counter struct{ seqs []uint64 }

func (c *counter) Init() tea.Cmd { return nil }
func (c *counter) View() string  { return "" }
func (c *counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case frameMsg:
		c.seqs = append(c.seqs, msg.Snapshot.Seq)
	case sourceClosedMsg:
		return c, tea.Quit
	}
	return c, nil
}

// TestFeedSendsEveryFrameThenTheClose: Feed hands the program each frame
// in order, then that the source closed.
func TestFeedSendsEveryFrameThenTheClose(t *testing.T) {
	c := &counter{}
	p := tea.NewProgram(c, tea.WithoutRenderer(), tea.WithInput(nil), tea.WithOutput(io.Discard))
	ch := make(chan diagnose.Frame)
	go Feed(p, ch)
	go func() {
		for i := range 5 {
			ch <- diagnose.Frame{Snapshot: sampler.Snapshot{Seq: uint64(i + 1)}}
		}
		close(ch)
	}()
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		p.Kill()
		t.Fatal("the program did not end when the frames did")
	}
	if len(c.seqs) != 5 || c.seqs[0] != 1 || c.seqs[4] != 5 {
		t.Fatalf("fed %v, want 1 to 5", c.seqs)
	}
}
