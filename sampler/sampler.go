package sampler

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// GPUSource reads every GPU once per call. It never fails the tick: a field
// it cannot read is n/a (with the reason in GPU.NA), a GPU that fell off the
// bus is marked Lost, and problems worth a line go in the returned strings.
type GPUSource interface {
	// Node describes the driver stack (hostname is filled by the Sampler).
	Node() Node
	// Sample reads all GPUs. now is the sampler's clock (the simulator's
	// clock in a demo), used for rates and the slow tier's cadence.
	Sample(now time.Time) (gpus []GPU, problems []string)
	// Topology returns the link matrix (slow tier; nil when unknown).
	Topology() *Topology
	Close() error
}

// HostSource reads the machine around the GPUs. gpuPIDs are the processes
// NVML reported; the source returns them and their descendants in Host.Procs.
type HostSource interface {
	Sample(now time.Time, gpuPIDs []int) (*Host, error)
}

// Sampler merges its sources into one Snapshot per tick.
type Sampler struct {
	GPU      GPUSource  // may be nil (no driver): the snapshot then has no GPUs
	Host     HostSource // may be nil
	Hostname string
	// GPUError explains a GPU source that could not start (no driver).
	GPUError *SourceError
	Source   string // Node.Source, e.g. "nvml" or "demo:mixed"
	// PodOf says which Kubernetes container a device (a GPU's or a MIG
	// instance's UUID) is allocated to: the kubelet's answer, cached
	// (sampler/podresources). nil off Kubernetes. Tick names each GPU
	// process's pod from it (AttributePods).
	PodOf func(deviceUUID string) (Pod, bool)
	// Jobs says which batch scheduler job holds each GPU (Slurm); nil
	// off a scheduler. Tick sets GPU.Job and GPU.Owner from it.
	Jobs JobSource
	// Only keeps the GPUs the user chose (--gpus); nil keeps every GPU.
	// The rest are dropped before anything sees them, so every face and
	// the diagnosis judge the same GPUs.
	Only *GPUSelect
	// Procs replaces NVML's processes with this container's own where
	// NVML's PIDs cannot be joined here (ProcSource); nil uses NVML's.
	Procs ProcSource

	seq      uint64
	interval atomic.Int64 // nanoseconds
	// changed wakes a waiting Loop when SetInterval is called, so a new
	// interval takes effect at once instead of after the old one.
	changedOnce sync.Once
	changed     chan struct{}
	host        *Host     // the newest host reading (HostEvery)
	hostAt      time.Time // when it was read
}

// HostEvery is how often Tick reads the host: faster ticks (--interval
// 100ms) share the newest reading, which holds every GPU process of theirs.
// A live host reading walks /proc (1.4–2.2 ms with ~1,000 processes,
// docs/benchmarks.md), and its rates are steadier over a second; the GPU
// readings are what a fast interval is for. hostSlack lets a 1 s tick that
// arrives a little early still read.
const (
	HostEvery = time.Second
	hostSlack = 50 * time.Millisecond
)

// Interval bounds accepted by SetInterval and the --interval flag.
const (
	MinInterval = 100 * time.Millisecond
	MaxInterval = 60 * time.Second
)

// SetInterval changes the live tick period, clamped to [MinInterval, MaxInterval].
func (s *Sampler) SetInterval(d time.Duration) {
	s.interval.Store(int64(min(max(d, MinInterval), MaxInterval)))
	select {
	case s.changedCh() <- struct{}{}:
	default: // a wake-up is already pending
	}
}

func (s *Sampler) changedCh() chan struct{} {
	s.changedOnce.Do(func() { s.changed = make(chan struct{}, 1) })
	return s.changed
}

// Close releases the GPU source (NVML's Shutdown).
func (s *Sampler) Close() error {
	if s.GPU == nil {
		return nil
	}
	return s.GPU.Close()
}

// Interval is the current tick period (1 s until set).
func (s *Sampler) Interval() time.Duration {
	if d := s.interval.Load(); d > 0 {
		return time.Duration(d)
	}
	return time.Second
}

