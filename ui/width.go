package ui

import (
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// cellWidth is ansi.StringWidth, the terminal cells s takes, without its
// grapheme segmenter for the text the dashboard draws: printable ASCII,
// SGR and other CSI sequences, and the runes of oneCell and twoCells,
// none of which joins a neighbour into one grapheme cluster. Anything
// else (a control character, another escape, a combining mark, an emoji)
// is measured by ansi.StringWidth whole. The segmenter was a fifth of the
// dashboard's CPU while it watched (docs/benchmarks.md, "The dashboard's
// cost while it watches: the width of a line", 2026-12-07);
// TestCellWidthIsStringWidth holds every rune of the tables to it.
func cellWidth(s string) int {
	w := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			w++
			i++
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			// CSI: parameter and intermediate bytes, then one final byte;
			// ansi.StringWidth's parser counts none of it.
			j := i + 2
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
				j++
			}
			if j >= len(s) || s[j] < 0x40 || s[j] > 0x7e {
				return ansi.StringWidth(s)
			}
			i = j + 1
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case oneCell(r):
				w++
			case twoCells(r):
				w += 2
			default:
				return ansi.StringWidth(s)
			}
			i += n
		default:
			return ansi.StringWidth(s)
		}
	}
	return w
}

// oneCell is the runes of the dashboard's borders, bars, sparklines,
// charts and marks that are one cell wide and stand alone as a grapheme
// cluster: Latin-1's symbols and letters, general punctuation, arrows,
// box drawing, blocks, geometric shapes but two wide ones, braille.
func oneCell(r rune) bool {
	switch {
	case r >= 0xa0 && r <= 0xff:
		return r != 0xad // the soft hyphen is a format character
	case r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0x205e:
		return true
	case r >= 0x2190 && r <= 0x21ff:
		return true
	case r >= 0x2500 && r <= 0x25ff:
		return r != 0x25fd && r != 0x25fe // emoji presentation: two cells
	case r >= 0x2800 && r <= 0x28ff:
		return true
	}
	return r == 0x2716 || r == 0x26a0 // ✖ ⚠
}

// twoCells is the wide runes of the Chinese interface: CJK ideographs,
// CJK punctuation and the full-width forms.
func twoCells(r rune) bool {
	return r >= 0x4e00 && r <= 0x9fff || r >= 0x3001 && r <= 0x3003 || r >= 0xff01 && r <= 0xff60
}
