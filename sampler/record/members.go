package record

import (
	"bufio"
	"bytes"
	"io"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"
)

// membersReader inflates a gzip recording's members on several cores and
// hands their text on in file order: inflating was the one serial stage of
// a report (1.2 s of a day's 4.6 s of CPU on the pipeline's reading
// goroutine, docs/benchmarks.md "Recordings inflated on every core").
//
// The Writer starts a member every linesPerMember lines, each with the same
// 10-byte header. One goroutine reads the compressed bytes and cuts them
// before each copy of the first member's header (segments); workers inflate
// a segment each into a buffer of its own; Read hands the buffers on in
// order. Where a segment does not inflate whole into one or more members
// ending at its end (damaged data, a header's bytes inside deflate data, a
// member too big to hold), Read goes on from that segment's first byte with
// resyncReader over the compressed bytes left, the serial reader: what
// follows reads exactly as the serial reader reads it (TestMembersReadAsSerial).
type membersReader struct {
	order chan *segment // segments in file order, for Read
	free  chan *segment // segments read, for the cutter to fill again
	quit  chan struct{}
	cur   *segment
	off   int
	// serial is the serial reader after a fallback, over compressed.
	serial     io.Reader
	compressed segmentBytes
	size       int
	damaged    func(error)
	textMax    int // maxSegmentText, or less in tests
	fellBack   atomic.Bool
}

// segment is the compressed bytes from one cut to the next and their text.
type segment struct {
	comp    []byte
	text    []byte
	readErr error // the compressed bytes' read error after comp (not io.EOF)
	whole   bool  // text is comp inflated, ending exactly at comp's end
	ready   chan struct{}
}

// A segment's text beyond maxSegmentText (a member of a 600-line recording
// of 8 GPUs is ~5 MB; a gzip bomb's would be all of it) and compressed
// bytes beyond maxSegmentComp without a cut are read serially instead, which
// keeps the memory of segmentsPerWorker segments a worker bounded
// (docs/security.md "Hostile files").
const (
	maxSegmentText    = 8 << 20
	maxSegmentComp    = 4 << 20
	maxInflateWorkers = 4 // inflating is ~2x as fast a core as decoding
	segmentsPerWorker = 2
	cutReadBytes      = 256 << 10
)

// newMembersReader returns a reader of br's inflated text, or nil where the
// first member's header is not the plain 10 bytes the Writer writes (flags
// 0: no name, comment or extra field), which the serial reader reads.
func newMembersReader(br *bufio.Reader, damaged func(error), limit int) *membersReader {
	head, _ := br.Peek(10)
	if len(head) < 10 || !IsGzip(head) || head[2] != 8 || head[3] != 0 {
		return nil
	}
	sig := bytes.Clone(head)
	workers := min(runtime.GOMAXPROCS(0), maxInflateWorkers)
	window := workers * segmentsPerWorker
	m := &membersReader{
		order: make(chan *segment, window), free: make(chan *segment, window),
		quit: make(chan struct{}), size: br.Size(), damaged: damaged, textMax: maxSegmentText,
	}
	compMax := maxSegmentComp
	if limit > 0 {
		m.textMax, compMax = limit, limit
	}
	for range window {
		m.free <- &segment{}
	}
	work := make(chan *segment, window)
	for range workers {
		go m.inflateSegments(work)
	}
	go m.cut(br, sig, work, compMax)
	return m
}

// cut reads the compressed bytes and sends them on as segments, each cut
// before a copy of sig but the first, to the workers and to Read.
func (m *membersReader) cut(br *bufio.Reader, sig []byte, work chan<- *segment, compMax int) {
	defer close(work)
	defer close(m.order)
	var carry []byte // bytes read past the last cut
	var rerr error   // the read error that ended the compressed bytes
	eof := false
	for !eof || len(carry) > 0 {
		var s *segment
		select {
		case s = <-m.free:
		case <-m.quit:
			return
		}
		s.comp, s.readErr, s.whole = append(s.comp[:0], carry...), nil, false
		s.ready = make(chan struct{})
		for scanned := 1; ; {
			if i := bytes.Index(s.comp[min(scanned, len(s.comp)):], sig); i >= 0 {
				at := scanned + i
				carry = append(carry[:0], s.comp[at:]...)
				s.comp = s.comp[:at]
				break
			}
			scanned = max(len(s.comp)-len(sig)+1, 1)
			if eof || len(s.comp) > compMax {
				carry = carry[:0]
				break
			}
			n := len(s.comp)
			s.comp = slices.Grow(s.comp, cutReadBytes)
			k, err := io.ReadFull(br, s.comp[n:n+cutReadBytes])
			s.comp = s.comp[:n+k]
			if err != nil {
				if err != io.EOF && err != io.ErrUnexpectedEOF {
					rerr = err
				}
				eof = true
			}
		}
		if eof && len(carry) == 0 {
			s.readErr = rerr
		}
		select {
		case m.order <- s:
		case <-m.quit:
			return
		}
		if s.readErr == nil {
			work <- s // buffered as large as the window: never blocks
		} else {
			close(s.ready) // read serially, with its error
		}
	}
}

