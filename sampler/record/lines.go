package record

import (
	"bufio"
	"fmt"
)

var errLineTooLong = fmt.Errorf("line longer than %d MiB", maxLineBytes>>20)

// lineReader splits the stream into lines. Unlike bufio.Scanner it has no
// 64 KiB limit: a line longer than the buffer is assembled in long.
type lineReader struct {
	br   *bufio.Reader
	no   int
	long []byte
	// skips are the warnings of gzip members skipped while reading the
	// last line (damaged), for the pipeline to hand to Next in order.
	skips []string
}

// damaged is called, on the reading goroutine, when the gzip data is
// damaged and reading goes on at the next member.
func (l *lineReader) damaged(err error) {
	l.skips = append(l.skips, fmt.Sprintf("after line %d: gzip data damaged (%v); read on from the next gzip member "+
		"(what was left of the damaged one is lost; later line numbers count the lines read)", l.no, err))
}

// next returns the next line without its newline and whether the newline
// was there. The slice is valid until the next call.
func (l *lineReader) next() (line []byte, terminated bool, err error) {
	l.no++
	frag, err := l.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], frag...)
		for err == bufio.ErrBufferFull {
			if len(l.long) > maxLineBytes {
				return nil, false, errLineTooLong
			}
			frag, err = l.br.ReadSlice('\n')
			l.long = append(l.long, frag...)
		}
		frag = l.long
	}
	if n := len(frag); n > 0 && frag[n-1] == '\n' {
		return frag[:n-1], true, nil
	}
	return frag, false, err
}
