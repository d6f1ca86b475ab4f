package cli

import "io"

// textPipe hands the recording's text from the writer's goroutine to the
// footer's builder in chunks of footerChunk: a hand-over per line would
// wake the builder 86,400 times a day, and io.Pipe, which hands each
// write over whole, cost the binary a page more.
type textPipe struct {
	full   chan []byte   // chunks written, in order; closed at the end
	spare  chan []byte   // chunks read, to fill again
	quit   chan struct{} // closed when the reader stops
	buf    []byte        // the chunk being filled
	cur    []byte        // what is left of the chunk being read
	held   []byte        // that chunk, whole
	failed bool          // set before full is closed: the text is cut
}

const footerChunk = 256 << 10

func newTextPipe() *textPipe {
	return &textPipe{full: make(chan []byte, 2), spare: make(chan []byte, 3), quit: make(chan struct{})}
}

// Write keeps p for the reader; it fails once the reader has stopped.
func (p *textPipe) Write(b []byte) (int, error) {
	if p.buf == nil {
		select {
		case p.buf = <-p.spare:
		default:
			p.buf = make([]byte, 0, footerChunk+16<<10)
		}
	}
	p.buf = append(p.buf, b...)
	if len(p.buf) >= footerChunk && !p.send() {
		return 0, errNoFooter
	}
	return len(b), nil
}

// send hands the chunk being filled over, unless the reader has stopped.
func (p *textPipe) send() bool {
	select {
	case p.full <- p.buf:
		p.buf = nil
		return true
	case <-p.quit:
		return false
	}
}

// end hands the rest over and ends the text: whole, or cut (the reader
// then fails).
func (p *textPipe) end(whole bool) {
	if whole && len(p.buf) > 0 {
		whole = p.send()
	}
	p.failed = !whole
	close(p.full)
}

// Read is the text in the order written; errNoFooter where it was cut.
func (p *textPipe) Read(b []byte) (int, error) {
	for len(p.cur) == 0 {
		if p.held != nil {
			select {
			case p.spare <- p.held[:0]:
			default:
			}
		}
		var ok bool
		if p.held, ok = <-p.full; !ok {
			p.held = nil
			if p.failed {
				return 0, errNoFooter
			}
			return 0, io.EOF
		}
		p.cur = p.held
	}
	n := copy(b, p.cur)
	p.cur = p.cur[n:]
	return n, nil
}

// Close stops the reader: the writer's next chunk fails, and the writer
// drops the tee.
func (p *textPipe) Close() error {
	close(p.quit)
	return nil
}
