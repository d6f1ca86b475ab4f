package trace

import (
	"bytes"
	"io"
	"strings"
	"sync"
)

// The traceEvents array is read on several cores (docs/ARCHITECTURE.md,
// "Reading a trace"): one goroutine reads the input (inflating it) into
// blocks, each cut before an event's '{' where its last bytes show one
// ("}, {"); workers read each block's events as if it began at a member of
// the array; Read takes the blocks in the trace's order and uses a worker's
// events only where its own reading reached the block's start between two
// members, which makes the guess sure. Anywhere else (the object around the
// array, a cut inside a string that reads "}, {", an event longer than a
// block) Read reads the bytes itself, with the same functions. The blocks
// are few and reused, so memory is bounded whatever the trace's length.

const (
	blockSize = 512 << 10
	cutWindow = 64 << 10 // how far back from a block's end a cut is looked for
	// maxWorkers bounds the blocks (4 a worker and 4: under load the
	// goroutines run by turns, and each needs work queued for its turn;
	// 10 MB at most) where several traces are read at once.
	maxWorkers = 4
)

// block is a piece of the input, and what a worker read from it.
type block struct {
	data  []byte
	start int64 // data's offset in the input
	r     members
	done  chan struct{}
}

type pipeline struct {
	order, work chan *block // every block, in the input's order; and to the workers
	free        chan *block
	quit        chan struct{}
	wg          sync.WaitGroup
	err         error // the input's error (not io.EOF), once order is closed
	n           int64 // the bytes read, once order is closed
}

// newPipeline reads r in blocks of size bytes (blockSize but in tests).
func newPipeline(r io.Reader, workers, size int) *pipeline {
	nb := 4*workers + 4
	p := &pipeline{order: make(chan *block, nb), work: make(chan *block, nb), free: make(chan *block, nb),
		quit: make(chan struct{})}
	for range nb {
		p.free <- &block{data: make([]byte, 0, size), done: make(chan struct{}, 1)}
	}
	p.wg.Add(1 + workers)
	go p.produce(r)
	for range workers {
		go p.decode()
	}
	return p
}

// produce reads the input into blocks. Sending never waits: there are no
// more blocks than the channels hold.
func (p *pipeline) produce(r io.Reader) {
	defer p.wg.Done()
	defer close(p.work)
	defer close(p.order)
	var tail []byte // the bytes after the last block's cut
	for {
		var b *block
		select {
		case b = <-p.free:
		case <-p.quit:
			return
		}
		b.data = append(b.data[:0], tail...)
		n, err := fill(r, b.data[len(b.data):cap(b.data)])
		b.data = b.data[:len(b.data)+n]
		cut := len(b.data)
		if err == nil {
			cut = cutAt(b.data)
		}
		tail = append(tail[:0], b.data[cut:]...)
		b.data, b.start = b.data[:cut], p.n
		p.n += int64(cut)
		p.order <- b
		p.work <- b
		if err != nil {
			if err != io.EOF {
				p.err = err
			}
			return
		}
	}
}

// cutAt is where an event seems to begin near b's end (after '}', ',' and
// white space), or len(b).
func cutAt(b []byte) int {
	lo := max(0, len(b)-cutWindow)
	for i := len(b); i > lo; {
		j := bytes.LastIndexByte(b[lo:i], '{')
		if j < 0 {
			break
		}
		j += lo
		k := skipBack(b, j-1)
		if k >= 0 && b[k] == ',' {
			if k = skipBack(b, k-1); k >= 0 && b[k] == '}' {
				return j
			}
		}
		i = j
	}
	return len(b)
}

func skipBack(b []byte, k int) int {
	for k >= 0 && (b[k] == ' ' || b[k] == '\n' || b[k] == '\r' || b[k] == '\t') {
		k--
	}
	return k
}

func (p *pipeline) decode() {
	defer p.wg.Done()
	names := interner{}
	for b := range p.work {
		select {
		case <-p.quit:
			b.r.events, b.r.err = b.r.events[:0], errMore
		default:
			readMembers(b.data, false, names, &b.r)
		}
		b.done <- struct{}{}
	}
}

// next is the next block in order once a worker has read it; false at the
// end of the input.
func (p *pipeline) next() (*block, bool) {
	b, ok := <-p.order
	if ok {
		<-b.done
	}
	return b, ok
}

func (p *pipeline) recycle(b *block) { p.free <- b }

// stop ends the goroutines (the reader may stop early: an error, a yield
// that says stop) and waits for them, before the gzip reader is closed.
func (p *pipeline) stop() {
	close(p.quit)
	p.wg.Wait()
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

// members is what reading a run of traceEvents members found.
type members struct {
	events []Event // the complete ("ph":"X") events
	off    int     // where reading stopped: a member's start, or after the array's ']'
	first  bool    // off is just after '[', where ']' may follow
	end    bool    // the array's ']' was read
	mtia   bool    // an event of an MTIA category was read
	err    error   // errMore where b ended (from off), or why b is not a trace
}

// readMembers reads the traceEvents members in b, which starts at one (or
// just after '[', first). An event is taken once the ',' or ']' after it is
// read, so reading again from off takes nothing twice.
func readMembers(b []byte, first bool, names interner, r *members) {
	r.events, r.end, r.mtia, r.err = r.events[:0], false, false, nil
	i := skipWS(b, 0)
	for {
		r.off, r.first = i, first
		switch {
		case i >= len(b):
			r.err = errMore
			return
		case b[i] == ']' && first:
			r.off, r.end = i+1, true
			return
		case b[i] == ']':
			r.err = invalid(i, "expected an event after ','")
			return
		case b[i] != '{':
			r.err = errNotObject
			return
		}
		var ev rawEvent
		j, err := parseEvent(b, i, &ev, names)
		if err == nil && j-i > MaxEventBytes {
			err = ErrEventTooLarge
		}
		if err == nil {
			if j = skipWS(b, j); j >= len(b) {
				err = errMore
			} else if b[j] != ',' && b[j] != ']' {
				err = invalid(j, "expected ',' or ']' after an event")
			}
		}
		if err != nil {
			r.err = err
			return
		}
		if ev.Ph == "X" {
			r.events = append(r.events, convert(&ev))
			r.mtia = r.mtia || strings.HasPrefix(ev.Cat, "mtia")
		}
		if b[j] == ']' {
			r.off, r.first, r.end = j+1, false, true
			return
		}
		i, first = skipWS(b, j+1), false
	}
}