// Tick takes one snapshot at now. A panic inside a source is recovered and
// reported in Snapshot.Problems; the snapshot is still returned.
func (s *Sampler) Tick(now time.Time) Snapshot {
	s.seq++
	snap := Snapshot{Time: now, Seq: s.seq}
	if s.GPU != nil {
		func() {
			defer recoverInto(&snap.Problems, "GPU source")
			snap.Node = s.GPU.Node()
		}()
	}
	snap.Node.Hostname = s.Hostname
	snap.Node.Source = s.Source
	snap.Node.GPUError = s.GPUError

	if s.GPU != nil {
		func() {
			defer recoverInto(&snap.Problems, "GPU source")
			gpus, problems := s.GPU.Sample(now)
			gpus, none := s.Only.Filter(gpus)
			snap.GPUs = gpus
			snap.Problems = append(snap.Problems, problems...)
			if none != "" {
				snap.Problems = append(snap.Problems, none)
			}
			snap.Topology = s.GPU.Topology()
		}()
	}
	if s.Procs != nil && s.GPU != nil {
		func() {
			defer recoverInto(&snap.Problems, "process source")
			mergeOwnProcs(&snap, s.Procs, now)
		}()
	}
	shared := false
	if s.Host != nil {
		pids := gpuPIDs(snap.GPUs)
		if shared = s.hostFresh(now, pids); shared {
			snap.Host = s.host
		} else {
			func() {
				defer recoverInto(&snap.Problems, "host source")
				host, err := s.Host.Sample(now, pids)
				if err != nil {
					snap.Problems = append(snap.Problems, fmt.Sprintf("host: %v", err))
				}
				snap.Host = host
				s.host, s.hostAt = host, now
				if err != nil {
					s.host = nil // read again next tick
				}
			}()
		}
	}
	func() {
		defer recoverInto(&snap.Problems, "joining processes")
		JoinProcs(&snap)
		if shared {
			// The shared reading's processes were named when it was read,
			// and earlier snapshots (on screen) hold it: only the GPUs' pods.
			host := snap.Host
			snap.Host = nil
			AttributePods(&snap, s.PodOf)
			snap.Host = host
		} else {
			AttributePods(&snap, s.PodOf)
		}
		AttributeJobs(now, &snap, s.Jobs)
	}()
	return snap
}

// hostFresh says whether the newest host reading serves a tick at now
// whose GPU processes are pids: read less than HostEvery ago, and holding
// each of them.
func (s *Sampler) hostFresh(now time.Time, pids []int) bool {
	if s.host == nil || now.Before(s.hostAt) || now.Sub(s.hostAt) >= HostEvery-hostSlack {
		return false
	}
	for _, pid := range pids {
		if _, ok := s.host.Procs[pid]; !ok {
			return false
		}
	}
	return true
}

// Loop ticks until ctx ends, handing each snapshot to fn in this goroutine.
// Ticks are Interval apart from the start of the previous one; a call to
// SetInterval takes effect at once (a tick already due under the new
// interval happens immediately).
func (s *Sampler) Loop(ctx context.Context, clock func() time.Time, fn func(Snapshot)) {
	if clock == nil {
		clock = time.Now
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		began := time.Now()
		fn(s.Tick(clock()))
		for waiting := true; waiting; {
			timer.Reset(time.Until(began.Add(s.Interval())))
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
				waiting = false
			case <-s.changedCh(): // re-arm the timer for the new interval
				timer.Stop()
			}
		}
	}
}

func recoverInto(problems *[]string, what string) {
	if r := recover(); r != nil {
		*problems = append(*problems, fmt.Sprintf("%s panicked (recovered): %v\n%s", what, r, firstLines(string(debug.Stack()), 12)))
	}
}

func firstLines(s string, n int) string {
	for i, c := range s {
		if c == '\n' {
			n--
			if n == 0 {
				return s[:i]
			}
		}
	}
	return s
}

func gpuPIDs(gpus []GPU) []int {
	var pids []int
	seen := map[int]bool{}
	for _, g := range gpus {
		for _, p := range g.Procs {
			if !seen[p.PID] {
				seen[p.PID] = true
				pids = append(pids, p.PID)
			}
		}
	}
	return pids
}

// JoinProcs attaches host data to each GPU process by PID. Readers of
// recordings call it after decoding, since the link is not stored twice.
// (Whether NVML's PIDs belong to another PID namespace is the host source's
// call: Host.ForeignPIDs.)
func JoinProcs(snap *Snapshot) {
	if snap.Host == nil {
		return
	}
	for gi := range snap.GPUs {
		procs := snap.GPUs[gi].Procs
		for pi := range procs {
			if hp, ok := snap.Host.Procs[procs[pi].PID]; ok {
				procs[pi].Host = hp
			}
		}
	}
}

// Preroll samples s (a simulated node, whose clock is whatever it is
// given) from start up to now at interval, so a demo opens with history.
// It returns the snapshots oldest first.
func Preroll(s *Sampler, start, now time.Time, interval time.Duration) []Snapshot {
	var out []Snapshot
	for t := start; t.Before(now); t = t.Add(interval) {
		out = append(out, s.Tick(t))
	}
	return out
}
