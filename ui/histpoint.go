package ui

import (
	"sort"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// point is one snapshot of the chart history as fixed-size values: the
// GPU readings the charts and sparklines draw (gpuFigures), the clock
// events, and each process's charted figures (procFigures), the process
// page's series computed when the snapshot came, so no strings, maps or
// pointers of the snapshot stay behind.
type point struct {
	Time  time.Time
	Seq   uint64
	gpus  []gpuPoint  // in the snapshot's order
	procs []procPoint // by PID
}

// gpuFigures is how many GPU readings are drawn over the history
// (gpucharts.go, gpupane.go's sparklines), figure the field of each: one
// switch, where a function per field cost the binary 4 KB more;
// TestHistoryKeepsWhatChartsRead holds every chart's series to them.
const gpuFigures = 18

// figure is g's reading f, 0 ≤ f < gpuFigures.
func figure(g *sampler.GPU, f int) *sampler.Metric {
	switch f {
	case 0:
		return &g.Util
	case 1:
		return &g.SMActive
	case 2:
		return &g.SMOccupancy
	case 3:
		return &g.TensorActive
	case 4:
		return &g.DRAMActive
	case 5:
		return &g.MemUtil
	case 6:
		return &g.MemUsed
	case 7:
		return &g.MemTotal
	case 8:
		return &g.Power
	case 9:
		return &g.PowerLimit
	case 10:
		return &g.Temp
	case 11:
		return &g.TempSlowdown
	case 12:
		return &g.SMClock
	case 13:
		return &g.MemClock
	case 14:
		return &g.PCIeRx
	case 15:
		return &g.PCIeTx
	case 16:
		return &g.NVLinkRx
	}
	return &g.NVLinkTx
}

// gpuPoint is one GPU's figures: each reading's value (kept when n/a, as
// the snapshot holds it) and whether it was read, a bit per figure.
type gpuPoint struct {
	_     [0]func() // not comparable: no equality function in the binary
	v     [gpuFigures]float64
	ok    uint32
	clock sampler.ClockEvents
}

func (p *gpuPoint) metric(f int) sampler.Metric {
	return sampler.Metric{V: p.v[f], OK: p.ok&(1<<f) != 0}
}

// into writes the figures into g, whose other fields it leaves as they are.
func (p *gpuPoint) into(g *sampler.GPU) {
	for f := range gpuFigures {
		*figure(g, f) = p.metric(f)
	}
	g.ClockEvents = p.clock
}

// The process page's figures (procviewcharts.go), by their place in
// procPoint.v.
const (
	procGPUMem     = iota // summed over the GPUs it is on
	procSM                // the mean over them
	procCPU               // its own
	procCPUWorkers        // its children's, summed
	procRSS
	procRSSWorkers
	procFigures
)

// procPoint is one PID's figures in one snapshot.
type procPoint struct {
	_   [0]func() // not comparable: no equality function in the binary
	pid int
	ok  uint8 // a bit per figure
	v   [procFigures]float64
}

func (p *procPoint) metric(f int) sampler.Metric {
	return sampler.Metric{V: p.v[f], OK: p.ok&(1<<f) != 0}
}

// gpu is the figures of GPU pos, nil where the snapshot had none there.
func (p *point) gpu(pos int) *gpuPoint {
	if pos < 0 || pos >= len(p.gpus) {
		return nil
	}
	return &p.gpus[pos]
}

// proc is pid's figures, nil where the snapshot did not show pid.
func (p *point) proc(pid int) *procPoint {
	i := sort.Search(len(p.procs), func(i int) bool { return p.procs[i].pid >= pid })
	if i == len(p.procs) || p.procs[i].pid != pid {
		return nil
	}
	return &p.procs[i]
}

// set makes p the figures of s, reusing p's arrays; work is the
// history's to sort the PIDs in, so p's array is only as long as needed
// (nil: the processes are the caller's to set, history.settle's).
func (p *point) set(s *sampler.Snapshot, work *[]procPoint) {
	p.Time, p.Seq = s.Time, s.Seq
	if cap(p.gpus) < len(s.GPUs) {
		p.gpus = make([]gpuPoint, 0, len(s.GPUs))
	}
	p.gpus = p.gpus[:0]
	for gi := range s.GPUs {
		g := &s.GPUs[gi]
		var gp gpuPoint
		for f := range gpuFigures {
			m := figure(g, f)
			gp.v[f] = m.V
			if m.OK {
				gp.ok |= 1 << f
			}
		}
		gp.clock = g.ClockEvents
		p.gpus = append(p.gpus, gp)
	}
	if work != nil {
		p.setProcs(s, work)
	}
}

// setProcs keeps a procPoint for every PID of the snapshot, on a GPU or on
// the host (procOf of each), sorted in work first so p's array is only as
// long as needed.
func (p *point) setProcs(s *sampler.Snapshot, work *[]procPoint) {
	all := (*work)[:0]
	for gi := range s.GPUs {
		for pi := range s.GPUs[gi].Procs {
			all = withPID(all, s.GPUs[gi].Procs[pi].PID)
		}
	}
	if s.Host != nil {
		for pid := range s.Host.Procs {
			all = withPID(all, pid)
		}
	}
	*work = all
	if cap(p.procs) < len(all) {
		p.procs = make([]procPoint, len(all))
	}
	p.procs = p.procs[:len(all)]
	for i := range all {
		p.procs[i] = procOf(s, all[i].pid)
	}
}

// withPID is all, sorted by PID, with pid in it.
func withPID(all []procPoint, pid int) []procPoint {
	i := sort.Search(len(all), func(i int) bool { return all[i].pid >= pid })
	if i < len(all) && all[i].pid == pid {
		return all
	}
	all = append(all, procPoint{})
	copy(all[i+1:], all[i:])
	all[i].pid = pid
	return all
}

// procOf is what procviewcharts.go charts for pid in s: the GPU figures
// folded over its GPUs in their order, its own CPU and RSS (procIn's
// host record), and its children's sums in the order of its Children.
func procOf(s *sampler.Snapshot, pid int) procPoint {
	q := procPoint{pid: pid}
	n := 0
	for gi := range s.GPUs {
		for pi := range s.GPUs[gi].Procs {
			if pr := &s.GPUs[gi].Procs[pi]; pr.PID == pid {
				q.sum(procGPUMem, pr.MemUsed)
				q.sum(procSM, pr.SMUtil)
				if pr.SMUtil.OK {
					n++
				}
			}
		}
	}
	if n > 0 {
		q.v[procSM] /= float64(n)
	}
	_, h := procIn(s, pid)
	if h == nil {
		return q
	}
	q.own(procCPU, h.CPU)
	q.own(procRSS, h.RSS)
	if s.Host == nil {
		return q
	}
	for _, k := range h.Children {
		if kp := s.Host.Procs[k]; kp != nil {
			q.sum(procCPUWorkers, kp.CPU)
			q.sum(procRSSWorkers, kp.RSS)
		}
	}
	return q
}

// sum adds m to figure f where it was read.
func (q *procPoint) sum(f int, m sampler.Metric) {
	if m.OK {
		q.v[f] += m.V
		q.ok |= 1 << f
	}
}

// own sets figure f to m as read (the n/a value kept, as Metric holds it).
func (q *procPoint) own(f int, m sampler.Metric) {
	q.v[f] = m.V
	if m.OK {
		q.ok |= 1 << f
	}
}
