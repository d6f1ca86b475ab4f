package ui

import (
	"os"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// TermWriter is the dashboard's terminal under Bubble Tea v1
// (tea.WithOutput): it rewrites each frame so that only the cells that
// changed are written. Bubble Tea repaints a changed line whole, and a
// line of the GPU pane is ~450 bytes where a new reading changes a few
// cells (docs/benchmarks.md, "The dashboard's cost while it watches"). It
// is a *os.File's Fd and Read, so Bubble Tea still sees a terminal.
//
// A frame is what the alt-screen renderer writes in one call: the cursor
// home, each line either written (then "\r\n") or skipped ("\n"), then
// the cursor placed under the last line. Each written
// line is compared, cell by cell, with what this writer last sent for that
// row; runs of changed cells are written at their column. Anything else
// (modes, a repaint after a resize, a line it cannot lay out in cells)
// passes through as written, and a repaint forgets what it held.
type TermWriter struct {
	*os.File
	// rows are the lines as last written, per screen row, with their
	// cells (termrow); line "" unknown (at start, after a write it did not
	// follow). The cells are kept as offsets, 6 bytes each (~1.2 KB a
	// 200-column row), so a changed line is laid out once, not its old
	// line again (docs/benchmarks.md, "The dashboard at 100 ms, the third
	// time"); spare is the row a line is laid out in before it takes a
	// row's place.
	rows  []termRow
	spare termRow
	out   []byte
}

// NewTermWriter writes the frames for f.
func NewTermWriter(f *os.File) *TermWriter { return &TermWriter{File: f} }

// Write sends p, a frame made smaller, or p as it is.
func (w *TermWriter) Write(p []byte) (int, error) {
	out, ok := w.frame(string(p))
	if !ok {
		return w.File.Write(p)
	}
	if _, err := w.File.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// WriteString is Write of s, without copying the frame to bytes and back
// (ui.Painter writes each frame so, ten a second at --interval 100ms). It
// takes the place of the embedded *os.File's, which would pass s by
// unreduced.
func (w *TermWriter) WriteString(s string) (int, error) {
	out, ok := w.frame(s)
	if !ok {
		return w.File.WriteString(s)
	}
	if _, err := w.File.Write(out); err != nil {
		return 0, err
	}
	return len(s), nil
}

// frame is the smaller form of a frame s, or false when s is not one this
// writer understands (then it forgets every row: the screen is as written).
func (w *TermWriter) frame(s string) ([]byte, bool) {
	out, ok := w.diff(s)
	if !ok {
		w.rows = w.rows[:0]
	}
	return out, ok
}

func (w *TermWriter) diff(s string) ([]byte, bool) {
	body, ok := strings.CutPrefix(s, ansi.CursorHomePosition)
	if !ok {
		return nil, false
	}
	if b, ok := strings.CutPrefix(body, "\r"); ok { // a repaint: every line written anew
		body = b
		for r := range w.rows {
			w.rows[r].line = ""
		}
	}
	// The tail: the cursor under the last line.
	i := strings.LastIndex(body, "\x1b[")
	if i < 0 || !strings.HasSuffix(body, ";H") {
		return nil, false
	}
	n, err := strconv.Atoi(body[i+2 : len(body)-2])
	tail := body[i:]
	body = body[:i]
	if strings.HasSuffix(body, ansi.EraseScreenBelow) {
		return nil, false // fewer lines than before (rare: the view is the screen's height)
	}
	lines := strings.Split(body, "\n")
	if err != nil || len(lines) != n {
		return nil, false
	}
	if len(w.rows) < n {
		w.rows = append(w.rows, make([]termRow, n-len(w.rows))...)
	}
	out := w.out[:0]
	for r, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			continue // skipped: unchanged since Bubble Tea last wrote it
		}
		if styledToTheEnd(line) {
			// The next line Bubble Tea writes would inherit the style; lipgloss
			// always resets, so this is not the dashboard's: as written.
			return nil, false
		}
		out = w.appendDiff(out, r+1, &w.rows[r], line)
		w.rows[r], w.spare = w.spare, w.rows[r]
	}
	w.out = append(out, tail...)
	return w.out, true
}

// blockAt: s starts with box drawing, a block element or braille
// (U+2500–U+259F, U+2800–U+28FF), one column wide and never joined to
// what follows by themselves: the dashboard's bars and charts, most of a
// frame's non-ASCII cells, told by their UTF-8 bytes (E2 94 80–E2 96 9F,
// E2 A0 80–E2 A3 BF) without decoding them, on every frame.
func blockAt(s string) bool {
	if len(s) < 3 || s[0] != 0xe2 || s[2] < 0x80 || s[2] > 0xbf {
		return false
	}
	switch b := s[1]; {
	case b == 0x94 || b == 0x95:
		return true
	case b == 0x96:
		return s[2] <= 0x9f
	}
	return s[1] >= 0xa0 && s[1] <= 0xa3
}

// styledToTheEnd: a style still on after the line's last SGR.
func styledToTheEnd(line string) bool {
	on := false
	for {
		i := strings.Index(line, "\x1b[")
		if i < 0 {
			return on
		}
		line = line[i+2:]
		j := strings.IndexFunc(line, func(r rune) bool { return r >= 0x40 && r <= 0x7e })
		if j < 0 {
			return on
		}
		if line[j] == 'm' {
			on = j > 0 && line[:j] != "0"
		}
		line = line[j+1:]
	}
}
