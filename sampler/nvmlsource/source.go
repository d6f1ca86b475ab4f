// Package nvmlsource reads NVIDIA GPUs through NVML (go-nvml) and implements
// sampler.GPUSource. The nvml.Interface is injected: the real library on a
// node, fakenvml in tests and in the --demo simulator.
//
// Every tick reads the fast tier (utilisation, memory, power, clocks,
// processes, GPM); the slow tier (identity, limits, health, NVLinks, topology)
// is read on the first tick and every Options.SlowEvery and carried over in
// between. "Not supported" is data: the field is n/a with its reason in
// GPU.NA, and the call is not repeated.
package nvmlsource

import (
	"errors"
	"fmt"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// Options tune the source.
type Options struct {
	// SlowEvery is the slow tier's period; 0 means DefaultSlowEvery.
	SlowEvery time.Duration
	// InitTimeout bounds nvmlInit (0: wait for it); SlowInit is the start
	// time above which the dashboard says so (0: DefaultSlowInit). init.go.
	InitTimeout, SlowInit time.Duration
}

// DefaultSlowEvery: identity, limits and health change rarely, so they are
// read every 10 s, not every tick (docs/ARCHITECTURE.md, sampler/nvmlsource).
const DefaultSlowEvery = 10 * time.Second

var _ sampler.GPUSource = (*Source)(nil)

// Source is the NVML GPU source. Not safe for concurrent use: the Sampler
// calls Sample, Topology and Node from one goroutine.
type Source struct {
	lib      Library
	opts     Options
	node     sampler.Node
	gpus     []*gpuReader
	events   nvml.EventSet           // nil when the driver offers no event set
	gpmReq   *nvml.GpmMetricsGetType // reused: the struct is ~19 KB
	lastSlow time.Time
	slowDone bool // the slow tier ran at least once
	topo     *sampler.Topology
	// pcie caches each pair's PCIe label: the tree does not change while
	// the node runs, and NVML walks sysfs to answer. "" = not known yet.
	pcie [][]string
	said []string // start-up lines, said with the first Sample
	// absentSaid: the calls whose missing function was said (absentLine).
	absentSaid [numCalls]bool
}

// gpuReader is one GPU's reading state, kept between ticks.
type gpuReader struct {
	index        int
	dev          Device      // the calls the reader makes
	handle       nvml.Device // the same GPU, as NVML takes it as an argument
	failed       string      // the handle could not be opened: never read
	lost         bool
	lostReported bool
	backReported bool
	said         map[any]bool // failed calls already said (failedOnce)
	problems     []string     // lines queued for this tick's Sample
	fails        []fail       // calls that failed for the first time this tick
	newAbsent    []call       // calls first found missing from the driver this tick

	skip   [numCalls]bool // calls that answered NOT_SUPPORTED
	absent [numCalls]bool // of those, calls the driver does not export
	na     []naEntry      // this tick's reasons (scratch)
	slowNA []naEntry      // the slow tier's reasons, carried over
	prevNA map[string]string

	slow         sampler.GPU // identity and slow-tier fields, carried over
	switchLinks  int         // active NVLinks that end at an NVSwitch
	remoteTypeNA bool        // GetNvLinkRemoteDeviceType unavailable
	vgpuGuest    bool        // a vGPU seen from its virtual machine
	procSeen     uint64      // newest process-utilisation timestamp seen (µs)
	gpm          gpmState
	nvlData      nvlinkData    // NVLink data counters at the previous tick
	mig          migState      // instances of a MIG-enabled GPU
	xids         []sampler.Xid // delivered since the last Sample
}

// New initialises NVML and opens every GPU. On failure the error wraps the
// nvml.Return (errors.As(err, new(nvml.Return))); pass it to Explain.
func New(lib Library, opts Options) (*Source, error) {
	if opts.SlowEvery <= 0 {
		opts.SlowEvery = DefaultSlowEvery
	}
	took, err := initLibrary(lib, opts)
	if err != nil {
		return nil, err
	}
	n, r := lib.DeviceGetCount()
	if r != nvml.SUCCESS {
		lib.Shutdown()
		return nil, fmt.Errorf("nvml: device count: %w", r)
	}
	s := &Source{lib: lib, opts: opts, gpmReq: &nvml.GpmMetricsGetType{}}
	s.node.Driver, _ = lib.SystemGetDriverVersion()
	s.node.NVML, _ = lib.SystemGetNVMLVersion()
	if v, r := lib.SystemGetCudaDriverVersion(); r == nvml.SUCCESS {
		s.node.CUDA = cudaVersion(v)
	}
	if line := slowInitLine(took, opts); line != "" {
		s.said = append(s.said, line)
	}
	s.gpus = make([]*gpuReader, n)
	for i := range s.gpus {
		g := &gpuReader{index: i}
		g.handle, r = lib.DeviceGetHandleByIndex(i)
		if r != nvml.SUCCESS || g.handle == nil {
			g.handle, g.failed = nil, fmt.Sprintf("cannot open GPU %d: %v", i, r)
		} else {
			g.dev = g.handle
		}
		s.gpus[i] = g
	}
	s.openEvents()
	return s, nil
}

// cudaVersion turns NVML's 12040 into "12.4".
func cudaVersion(v int) string { return fmt.Sprintf("%d.%d", v/1000, v%1000/10) }

// Node describes the driver stack.
func (s *Source) Node() sampler.Node { return s.node }

// Topology is the link matrix built on the last slow tier.
func (s *Source) Topology() *sampler.Topology { return s.topo }

// Close frees NVML resources and shuts the library down.
func (s *Source) Close() error {
	for _, g := range s.gpus {
		g.gpm.free()
		g.mig.free()
	}
	if s.events != nil {
		s.events.Free()
	}
	if r := s.lib.Shutdown(); r != nvml.SUCCESS {
		return fmt.Errorf("nvml: shutdown: %w", r)
	}
	return nil
}

// Sample reads every GPU once. It never fails: see sampler.GPUSource.
func (s *Source) Sample(now time.Time) ([]sampler.GPU, []string) {
	slow := !s.slowDone || now.Sub(s.lastSlow) >= s.opts.SlowEvery || now.Before(s.lastSlow)
	s.drainXids(now)
	problems := s.said
	s.said = nil
	out := make([]sampler.GPU, len(s.gpus))
	for i, g := range s.gpus {
		if g.lost && slow && s.reopen(i) {
			g = s.gpus[i]
			if !g.backReported {
				g.backReported = true
				problems = append(problems, fmt.Sprintf("GPU %d (%s) answers again (reset?); read again from now", i, g.slow.BusID))
			}
		}
		out[i] = s.readGPU(g, now, slow)
		if g.lost && !g.lostReported {
			g.lostReported = true
			problems = append(problems, lostProblem(g))
		}
		problems = append(problems, g.problems...)
		problems = append(problems, g.failLines()...)
		g.problems, g.fails = g.problems[:0], g.fails[:0]
	}
	if line := s.absentLine(); line != "" {
		problems = append(problems, line)
	}
	if slow {
		s.lastSlow, s.slowDone = now, true
		s.topo = s.buildTopology()
	}
	return out, problems
}

func lostProblem(g *gpuReader) string {
	return fmt.Sprintf("GPU %d (%s) fell off the bus (NVML: GPU is lost); tried again every %s — "+
		"look for Xid 79 in `dmesg`; the GPU needs a reset (nvidia-smi -r) or the node a reboot", g.index, g.slow.BusID, DefaultSlowEvery)
}

// reopen tries a lost GPU again on the slow tier: after `nvidia-smi -r` (or
// a driver recovery) the index answers again, and is read as a new GPU with
// fresh state (its caches belonged to the device that was lost). It reports
// whether the GPU is back.
func (s *Source) reopen(i int) bool {
	dev, r := s.lib.DeviceGetHandleByIndex(i)
	if r != nvml.SUCCESS || dev == nil {
		return false
	}
	if _, r := dev.GetUUID(); r != nvml.SUCCESS {
		return false
	}
	old := s.gpus[i]
	old.gpm.free()
	old.mig.free()
	// What was said stays said: a GPU that flaps (lost, back, lost) gives
	// one line each way, not one per flap; Lost in the data shows each.
	g := &gpuReader{index: i, dev: dev, lostReported: old.lostReported, backReported: old.backReported, said: old.said}
	g.slow.BusID = old.slow.BusID // named in the line saying it is back
	if s.events != nil {
		_ = dev.RegisterEvents(nvml.EventTypeXidCriticalError, s.events)
	}
	s.gpus[i] = g
	return true
}

// readGPU reads one GPU. A lost or unopened GPU returns its identity only.
func (s *Source) readGPU(g *gpuReader, now time.Time, slow bool) sampler.GPU {
	if g.failed != "" {
		return sampler.GPU{Index: g.index, NA: map[string]string{"device": g.failed}}
	}
	if !g.lost && slow {
		g.na = g.na[:0]
		s.readSlow(g)
		s.enumerateMIG(g, g.slow.MIG)
		g.slowNA = append(g.slowNA[:0], g.na...)
	}
	if g.lost {
		return sampler.GPU{Index: g.index, UUID: g.slow.UUID, Name: g.slow.Name, BusID: g.slow.BusID, Arch: g.slow.Arch, Lost: true}
	}
	g.na = append(g.na[:0], g.slowNA...)
	out := g.slow
	s.readFast(g, &out, now)
	if g.lost {
		return sampler.GPU{Index: g.index, UUID: g.slow.UUID, Name: g.slow.Name, BusID: g.slow.BusID, Arch: g.slow.Arch, Lost: true}
	}
	out.Xids, g.xids = g.xids, nil
	out.NA = g.naMap()
	return out
}

// errReturn extracts the nvml.Return an error from New wraps.
func errReturn(err error) (nvml.Return, bool) {
	var r nvml.Return
	ok := errors.As(err, &r)
	return r, ok
}
