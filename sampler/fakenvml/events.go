package fakenvml

import (
	"sync"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// eventSet delivers each Xid in the truth once, to the first Wait after it
// appears.
type eventSet struct {
	nvml.EventSet // nil: a method nvmlsource never calls panics
	f             *Fake

	mu        sync.Mutex
	devs      []*device
	queue     []nvml.EventData
	delivered map[xidKey]bool
}

type xidKey struct {
	gpu  int
	nano int64
	code uint64
}

func (d *device) RegisterEvents(types uint64, set nvml.EventSet) nvml.Return {
	if r := d.f.enter(d.idx, mRegisterEvents); r != nvml.SUCCESS {
		return r
	}
	es, ok := set.(*eventSet)
	if !ok || es.f != d.f {
		return nvml.ERROR_INVALID_ARGUMENT
	}
	if types&nvml.EventTypeXidCriticalError == 0 {
		return nvml.ERROR_NOT_SUPPORTED
	}
	es.mu.Lock()
	defer es.mu.Unlock()
	es.devs = append(es.devs, d)
	return nvml.SUCCESS
}

// Wait returns the next undelivered Xid, or TIMEOUT at once (the fake never
// blocks, whatever the timeout).
func (s *eventSet) Wait(uint32) (nvml.EventData, nvml.Return) {
	if r := s.f.enter(LibraryGPU, mWait); r != nvml.SUCCESS {
		return nvml.EventData{}, r
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) == 0 {
		s.refill()
	}
	if len(s.queue) == 0 {
		return nvml.EventData{}, nvml.ERROR_TIMEOUT
	}
	e := s.queue[0]
	s.queue = s.queue[1:]
	return e, nvml.SUCCESS
}

// refill queues the truth's Xids not yet delivered, and forgets delivered
// ones the truth no longer lists so the set stays bounded.
func (s *eventSet) refill() {
	var seen map[xidKey]bool
	for _, d := range s.devs {
		for _, x := range d.f.gpu(d.idx).Xids {
			k := xidKey{d.idx, x.Time.UnixNano(), x.Code}
			if seen == nil {
				seen = map[xidKey]bool{}
			}
			seen[k] = true
			if s.delivered[k] {
				continue
			}
			s.queue = append(s.queue, nvml.EventData{Device: d, EventType: nvml.EventTypeXidCriticalError, EventData: x.Code})
		}
	}
	s.delivered = seen
}

func (s *eventSet) Free() nvml.Return { return nvml.SUCCESS }
