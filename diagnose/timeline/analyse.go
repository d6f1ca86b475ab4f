package timeline

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler/trace"
)

// Rank is what one rank's trace shows.
type Rank struct {
	Rank int    `json:"rank"`           // -1 when the trace names none
	File string `json:"file,omitempty"` // set by the caller that read it
	// Proc is the process of an nsys export of several (procs.go); 0 for a
	// Kineto trace, which is one process.
	Proc      int64        `json:"pid,omitempty"`
	Device    string       `json:"device,omitempty"`
	GPU       int          `json:"gpu"` // the device most GPU events ran on
	Breakdown Breakdown    `json:"breakdown"`
	Idle      []StreamIdle `json:"idle_by_stream"`
	Kernels   Kernels      `json:"kernels"`
	Copies    Copies       `json:"copies"`
	Syncs     []SyncStat   `json:"syncs,omitempty"`
	Loader    *Loader      `json:"dataloader,omitempty"`
	Steps     []Step       `json:"steps,omitempty"`
	// StepMedianUS is the median of Steps; 0 without steps.
	StepMedianUS float64 `json:"step_median_us"`
	// Filtered: only kernels launched before the last ProfilerStep are
	// counted ([hta-docs] §Trace filtering).
	Filtered bool `json:"filtered"`
	// Analysed is how many GPU events the figures count.
	Analysed int `json:"gpu_events"`
	// ComputeMajor is the device's compute capability (major); 0 unknown.
	ComputeMajor int `json:"compute_major,omitempty"`
	// Causes tell the idle's causes apart (causes.go).
	Causes Causes `json:"causes"`
	// From and To are the wall-clock times of the first and last GPU
	// activity analysed, from the trace's own epoch (Kineto's
	// baseTimeNanoseconds, an nsys session's start); zero when the trace
	// writes none, so it cannot be set beside a recording.
	From time.Time `json:"from,omitzero"`
	To   time.Time `json:"to,omitzero"`
	// Approximate counts the events that came later than the analysis'
	// bounded window could wait for (queue.go, stream.go): the figures that
	// depend on them are approximate. 0 on every real trace measured.
	Approximate int `json:"approximate_events,omitempty"`
}

// Rank computes the figures of what was added. meta is the trace's own
// header (rank, devices).
//
// It ends the rank's trace: events added after it are not counted.
func (b *Builder) Rank(meta trace.Meta) Rank {
	b.flush()
	r := Rank{Rank: meta.Rank, GPU: b.mainDevice(), Filtered: b.stepNames() >= 2, Analysed: b.kept}
	for _, d := range meta.Devices {
		if d.ID == r.GPU {
			r.Device, r.ComputeMajor = d.Name, d.ComputeMajor
		}
	}
	r.Breakdown = b.breakdown()
	if base := meta.BaseTimeNanoseconds; base != 0 && b.kept > 0 {
		r.From = time.Unix(0, base+int64(b.all.first*1000)).UTC()
		r.To = time.Unix(0, base+int64(b.all.last*1000)).UTC()
	}
	r.Idle = b.idleByStream()
	r.Kernels = b.kern.kernels()
	r.Copies = b.copies
	r.Syncs = b.syncStats()
	steps := b.completeSteps()
	r.Loader = b.loader(steps)
	r.Steps, r.StepMedianUS = b.stepList(steps)
	r.Causes = b.causes
	r.Causes.perStep(b, steps)
	r.Approximate = b.approximate()
	return r
}

// approximate is how many events came later than the bounded queue and
// buffer could wait for (lateness); 0 when every figure is exact.
func (b *Builder) approximate() int {
	l := b.late
	n := l.order + l.joins + l.steps + l.cpu
	if l.undecided > 0 && ((b.filtering() && l.undecidedBare > 0) || (len(b.steps) >= 2 && l.undecidedLTS >= b.last)) {
		n += l.undecided
	}
	return n
}

func (b *Builder) stepNames() int {
	names := map[int32]bool{}
	for _, s := range b.steps {
		names[s.name] = true
	}
	return len(names)
}

func (b *Builder) mainDevice() int {
	best, n := -1, 0
	for d, c := range b.devices {
		if c > n || (c == n && d < best) {
			best, n = d, c
		}
	}
	return best
}

// IdleShare is a stream's idle causes as shares of its idle time, percent.
func (s StreamIdle) IdleShare() (host, kernel, other float64) {
	t := s.IdleUS()
	if t <= 0 {
		return 0, 0, 0
	}
	return 100 * s.HostWaitUS / t, 100 * s.KernelWaitUS / t, 100 * s.OtherUS / t
}
