package trace

import (
	"errors"
	"sync"
)

// errStopped ends a table's scan when the merge stops early.
var errStopped = errors.New("stopped")

// orderBatch is how many events a table's scan hands over at once.
const orderBatch = 512

// byStart scans the event tables side by side, each on its own goroutine
// into batches, and yields the event that starts first among their next
// rows, as a Kineto trace interleaves a kernel with its launch and a copy
// with the kernels of its time. Read table by table, every copy of a large
// export would come after every kernel and every launch before them, later
// and earlier than the analysis' bounded window can wait for
// (diagnose/timeline; docs/ARCHITECTURE.md, "Reading a trace"). Each table's
// rows are close to time order already; the window takes what is left.
// Each scan has its own copy of the reader's caches (names made, texts
// interned) and counts; the string table is only read.
func (r *nsysReader) byStart(tables []func(*nsysReader) error) error {
	type source struct {
		ch   chan []Event
		free chan []Event // batches read, for the scan to fill again
		cur  []Event
		last []Event // the batch cur is in
		err  error
		r    *nsysReader
		done bool
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait() // the scans end before the database is closed
	defer close(stop)
	srcs := make([]*source, len(tables))
	for i, table := range tables {
		rc := *r
		rc.m, rc.texts, rc.copyNames, rc.apis = &Meta{}, map[string]string{}, map[[3]int64]string{}, map[int64]string{}
		s := &source{ch: make(chan []Event, 2), free: make(chan []Event, 3), r: &rc}
		srcs[i] = s
		buf := make([]Event, 0, orderBatch)
		send := func() bool {
			select {
			case s.ch <- buf:
				select {
				case buf = <-s.free:
					buf = buf[:0]
				default:
					buf = make([]Event, 0, orderBatch)
				}
				return true
			case <-stop:
				return false
			}
		}
		rc.yield = func(e Event) error {
			if buf = append(buf, e); len(buf) == orderBatch && !send() {
				return errStopped
			}
			return nil
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := table(&rc)
			if err == nil && len(buf) > 0 {
				send()
			}
			s.err = err // seen by the merge once ch is closed
			close(s.ch)
		}()
	}
	next := func(s *source) error {
		for len(s.cur) == 0 && !s.done {
			if s.last != nil {
				select {
				case s.free <- s.last:
				default:
				}
				s.last = nil
			}
			b, ok := <-s.ch
			if !ok {
				s.done = true
				if s.err != nil && !errors.Is(s.err, errStopped) {
					return s.err
				}
				r.m.Events += s.r.m.Events
				r.m.GPUEvents += s.r.m.GPUEvents
				return nil
			}
			s.cur, s.last = b, b
		}
		return nil
	}
	for _, s := range srcs {
		if err := next(s); err != nil {
			return err
		}
	}
	for {
		var best *source
		for _, s := range srcs {
			if len(s.cur) > 0 && (best == nil || s.cur[0].TS < best.cur[0].TS) {
				best = s
			}
		}
		if best == nil {
			return nil
		}
		if err := r.yield(best.cur[0]); err != nil {
			return err
		}
		best.cur = best.cur[1:]
		if err := next(best); err != nil {
			return err
		}
	}
}
