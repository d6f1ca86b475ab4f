package nvmlsource

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// maxXidsPerTick bounds the event drain (a storm of Xids must
// not stall the tick; the rest arrive on the next one).
const maxXidsPerTick = 64

// openEvents registers every GPU for Xid events. A driver, GPU or
// container without event support leaves events nil (or some GPUs
// unregistered): the GPUs are read all the same, and one line says that
// Xid errors are not watched (docs/driver-compatibility.md, events).
func (s *Source) openEvents() {
	set, r := s.lib.EventSetCreate()
	if r != nvml.SUCCESS || set == nil {
		s.said = append(s.said, noEvents("", r))
		return
	}
	var refused []string
	for _, g := range s.gpus {
		if g.dev == nil {
			continue
		}
		if r = g.dev.RegisterEvents(nvml.EventTypeXidCriticalError, set); r != nvml.SUCCESS {
			refused = append(refused, strconv.Itoa(g.index))
		}
	}
	switch {
	case len(refused) == len(s.gpus):
		set.Free()
		s.said = append(s.said, noEvents("", r))
		return
	case len(refused) > 0:
		s.said = append(s.said, noEvents("GPU "+strings.Join(refused, ", ")+": ", r))
	}
	s.events = set
}

func noEvents(who string, r nvml.Return) string {
	return fmt.Sprintf("%sno Xid events from NVML (%s): Xid errors are not watched live; `dmesg | grep -i xid` lists them", who, r.Error())
}

// drainXids collects the Xid events waiting in the set, without blocking.
func (s *Source) drainXids(now time.Time) {
	if s.events == nil {
		return
	}
	for range maxXidsPerTick {
		e, r := s.events.Wait(0)
		if r != nvml.SUCCESS {
			return // TIMEOUT: nothing waiting
		}
		if e.EventType&nvml.EventTypeXidCriticalError == 0 || e.Device == nil {
			continue
		}
		for _, g := range s.gpus {
			if sameDevice(g.dev, e.Device) {
				g.xids = append(g.xids, sampler.Xid{Time: now, Code: e.EventData})
				break
			}
		}
	}
}

// sameDevice reports whether an event's device is the GPU d reads: an event
// names the driver's own handle, never the Guarded wrapper around it.
func sameDevice(d Device, event nvml.Device) bool {
	if gd, ok := d.(*guardDev); ok {
		return gd.Device == event
	}
	return d == event
}
