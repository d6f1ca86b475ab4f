package cli

import (
	"sync"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// backgroundWriter writes a fast demo recording's frames on its own
// goroutine: encoding and compressing a line was a third of recording a
// day (-cpuprofile, docs/benchmarks.md), and it can run beside the next
// tick's sampling and diagnosis. Frames are read-only once pushed (the
// collector's convention), so the writer may read them while the tracker
// holds them too.
type backgroundWriter struct {
	frames chan diagnose.Frame
	done   chan struct{}
	mu     sync.Mutex
	err    error // the first failed write
}

// backlog is how many frames may wait for the writer (a few
// hundred ms of fast recording, a few MB, enough to even out gzip's
// uneven block work).
const backlog = 256

func startBackgroundWriter(rec *record.Toggle) *backgroundWriter {
	b := &backgroundWriter{frames: make(chan diagnose.Frame, backlog), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		for fr := range b.frames {
			if b.failed() != nil {
				continue // the Toggle has stopped; drain
			}
			if err := recordFrame(rec, fr); err != nil {
				b.mu.Lock()
				b.err = err
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// write queues a frame; it returns the error of an earlier write, if
// one failed, so the caller stops recording.
func (b *backgroundWriter) write(fr diagnose.Frame) error {
	if err := b.failed(); err != nil {
		return err
	}
	b.frames <- fr
	return nil
}

func (b *backgroundWriter) failed() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// wait writes what is queued and returns the first error.
func (b *backgroundWriter) wait() error {
	close(b.frames)
	<-b.done
	return b.failed()
}
