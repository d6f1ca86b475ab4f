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
	// rows are the lines as last written, per screen row; "" unknown (at
	// start, after a write it did not follow). Kept as text, ~0.5 KB a
	// row, and laid out in cells again when compared: the cells of a
	// whole screen would hold ~0.8 MB.
	rows     []string
	old, new []cell // scratch
	out      []byte
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
		clear(w.rows)
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
		w.rows = append(w.rows, make([]string, n-len(w.rows))...)
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
		out = w.appendDiff(out, r+1, w.rows[r], line)
		w.rows[r] = line
	}
	w.out = append(out, tail...)
	return w.out, true
}

// cell is one grapheme as drawn: its text, its width in columns and the
// SGR sequences in force since the last reset (compared as written).
type cell struct {
	text, sgr string
	width     int
}

// cells lays a line out in cells, or false when it holds a sequence other
// than SGR and the erase to the end of the line (a trailing "\x1b[K" is a
// last cell of width 0).
func cells(line string, out []cell) ([]cell, bool) {
	sgr := ""
	for len(line) > 0 {
		if line[0] == 0x1b {
			j := 2
			for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
				j++
			}
			if len(line) < 2 || line[1] != '[' || j == len(line) {
				return nil, false
			}
			seq := line[:j+1]
			switch line[j] {
			case 'm':
				if seq == "\x1b[0m" || seq == "\x1b[m" {
					sgr = ""
				} else {
					sgr += seq
				}
			case 'K':
				if seq != ansi.EraseLineRight || j+1 != len(line) {
					return nil, false
				}
				out = append(out, cell{text: seq, sgr: sgr})
			default:
				return nil, false
			}
			line = line[j+1:]
			continue
		}
		if c := line[0]; c >= 0x20 && c < 0x7f && (len(line) == 1 || line[1] < 0x7f) {
			// ASCII followed by ASCII or a sequence: one cell, no cluster
			out = append(out, cell{text: line[:1], sgr: sgr, width: 1})
			line = line[1:]
			continue
		}
		if blockAt(line) && (len(line) == 3 || line[3] < 0x80 || blockAt(line[3:])) {
			// a bar or chart cell followed by ASCII or another: one cell
			out = append(out, cell{text: line[:3], sgr: sgr, width: 1})
			line = line[3:]
			continue
		}
		g, width := ansi.FirstGraphemeCluster(line, ansi.GraphemeWidth)
		if width == 0 || g == "" {
			return nil, false // a control or zero-width character: as written
		}
		out = append(out, cell{text: g, sgr: sgr, width: width})
		line = line[len(g):]
	}
	return out, true
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

// appendDiff appends what turns row y (1-based) from old into line: the
// changed runs of cells at their columns when both lay out in the same
// cells, else the whole line.
func (w *TermWriter) appendDiff(out []byte, y int, old, line string) []byte {
	var ok1, ok2 bool
	w.old, ok1 = cells(old, w.old[:0])
	w.new, ok2 = cells(line, w.new[:0])
	oc, nc := w.old, w.new
	if old == "" || !ok1 || !ok2 || !sameLayout(oc, nc) {
		out = append(out, ansi.CursorPosition(1, y)...)
		return append(out, line...)
	}
	// mergeGap: unchanged cells shorter than a cursor move are rewritten.
	const mergeGap = 6
	col := 1
	for i := 0; i < len(nc); {
		if nc[i] == oc[i] {
			col += nc[i].width
			i++
			continue
		}
		end := i + 1 // the run: changed cells, and short gaps between them
		for j := end; j < len(nc) && j-end <= mergeGap; j++ {
			if nc[j] != oc[j] {
				end = j + 1
			}
		}
		out = append(out, ansi.CursorPosition(col, y)...)
		out = appendCells(out, nc[i:end])
		for _, c := range nc[i:end] {
			col += c.width
		}
		i = end
	}
	return out
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

// sameLayout: the same number of cells, each as wide.
func sameLayout(a, b []cell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].width != b[i].width {
			return false
		}
	}
	return true
}

// appendCells writes cells from a reset state and leaves the state reset.
func appendCells(out []byte, cs []cell) []byte {
	sgr := ""
	for _, c := range cs {
		if c.sgr != sgr {
			if rest, ok := strings.CutPrefix(c.sgr, sgr); ok {
				out = append(out, rest...)
			} else {
				out = append(out, "\x1b[0m"+c.sgr...)
			}
			sgr = c.sgr
		}
		out = append(out, c.text...)
	}
	if sgr != "" {
		out = append(out, "\x1b[0m"...)
	}
	return out
}
