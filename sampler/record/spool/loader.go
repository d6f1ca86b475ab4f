package spool

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"

	"github.com/gpuscope/gpuscope/sampler/importer"
)

// Open starts spooling the recording or log at path (importer.Stdin:
// standard input) into a temporary file in dir ("" the system's) and
// returns once the first block is readable, the whole input is read, or it
// failed: a day's recording takes tens of seconds to spool, its first
// frame should not wait for that. Loading goes on on a goroutine (its
// state in Progress); Close stops it and waits for it. A failure before
// Open returns is its error, with the reader's warnings (they say why a
// log yielded nothing); a later one is Progress().Err.
func Open(path, dir string) (*Spool, []string, error) {
	src, size, err := openInput(path)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, nil, pe // "open FILE: no such file or directory"
	}
	if err != nil {
		return nil, nil, err
	}
	counted := &countingReader{r: src}
	stream, err := importer.OpenSnapshots(readCloser{counted, src}, path)
	if err != nil {
		return nil, nil, err
	}
	sp, err := New(dir)
	if err != nil {
		stream.Close()
		return nil, nil, err
	}
	l := &loader{quit: make(chan struct{}), done: make(chan struct{}), first: make(chan struct{}), src: src}
	sp.loader = l
	go l.run(sp, stream, counted, size, path)
	<-l.first
	p := sp.Progress()
	switch {
	case p.Done && p.Err != nil:
		sp.Close()
		return nil, p.Warnings, p.Err
	case sp.Len() == 0:
		sp.Close()
		return nil, p.Warnings, fmt.Errorf("%s: no snapshots", path)
	}
	return sp, p.Warnings, nil
}

// loader is the goroutine that fills a spool from its input.
type loader struct {
	quit     chan struct{} // closed by stop
	done     chan struct{} // closed when run returns
	first    chan struct{} // closed when the first block is readable, or run ends
	firstOne sync.Once
	stopOnce sync.Once
	src      io.Closer // closing it ends a read in progress
}

func (l *loader) run(sp *Spool, stream *importer.File, counted *countingReader, size int64, path string) {
	defer close(l.done)
	defer l.firstOne.Do(func() { close(l.first) })
	defer l.src.Close()
	defer stream.Close()
	fraction := func() float64 {
		if size <= 0 {
			return -1
		}
		return min(1, float64(counted.n.Load())/float64(size))
	}
	var loadErr error
	for loadErr == nil {
		select {
		case <-l.quit:
			return
		default:
		}
		snap, _, err := stream.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil {
			err = sp.Add(snap)
		}
		if err != nil {
			loadErr = err
			break
		}
		if len(sp.pending) == 0 { // a block was just published
			f := fraction()
			sp.setProgress(func(p *Progress) { p.Fraction = f })
			l.firstOne.Do(func() { close(l.first) })
		}
	}
	select {
	case <-l.quit: // the error is the closed input: nobody is waiting for it
		return
	default:
	}
	sorted, err := sp.Finish()
	if loadErr == nil {
		loadErr = err
	}
	warnings := stream.Warnings()
	if sorted {
		warnings = append(warnings, importer.DisplayName(path)+": snapshots out of time order; played sorted by time")
	}
	sp.setProgress(func(p *Progress) {
		p.Done, p.Err, p.Sorted, p.Warnings = true, loadErr, sorted, warnings
		if p.Fraction >= 0 {
			p.Fraction = 1
		}
	})
}

// stop ends the loader and waits for it.
func (l *loader) stop() {
	l.stopOnce.Do(func() {
		close(l.quit)
		l.src.Close()
	})
	<-l.done
}

// countingReader counts the bytes read through it, for Progress.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// readCloser is the counted reader closed through its source.
type readCloser struct {
	io.Reader
	io.Closer
}

// openInput opens path ("-": standard input) so that closing it ends a
// read blocked in it (a pipe whose writer stays open must not keep quit
// waiting), with its size when it is a regular file (0 otherwise).
func openInput(path string) (io.ReadCloser, int64, error) {
	if path == importer.Stdin {
		f, err := cancellableStdin()
		return f, 0, err
	}
	// A FIFO opened by os.Open is in the runtime's poller: Close ends a
	// blocked Read.
	rc, err := importer.OpenSource(path, nil)
	if err != nil {
		return nil, 0, err
	}
	var size int64
	if f, ok := rc.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	}
	return rc, size, nil
}
