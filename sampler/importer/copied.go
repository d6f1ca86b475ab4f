package importer

import (
	"bufio"
	"bytes"
	"io"
	"strings"
)

// What copying a tool's output adds that its own text never holds
// (docs/corpus-copies.md): a byte order mark an editor on Windows writes,
// and non-breaking spaces (U+00A0) a web page's copy puts for the spaces it
// showed. Neither is in nvidia-smi's, dcgmi's or the kernel's output, so
// both are undone before any reader looks.

const (
	bom  = "\xef\xbb\xbf"
	nbsp = "\u00a0" // 0xC2 0xA0: in UTF-8 those two bytes are never anything else
)

// uncopied is br with a leading byte order mark dropped and, where its
// first bytes show one, non-breaking spaces read as spaces.
func uncopied(br *bufio.Reader) *bufio.Reader {
	if b, _ := br.Peek(len(bom)); string(b) == bom {
		br.Discard(len(bom))
	}
	if head, _ := br.Peek(detectBytes); bytes.Contains(head, []byte(nbsp)) {
		return bufio.NewReaderSize(&spaceReader{r: br}, br.Size())
	}
	return br
}

// spaceReader reads U+00A0 as one space; a lead byte 0xC2 at the end of
// one read is held back until the next shows what follows it.
type spaceReader struct {
	r    io.Reader
	held bool
}

func (s *spaceReader) Read(p []byte) (int, error) {
	if len(p) < 2 { // bufio reads its whole buffer; a one-byte read passes through
		return s.r.Read(p)
	}
	k := 0
	if s.held {
		p[0], k, s.held = 0xC2, 1, false
	}
	n, err := s.r.Read(p[k:])
	n += k
	w := 0
	for i := 0; i < n; i++ {
		if p[i] == 0xC2 && i+1 < n && p[i+1] == 0xA0 {
			p[w] = ' '
			w, i = w+1, i+1
			continue
		}
		if p[i] == 0xC2 && i+1 == n && err == nil {
			s.held = true
			break
		}
		p[w] = p[i]
		w++
	}
	return w, err
}

// uncopiedText is uncopied for text read whole, where a rich-text editor's
// curly quotes (a forum's or a mail's typography) are also read straight:
// the tools print "doesn't match", 'the operation cannot be performed'.
func uncopiedText(s string) string {
	s = strings.TrimPrefix(s, bom)
	if !strings.Contains(s, nbsp) && !strings.Contains(s, "\xe2\x80") {
		return s
	}
	b := []byte(s)
	w := 0
	for i := 0; i < len(b); i, w = i+1, w+1 {
		c := b[i]
		switch {
		case c == 0xC2 && i+1 < len(b) && b[i+1] == 0xA0: // U+00A0
			c, i = ' ', i+1
		case c == 0xE2 && i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0x98 || b[i+2] == 0x99): // U+2018, U+2019
			c, i = '\'', i+2
		case c == 0xE2 && i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0x9C || b[i+2] == 0x9D): // U+201C, U+201D
			c, i = '"', i+2
		}
		b[w] = c
	}
	return string(b[:w])
}

// unquoteReply drops a Markdown or mail quote's marks, every level of them:
// a reply that quotes a quoted paste prefixes "> " again.
func unquoteReply(s string) string {
	for len(s) > 0 && s[0] == '>' && (len(s) == 1 || s[1] == ' ' || s[1] == '>') {
		s = strings.TrimPrefix(s[1:], " ")
	}
	return s
}
