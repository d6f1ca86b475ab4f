package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// termRow is a line as the TermWriter last wrote it and its cells: each
// grapheme as drawn, its text an offset into the line, its width in
// columns and the SGR sequences in force since the last reset (one of
// sgrs, compared as written). ok is false when the line holds a sequence
// other than SGR and the erase to the end of the line, or is too long to
// index (then it is written whole when it changes).
type termRow struct {
	line  string
	cells []termCell
	sgrs  []string // sgrs[0] is "", no style
	ok    bool
}

// termCell is one cell of a termRow: line[at:at+n], drawn width columns
// wide with sgrs[sgr]. A trailing "\x1b[K" is a last cell of width 0.
type termCell struct {
	at    uint16
	n     uint8
	width uint8
	sgr   uint16
}

// layout lays line out in r's cells, reusing r's arrays.
func (r *termRow) layout(line string) {
	r.line, r.cells, r.sgrs, r.ok = line, r.cells[:0], append(r.sgrs[:0], ""), false
	if len(line) > 0xffff {
		return
	}
	sgr, sgrEnd := 0, -1 // the state in force; where its last sequence ended
	for i := 0; i < len(line); {
		if line[i] == 0x1b {
			j := i + 2
			for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
				j++
			}
			if i+1 >= len(line) || line[i+1] != '[' || j >= len(line) {
				return
			}
			seq := line[i : j+1]
			switch line[j] {
			case 'm':
				switch {
				case seq == "\x1b[0m" || seq == "\x1b[m":
					sgr = 0
				case sgr != 0 && sgrEnd == i && len(r.sgrs[sgr]) <= i && r.sgrs[sgr] == line[i-len(r.sgrs[sgr]):i]:
					// right after the sequences in force: one substring, no copy
					r.sgrs = append(r.sgrs, line[i-len(r.sgrs[sgr]):j+1])
					sgr = len(r.sgrs) - 1
				case sgr == 0:
					r.sgrs = append(r.sgrs, seq)
					sgr = len(r.sgrs) - 1
				default:
					r.sgrs = append(r.sgrs, r.sgrs[sgr]+seq)
					sgr = len(r.sgrs) - 1
				}
				sgrEnd = j + 1
			case 'K':
				if seq != ansi.EraseLineRight || j+1 != len(line) {
					return
				}
				r.add(i, len(seq), 0, sgr)
			default:
				return
			}
			i = j + 1
			continue
		}
		rest := line[i:]
		if c := rest[0]; c >= 0x20 && c < 0x7f && (len(rest) == 1 || rest[1] < 0x7f) {
			// ASCII followed by ASCII or a sequence: one cell, no cluster
			r.add(i, 1, 1, sgr)
			i++
			continue
		}
		if blockAt(rest) && (len(rest) == 3 || rest[3] < 0x80 || blockAt(rest[3:])) {
			// a bar or chart cell followed by ASCII or another: one cell
			r.add(i, 3, 1, sgr)
			i += 3
			continue
		}
		g, width := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
		if width == 0 || g == "" || len(g) > 0xff || width > 0xff {
			return // a control or zero-width character: as written
		}
		r.add(i, len(g), width, sgr)
		i += len(g)
	}
	r.ok = true
}

// add appends a cell. Out of line: four copies of the append cost the
// binary more than the call costs a cell (docs/benchmarks.md, "The
// dashboard at 100 ms, the third time").
//
//go:noinline
func (r *termRow) add(at, n, width, sgr int) {
	r.cells = append(r.cells, termCell{at: uint16(at), n: uint8(n), width: uint8(width), sgr: uint16(sgr)})
}

// text and style are cell i's.
func (r *termRow) text(i int) string {
	c := r.cells[i]
	return r.line[c.at : int(c.at)+int(c.n)]
}

func (r *termRow) style(i int) string { return r.sgrs[r.cells[i].sgr] }

// same: cell i of r and of o draw the same.
func (r *termRow) same(o *termRow, i int) bool {
	return r.text(i) == o.text(i) && r.style(i) == o.style(i)
}

// sameLayout: the same number of cells, each as wide.
func (r *termRow) sameLayout(o *termRow) bool {
	if len(r.cells) != len(o.cells) {
		return false
	}
	for i := range r.cells {
		if r.cells[i].width != o.cells[i].width {
			return false
		}
	}
	return true
}

// appendDiff lays line out in w.spare and appends what turns row y
// (1-based), drawn as old, into line: the changed runs of cells at their
// columns when both lay out in the same cells, else the whole line.
func (w *TermWriter) appendDiff(out []byte, y int, old *termRow, line string) []byte {
	nr := &w.spare
	nr.layout(line)
	if old.line == "" || !old.ok || !nr.ok || !nr.sameLayout(old) {
		out = append(out, ansi.CursorPosition(1, y)...)
		return append(out, line...)
	}
	// mergeGap: unchanged cells shorter than a cursor move are rewritten.
	const mergeGap = 6
	col := 1
	for i := 0; i < len(nr.cells); {
		if nr.same(old, i) {
			col += int(nr.cells[i].width)
			i++
			continue
		}
		end := i + 1 // the run: changed cells, and short gaps between them
		for j := end; j < len(nr.cells) && j-end <= mergeGap; j++ {
			if !nr.same(old, j) {
				end = j + 1
			}
		}
		out = append(out, ansi.CursorPosition(col, y)...)
		out = nr.appendCells(out, i, end)
		for k := i; k < end; k++ {
			col += int(nr.cells[k].width)
		}
		i = end
	}
	return out
}

// appendCells writes cells [from, to) from a reset state and leaves the
// state reset.
func (r *termRow) appendCells(out []byte, from, to int) []byte {
	sgr := ""
	for i := from; i < to; i++ {
		if s := r.style(i); s != sgr {
			if rest, ok := strings.CutPrefix(s, sgr); ok {
				out = append(out, rest...)
			} else {
				out = append(out, "\x1b[0m"+s...)
			}
			sgr = s
		}
		out = append(out, r.text(i)...)
	}
	if sgr != "" {
		out = append(out, "\x1b[0m"...)
	}
	return out
}
