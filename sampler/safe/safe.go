// Package safe makes strings from outside gpuscope harmless to print on a
// terminal. Process command lines, user names, container ids, host and GPU
// names, log fields and whole recordings are written by other people: on a
// shared node any user can start a process whose arguments hold escape
// sequences (ESC ]0;title BEL retitles a terminal, ESC [2J blanks it). Every
// text output path passes such strings through this package once, at its
// boundary: the dashboard when a snapshot arrives (ui.Model.Push), --once,
// the text and markdown report and comparison, and error lines.
//
// Control characters are shown, never sent, the way ps(1) and less(1) show
// them: C0 controls in caret notation (ESC as ^[, BEL as ^G, TAB as ^I), DEL
// as ^?, C1 controls, Unicode bidirectional overrides (which reorder what is
// displayed) and bytes that are not UTF-8 as \xNN or \uNNNN. A string that
// needs nothing is returned as it is, without allocating.
package safe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String escapes every control character in s, newlines included: for one
// field shown on one line of a pane or a table.
func String(s string) string { return escape(s, false) }

// Text escapes every control character in s except newline and tab: for a
// whole rendered document (a report) whose own layout uses them.
func Text(s string) string { return escape(s, true) }

func escape(s string, keepLayout bool) string {
	i := firstUnsafe(s, keepLayout)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLayout && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + 0x40)
		case r == 0x7f:
			b.WriteString("^?")
		case r < 0x100 && unicode.IsControl(r): // C1: 0x80-0x9f
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.Is(unicode.Bidi_Control, r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// firstUnsafe is the byte offset of the first character to escape, or -1.
func firstUnsafe(s string, keepLayout bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f { // printable ASCII: the common case
			i++
			continue
		}
		if c < 0x80 {
			if keepLayout && (c == '\n' || c == '\t') {
				i++
				continue
			}
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return i
		}
		i += size
	}
	return -1
}
