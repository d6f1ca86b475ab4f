package record

import (
	"sync"

	"github.com/gpuscope/gpuscope/sampler"
)

// FrameWriter writes one snapshot with the findings shown beside it
// (Toggle is one).
type FrameWriter interface {
	Write(s sampler.Snapshot, findings any) error
}

// Async writes a fast recording's lines on its own goroutine: encoding and
// compressing a line was a third of recording a day (-cpuprofile,
// docs/benchmarks.md), and it can run beside the next tick's sampling and
// diagnosis. What is queued must be read-only from then on (the
// collector's frames are), so the writer may read it while others hold it.
type Async struct {
	w     FrameWriter
	queue chan asyncLine
	done  chan struct{}
	mu    sync.Mutex
	err   error // the first failed write
}

type asyncLine struct {
	s        sampler.Snapshot
	findings any
}

// asyncBacklog is how many lines may wait for the writer (a few hundred ms
// of fast recording, a few MB, enough to even out gzip's uneven blocks).
const asyncBacklog = 256

// NewAsync starts the writer goroutine; Wait ends it.
func NewAsync(w FrameWriter) *Async {
	a := &Async{w: w, queue: make(chan asyncLine, asyncBacklog), done: make(chan struct{})}
	go func() {
		defer close(a.done)
		for l := range a.queue {
			if a.failed() != nil {
				continue // the writer has stopped; drain
			}
			if err := w.Write(l.s, l.findings); err != nil {
				a.mu.Lock()
				a.err = err
				a.mu.Unlock()
			}
		}
	}()
	return a
}

// Write queues a line; it returns the error of an earlier write, if one
// failed, so the caller stops recording.
func (a *Async) Write(s sampler.Snapshot, findings any) error {
	if err := a.failed(); err != nil {
		return err
	}
	a.queue <- asyncLine{s, findings}
	return nil
}

func (a *Async) failed() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// Wait writes what is queued and returns the first error.
func (a *Async) Wait() error {
	close(a.queue)
	<-a.done
	return a.failed()
}
