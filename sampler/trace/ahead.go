package trace

import "io"

// ahead is a reader that decompresses on its own goroutine while the
// decoder works on what it already has: gzip and JSON then take one core
// each, and a large trace reads in about the time of the slower of them.
// Chunks go through a channel, aheadChunks deep; spent ones come back.
type ahead struct {
	full, free chan []byte
	quit, done chan struct{}
	buf, cur   []byte // the chunk being read, and its unread part
	err        error  // the decompressor's, once full is drained
	errc       chan error
}

const (
	aheadChunk  = 1 << 20
	aheadChunks = 3
)

func readAhead(r io.Reader) *ahead {
	a := &ahead{full: make(chan []byte, aheadChunks), free: make(chan []byte, aheadChunks+1),
		quit: make(chan struct{}), done: make(chan struct{}), errc: make(chan error, 1)}
	for range aheadChunks + 1 {
		a.free <- make([]byte, aheadChunk)
	}
	go func() {
		defer close(a.done)
		defer close(a.full)
		for {
			var buf []byte
			select {
			case buf = <-a.free:
			case <-a.quit:
				return
			}
			n, err := fill(r, buf[:cap(buf)])
			if n > 0 {
				select {
				case a.full <- buf[:n]:
				case <-a.quit:
					return
				}
			}
			if err != nil { // io.EOF at the end, as the reader's own
				a.errc <- err
				return
			}
		}
	}()
	return a
}

func (a *ahead) Read(p []byte) (int, error) {
	for len(a.cur) == 0 {
		if a.err != nil {
			return 0, a.err
		}
		buf, ok := <-a.full
		if !ok {
			a.err = <-a.errc
			continue
		}
		a.buf, a.cur = buf, buf
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	if len(a.cur) == 0 {
		a.free <- a.buf[:cap(a.buf)]
	}
	return n, nil
}

// stop ends the goroutine (the reader may stop early: an error, a yield
// that says stop) and waits for it, before the gzip reader is closed.
func (a *ahead) stop() {
	close(a.quit)
	<-a.done
}

// fill reads into buf until it is full or r fails (io.EOF included).
func fill(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