// inflateSegments inflates the segments sent on work.
func (m *membersReader) inflateSegments(work <-chan *segment) {
	var zr gzip.Reader
	for s := range work {
		s.text, s.whole = s.text[:0], false
		// After a fallback the text would not be read.
		if !m.fellBack.Load() && zr.Reset(bytes.NewReader(s.comp)) == nil {
			s.whole = inflateInto(&zr, s, m.textMax)
		}
		close(s.ready)
	}
}

// inflateInto reads zr into s.text; true when it ended cleanly (every
// member's CRC and length checked) at the end of s.comp, within
// textMax.
func inflateInto(zr *gzip.Reader, s *segment, textMax int) bool {
	for {
		if len(s.text) == cap(s.text) { // at first about what the text will be (a day's: 8.6x)
			s.text = slices.Grow(s.text, min(max(10*len(s.comp), len(s.text)/2), textMax+1-len(s.text)))
		}
		n, err := zr.Read(s.text[len(s.text):cap(s.text)])
		s.text = s.text[:len(s.text)+n]
		if len(s.text) > textMax {
			return false
		}
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
	}
}

// Read hands on the segments' text in order, and after a fallback what the
// serial reader reads.
func (m *membersReader) Read(p []byte) (int, error) {
	for {
		if m.serial != nil {
			return m.serial.Read(p)
		}
		if m.cur != nil {
			if m.off < len(m.cur.text) {
				n := copy(p, m.cur.text[m.off:])
				m.off += n
				return n, nil
			}
			m.release(m.cur)
			m.cur = nil
		}
		var s *segment
		var ok bool
		select {
		case s, ok = <-m.order:
		case <-m.quit:
			return 0, io.ErrClosedPipe
		}
		if !ok {
			return 0, io.EOF
		}
		<-s.ready
		if !s.whole {
			if err := m.fallBack(s); err != nil {
				return 0, err
			}
			continue
		}
		m.cur, m.off = s, 0
	}
}

// fallBack reads on serially from s's first byte.
func (m *membersReader) fallBack(s *segment) error {
	m.fellBack.Store(true)
	m.compressed = segmentBytes{m: m, cur: s}
	br := bufio.NewReaderSize(&m.compressed, m.size)
	gz, err := gzip.NewReader(br)
	if err != nil { // s starts at a cut, with a header that reads: only a read error
		return err
	}
	m.serial = &resyncReader{src: br, gz: gz, damaged: m.damaged}
	return nil
}

// release hands a segment back to the cutter.
func (m *membersReader) release(s *segment) {
	select {
	case m.free <- s:
	default:
	}
}

// stop ends the cutter; workers end once it has.
func (m *membersReader) stop() {
	select {
	case <-m.quit:
	default:
		close(m.quit)
	}
}

// segmentBytes reads the compressed bytes of the segments from one on, for
// the serial reader after a fallback.
type segmentBytes struct {
	m   *membersReader
	cur *segment
	off int
}

func (b *segmentBytes) Read(p []byte) (int, error) {
	for {
		if b.cur == nil {
			var ok bool
			select {
			case b.cur, ok = <-b.m.order:
			case <-b.m.quit:
				return 0, io.ErrClosedPipe
			}
			if !ok {
				return 0, io.EOF
			}
			<-b.cur.ready // its text is not used, but its buffers are
			b.off = 0
		}
		if b.off < len(b.cur.comp) {
			n := copy(p, b.cur.comp[b.off:])
			b.off += n
			return n, nil
		}
		if err := b.cur.readErr; err != nil {
			return 0, err
		}
		b.cur.text = nil // not used again
		b.m.release(b.cur)
		b.cur = nil
	}
}
