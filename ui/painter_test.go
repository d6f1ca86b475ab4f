package ui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// The Painter writes each frame as Bubble Tea v1's renderer does (the
// tests' flusher, termwriter_test.go), byte for byte, so ui.TermWriter
// reduces it as before: lines changed, skipped, a shorter frame, a resize.
func TestPainterWritesBubbleTeasFrames(t *testing.T) {
	var out bytes.Buffer
	s := &paintState{out: &out, w: 30, h: 4}
	f := &flusher{w: 30, h: 4}
	views := []string{
		"\x1b[1mhead\x1b[0m\nGPU 0  97%\nGPU 1   3%\nfooter",
		"\x1b[1mhead\x1b[0m\nGPU 0  98%\nGPU 1   3%\nfooter",
		"\x1b[1mhead\x1b[0m\nGPU 0  98%\nfooter",
		"a line wider than the thirty columns of this screen\nx\ny\nz\nw",
	}
	for i, v := range views {
		if i == 3 { // a resize: Bubble Tea repaints every line
			s.lines, f.last = nil, nil
		}
		out.Reset()
		s.flush(v)
		if want := f.frame(v); out.String() != want {
			t.Fatalf("view %d: painted %q, Bubble Tea writes %q", i, out.String(), want)
		}
	}
	out.Reset()
	s.flush(views[3])
	if out.Len() != 0 {
		t.Errorf("an unchanged frame wrote %q", out.String())
	}
}

type views struct{ v *string }

func (m views) Init() tea.Cmd                       { return nil }
func (m views) Update(tea.Msg) (tea.Model, tea.Cmd) { return m, nil }
func (m views) View() string                        { return *m.v }

// A frame is written as soon as the model changed, unless one was written
// less than a frame period ago: then once, when the period ends. Nothing
// is written before the window's size is known, nor for an unchanged frame.
func TestPainterPaintsAtOnceAtMostOncePerPeriod(t *testing.T) {
	var out bytes.Buffer
	v := "frame 1"
	p := NewPainter(views{&v}, &out, 1) // a period of a second
	m, cmd := p.Update(struct{}{})
	if out.Len() != 0 || cmd != nil {
		t.Fatalf("painted %q before the size was known", out.String())
	}
	m, _ = m.Update(tea.WindowSizeMsg{Width: 20, Height: 2})
	if !strings.Contains(out.String(), "frame 1") {
		t.Fatalf("the first frame was not written at once: %q", out.String())
	}
	out.Reset()
	v = "frame 2"
	m, cmd = m.Update(struct{}{})
	if out.Len() != 0 || cmd == nil {
		t.Fatalf("a second frame within the period: wrote %q, cmd %v; want nothing and a tick", out.String(), cmd != nil)
	}
	v = "frame 3"
	if _, again := m.Update(struct{}{}); out.Len() != 0 || again != nil {
		t.Fatal("a frame already waits: another tick was asked for, or a frame written")
	}
	m.(Painter).s.lastFlush = time.Now().Add(-time.Second) // the period has passed
	m, _ = m.Update(paintMsg{})
	if !strings.Contains(out.String(), "frame 3") {
		t.Fatalf("the waiting frame: %q, want the newest, frame 3", out.String())
	}
	out.Reset()
	m.(Painter).s.lastFlush = time.Time{}
	if m.Update(struct{}{}); out.Len() != 0 {
		t.Errorf("an unchanged frame wrote %q", out.String())
	}
}
