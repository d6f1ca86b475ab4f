package record

import (
	"maps"
	"slices"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// wireEntry is an Entry as written: the entry plus the lists of what the writer
// left out because it equals what it wrote last. Old recordings lack the
// lists, so nothing is restored and they read as before.
type wireEntry struct {
	Entry
	// SameGPUs are the indexes of GPUs whose static fields were left out.
	SameGPUs []int `json:"same_gpus,omitempty"`
	// SteadyGPUs are the indexes of GPUs whose steady fields were left out.
	SteadyGPUs []int `json:"steady_gpus,omitempty"`
	// SameProcs are the PIDs of host processes whose static fields were left out.
	SameProcs []int `json:"same_procs,omitempty"`
	// SameLinks are the indexes of GPUs whose NVLink list was left out, and
	// SameTopology says the topology was (slowtier.go; version 2 on).
	SameLinks    []int `json:"same_links,omitempty"`
	SameTopology bool  `json:"same_topology,omitempty"`
	// SameFindings are the positions in the findings of those as in the
	// line before, and SeenFindings of those as there but last seen at this
	// line's time (findings.go; version 3 on).
	SameFindings []int `json:"same_findings,omitempty"`
	SeenFindings []int `json:"seen_findings,omitempty"`
	// gpuSkip[i] is what the encoder leaves out of GPUs[i] (skip bits):
	// the writer marks it instead of copying the GPUs to blank it; and
	// skipProcs the processes whose statics it leaves out (SameProcs,
	// which a line read or made by hand lists without marking).
	gpuSkip   []uint8
	skipProcs []int
}

// What the encoder leaves out of a GPU of a line (skipGroup, encode.go):
// the fields a blanked copy would have omitted as zero.
const (
	skipStatic uint8 = 1 << iota // gpuStatic's fields (SameGPUs)
	skipSteady                   // gpuSteady's (SteadyGPUs)
	skipLinks                    // NVLinks (SameLinks, slowtier.go)
)

// gpuSteady are fast-tier readings that describe a state rather than a
// rate (P-state, clocks, PCIe link, throttle reasons, codec use): on a GPU
// at steady load they repeat tick after tick, ~130 B of its share of a line.
// Rates (utilisation, power, throughput) change every tick and are always
// written.
type gpuSteady struct {
	EncUtil, DecUtil, PState, SMClock, MemClock, PCIeGen, PCIeWidth sampler.Metric
	ClockEvents                                                     sampler.ClockEvents
}

func gpuSteadyOf(g *sampler.GPU) gpuSteady {
	return gpuSteady{g.EncUtil, g.DecUtil, g.PState, g.SMClock, g.MemClock, g.PCIeGen, g.PCIeWidth, g.ClockEvents}
}

func (s gpuSteady) setOn(g *sampler.GPU) {
	g.EncUtil, g.DecUtil, g.PState, g.SMClock, g.MemClock = s.EncUtil, s.DecUtil, s.PState, s.SMClock, s.MemClock
	g.PCIeGen, g.PCIeWidth, g.ClockEvents = s.PCIeGen, s.PCIeWidth, s.ClockEvents
}

// gpuStatic is what a GPU reports on the slow tier (identity, limits,
// health counters) or never changes: ~350 B of its ~950 B share of a line
// (measured on a 24 h 8-GPU demo recording). Two values compare equal only
// if they encode to the same JSON, so restoring the last written one reads
// back exactly what was seen.
type gpuStatic struct {
	gpuScalars
	NA map[string]string
}

type gpuScalars struct {
	UUID, Name, BusID, Arch                   string
	MemTotal, TempSlowdown, PowerLimit        sampler.Metric
	SMClockMax, MemClockMax                   sampler.Metric
	PCIeGenMax, PCIeWidthMax, NUMANode        sampler.Metric
	Persistence, ComputeMode, CPUAffinity     string
	MIG, RemapPending, RemapFailed            bool
	PCIeReplays, ECCUncorrected, ECCCorrected sampler.Metric
	RemappedRows                              sampler.Metric
	// Added with the dcgm-exporter default counters (slow tier, or as
	// static as it: the driver's reserve).
	RemappedCorrectable, RemappedUncorrectable sampler.Metric
	VGPULicense, MemReserved                   sampler.Metric
}

func gpuStaticOf(g *sampler.GPU) gpuStatic {
	return gpuStatic{gpuScalars{g.UUID, g.Name, g.BusID, g.Arch, g.MemTotal, g.TempSlowdown, g.PowerLimit,
		g.SMClockMax, g.MemClockMax, g.PCIeGenMax, g.PCIeWidthMax, g.NUMANode,
		g.Persistence, g.ComputeMode, g.CPUAffinity, g.MIG, g.RemapPending, g.RemapFailed,
		g.PCIeReplays, g.ECCUncorrected, g.ECCCorrected, g.RemappedRows,
		g.RemappedCorrectable, g.RemappedUncorrectable, g.VGPULicense, g.MemReserved}, g.NA}
}

func (s gpuStatic) setOn(g *sampler.GPU) {
	g.UUID, g.Name, g.BusID, g.Arch = s.UUID, s.Name, s.BusID, s.Arch
	g.MemTotal, g.TempSlowdown, g.PowerLimit = s.MemTotal, s.TempSlowdown, s.PowerLimit
	g.SMClockMax, g.MemClockMax = s.SMClockMax, s.MemClockMax
	g.PCIeGenMax, g.PCIeWidthMax, g.NUMANode = s.PCIeGenMax, s.PCIeWidthMax, s.NUMANode
	g.Persistence, g.ComputeMode, g.CPUAffinity = s.Persistence, s.ComputeMode, s.CPUAffinity
	g.MIG, g.RemapPending, g.RemapFailed = s.MIG, s.RemapPending, s.RemapFailed
	g.PCIeReplays, g.ECCUncorrected, g.ECCCorrected, g.RemappedRows = s.PCIeReplays, s.ECCUncorrected, s.ECCCorrected, s.RemappedRows
	g.RemappedCorrectable, g.RemappedUncorrectable, g.VGPULicense, g.MemReserved = s.RemappedCorrectable, s.RemappedUncorrectable, s.VGPULicense, s.MemReserved
	g.NA = s.NA
}

// equal: nil and empty NA maps both encode as absent.
func (s gpuStatic) equal(o gpuStatic) bool {
	return s.gpuScalars == o.gpuScalars && maps.Equal(s.NA, o.NA)
}

// procStatic is what a process keeps for its life: ~150 B of each ~220 B
// process record, and a training job lists dozens (DataLoader workers).
// Start is part of it, so a reused PID (a new process, a new start time)
// never inherits the previous process's command line.
type procStatic struct {
	User, Name, Cmdline, Container, PodUID string
	Pod                                    sampler.Pod
	Threads                                int
	Start                                  time.Time
}

func procStaticOf(p *sampler.Proc) procStatic {
	return procStatic{p.User, p.Name, p.Cmdline, p.Container, p.PodUID, p.Pod, p.Threads, p.Start}
}

func (s procStatic) setOn(p *sampler.Proc) {
	p.User, p.Name, p.Cmdline, p.Container, p.PodUID, p.Pod, p.Threads, p.Start = s.User, s.Name, s.Cmdline, s.Container, s.PodUID, s.Pod, s.Threads, s.Start
}

// equal also wants the same UTC offset: the JSON text (and so what a reader
// decodes) depends on it, not only on the instant.
func (s procStatic) equal(o procStatic) bool {
	_, off := s.Start.Zone()
	_, ooff := o.Start.Zone()
	st, ost := s.Start, o.Start
	s.Start, o.Start = time.Time{}, time.Time{}
	return s == o && st.Equal(ost) && off == ooff
}

// statics remembers, on either side, the static fields (and steady GPU
// readings) last written in full per GPU index and per PID. The writer leaves out those that did not change
// and lists them; the reader fills them back in. PIDs absent from a snapshot
// are forgotten on both sides alike, so the memory stays the size of one
// snapshot's process list and a returning PID is written in full.
type statics struct {
	gpus   map[int]gpuStatic
	steady map[int]gpuSteady
	procs  map[int]procStatic
	// The writer's: one line's gpuSkip, reused by the next.
	skipBuf []uint8
}

func (st *statics) init() {
	if st.gpus == nil {
		st.gpus, st.steady, st.procs = map[int]gpuStatic{}, map[int]gpuSteady{}, map[int]procStatic{}
	}
}

// elide returns the line to write for e: e itself, with what to leave out
// listed (SameGPUs, SteadyGPUs, SameProcs) and marked for the encoder
// (gpuSkip, skipProcs), which skips those fields
// rather than writing a blanked copy. Copying the GPUs and the process map
// to blank them was most of this function's cost, a line's ~35 processes
// copied and put in a new map every second (docs/benchmarks.md,
// "Recording a day: the statics skipped"). It never modifies e; gpuSkip
// is reused by the next call.
func (st *statics) elide(e Entry) wireEntry {
	st.init()
	l := wireEntry{Entry: e}
	st.skipBuf = st.skipBuf[:0]
	for i := range l.GPUs {
		idx := l.GPUs[i].Index
		// A GPU index listed twice is written in full: the reader could not
		// tell which of the two a list means.
		repeats := indexRepeats(l.GPUs, i)
		static, steady := gpuStaticOf(&l.GPUs[i]), gpuSteadyOf(&l.GPUs[i])
		lastStatic, okStatic := st.gpus[idx]
		lastSteady, okSteady := st.steady[idx]
		var skip uint8
		if okStatic && !repeats && lastStatic.equal(static) {
			skip |= skipStatic
			l.SameGPUs = append(l.SameGPUs, idx)
		} else {
			st.gpus[idx] = static
		}
		if okSteady && !repeats && lastSteady == steady {
			skip |= skipSteady
			l.SteadyGPUs = append(l.SteadyGPUs, idx)
		} else {
			st.steady[idx] = steady
		}
		st.skipBuf = append(st.skipBuf, skip)
	}
	l.gpuSkip = st.skipBuf
	var procs map[int]*sampler.Proc
	if l.Host != nil {
		procs = l.Host.Procs
	}
	forgetAbsent(st.procs, procs)
	for pid, p := range procs {
		if p == nil {
			continue
		}
		cur := procStaticOf(p)
		if last, ok := st.procs[pid]; !ok || !last.equal(cur) || p.PID != pid {
			st.procs[pid] = cur
			continue
		}
		l.SameProcs = append(l.SameProcs, pid)
	}
	slices.Sort(l.SameProcs) // stable output for the same input; the encoder searches it
	l.skipProcs = l.SameProcs
	return l
}

// restore fills in what elide left out, from the last values read, and
// remembers the values written in full. A listed GPU or PID the reader has
// no value for (a line skipped in lenient mode) is left as read.
func (st *statics) restore(l *wireEntry) {
	st.init()
	for i := range l.GPUs {
		g := &l.GPUs[i]
		if slices.Contains(l.SameGPUs, g.Index) {
			if last, ok := st.gpus[g.Index]; ok {
				last.setOn(g)
			}
		} else {
			st.gpus[g.Index] = gpuStaticOf(g)
		}
		if slices.Contains(l.SteadyGPUs, g.Index) {
			if last, ok := st.steady[g.Index]; ok {
				last.setOn(g)
			}
		} else {
			st.steady[g.Index] = gpuSteadyOf(g)
		}
	}
	var procs map[int]*sampler.Proc
	if l.Host != nil {
		procs = l.Host.Procs
	}
	st.restoreProcs(procs, l.SameProcs)
	l.SameGPUs, l.SteadyGPUs, l.SameProcs = nil, nil, nil
}

// restoreProcs is restore's part for the host processes. The usual line
// lists every process as unchanged, and the memory holds exactly those:
// then each listed PID is looked up once in the line and once in the
// memory, and nothing else is walked. Walking the line's map, searching
// the list for each PID and the memory for PIDs gone was a third of the
// reading goroutine's own work on a day's report (docs/benchmarks.md,
// "Recordings: the scanner's own cost").
func (st *statics) restoreProcs(procs map[int]*sampler.Proc, same []int) {
	if !slices.IsSorted(same) {
		same = slices.Clone(same)
		slices.Sort(same) // the writer sorts; a hand-edited file may not
	}
	listed, remembered := 0, 0 // distinct listed PIDs in the line, and of them in the memory
	for i, pid := range same {
		p := procs[pid]
		if p == nil || i > 0 && same[i-1] == pid {
			continue
		}
		listed++
		if last, ok := st.procs[pid]; ok {
			last.setOn(p)
			remembered++
		}
	}
	if listed < len(procs) { // a process written in full (or a null one)
		for pid, p := range procs {
			if p == nil {
				continue
			}
			if _, ok := slices.BinarySearch(same, pid); !ok {
				st.procs[pid] = procStaticOf(p)
			}
		}
	}
	// The memory's PIDs not in the line are forgotten: none when it holds
	// only listed ones and no line process was added to it.
	if remembered != len(st.procs) {
		forgetAbsent(st.procs, procs)
	}
}

func forgetAbsent(mem map[int]procStatic, now map[int]*sampler.Proc) {
	for pid := range mem {
		if now[pid] == nil {
			delete(mem, pid)
		}
	}
}

func indexRepeats(gpus []sampler.GPU, i int) bool {
	for j := range gpus {
		if j != i && gpus[j].Index == gpus[i].Index {
			return true
		}
	}
	return false
}
