package diagnose

import (
	"sort"

	"github.com/gpuscope/gpuscope/sampler"
)

// gpuSample is what the rules read of one GPU in one snapshot of the
// window, worked out once when the snapshot enters it: the Engine keeps
// each GPU's column of them while the window slides (columns), so an
// evaluation reads a small value per sample where each rule looked the GPU
// up in every snapshot again (the rules' walks were most of `record`'s
// diagnosis: docs/benchmarks.md, "Recording a day: the window kept").
type gpuSample struct {
	x     *sampler.GPU // nil: the GPU is not in this snapshot
	vals  [6]float64   // summariseGPU's series, where has says
	has   uint8        // bit k: vals[k] was read; sampleLost: x is lost
	flags uint16       // fracGPU's predicates: a known and a hit bit each (flag*)
	// What the health rules decide on (colhealth.go).
	health                  uint16
	temp, slowdown, replays float64
}

const sampleLost = 1 << 7

// The predicates of the rules that count a share of the window, a pair of
// bits each: known (the sample judges it) and hit (it holds).
const (
	flagLaunchSM    = 1 << (2 * iota) // ruleLaunchBound with GPM
	flagLaunchPower                   // ruleLaunchBound without GPM
	flagDRAM                          // ruleMemoryBandwidth with GPM
	flagMemUtil                       // ruleMemoryBandwidth without GPM
	flagTensorIdle                    // ruleTensorCoresIdle
	flagIdle                          // ruleMemoryIdleHeld
	flagMemFull                       // ruleMemoryPressure
	flagPairs       = iota            // how many predicates
)

// sampleOf reads x, GPU idx of snapshot s.
func sampleOf(s *sampler.Snapshot, idx int) gpuSample {
	x := gpuIn(s, idx)
	if x == nil {
		return gpuSample{}
	}
	out := gpuSample{x: x}
	healthOf(&out, x)
	if x.Lost {
		out.has = sampleLost
		return out
	}
	util, sm, tensor, dram := x.Util, x.SMActive, x.TensorActive, x.DRAMActive
	power, powerOK := ratioPct(x.Power, x.PowerLimit)
	mem, memOK := ratioPct(x.MemUsed, x.MemTotal)
	out.vals = [6]float64{util.V, sm.V, tensor.V, dram.V, power, mem} // read where has says
	out.has = uint8(bits(util.OK, sm.OK, tensor.OK, dram.OK, powerOK, memOK))
	launchSM, launchPower, tensorIdle := util.OK && sm.OK, util.OK && powerOK, sm.OK && tensor.OK
	out.flags = bits(
		launchSM, launchSM && util.V >= launchUtilMin && sm.V < launchSMMax && dram.Or(0) < dramBound,
		launchPower, launchPower && util.V >= noGPMUtil && power < noGPMPower,
		dram.OK, dram.OK && dram.V >= dramBound,
		x.MemUtil.OK, x.MemUtil.OK && x.MemUtil.V >= dramBound,
		tensorIdle, tensorIdle && sm.V >= tensorSMMin && tensor.V < tensorIdleMax && dram.Or(0) < dramBound,
		util.OK, util.OK && idleSample(x),
		memOK, memOK && mem > memNearFull)
	return out
}

// winKey names one snapshot of a window: its time and the GPUs it holds.
// Snapshots are read-only once made (diagnose.Frame), so a snapshot with
// the same key is the same snapshot and its samples still hold.
type winKey struct {
	t    int64
	gpus *sampler.GPU // the first of the snapshot's GPUs, nil for none
	n    int
}

func keyOf(s *sampler.Snapshot) winKey {
	k := winKey{t: s.Time.UnixNano(), n: len(s.GPUs)}
	if k.n > 0 {
		k.gpus = &s.GPUs[0]
	}
	return k
}

// columns keeps each GPU's samples of the window an Engine evaluated last.
// When the next window continues it (the same snapshots at the front, new
// ones after), a column keeps what overlaps and reads only the new
// snapshots; any other move (a jump, a scrub back, a window that shrank or
// was made anew) reads the window again.
type columns struct {
	keys, spare []winKey
	byGPU       []*column // a few GPUs: looked up by a scan
	gen         int       // evaluations so far
	shift, kept int       // this window: the old window's first kept sample, how many
}

type column struct {
	idx  int // the GPU's index
	s    []gpuSample
	base []gpuSample // the array s lies in, from its start
	gen  int         // the evaluation that last read it
	kept int         // how many of s came from the window before
	sorted
	kind  procKind    // its main process's kind (prockind.go)
	procs []*procSeen // processes the rules followed over it (colprocs.go)
}

// slide takes the new window w: how much of the last one it continues.
func (cs *columns) slide(w []sampler.Snapshot) {
	keys := cs.spare[:0]
	for i := range w {
		keys = append(keys, keyOf(&w[i]))
	}
	cs.shift, cs.kept = 0, 0
	old := cs.keys
	if len(old) > 0 && len(keys) > 0 {
		d := sort.Search(len(old), func(j int) bool { return old[j].t >= keys[0].t })
		if n := len(old) - d; d < len(old) && n <= len(keys) && equalKeys(old[d:], keys[:n]) {
			cs.shift, cs.kept = d, n
		}
	}
	cs.keys, cs.spare = keys, old
	cs.gen++
	live := cs.byGPU[:0]
	for _, col := range cs.byGPU {
		if col.gen >= cs.gen-1 { // else not in the last window: its samples no longer line up
			live = append(live, col)
		}
	}
	clear(cs.byGPU[len(live):])
	cs.byGPU = live
}

func equalKeys(a, b []winKey) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// column is GPU idx's samples of w, the window slide was given, aligned
// with it (column.s). It is the columns' own until the next slide.
func (cs *columns) column(idx int, w []sampler.Snapshot) *column {
	var col *column
	for _, c := range cs.byGPU {
		if c.idx == idx {
			col = c
		}
	}
	kept := 0
	switch {
	case col == nil:
		col = &column{idx: idx}
		cs.byGPU = append(cs.byGPU, col)
	case col.gen == cs.gen: // asked twice in one evaluation
		col.kept = len(col.s) // its sorted series hold every sample
		return col
	case col.gen == cs.gen-1 && cs.kept > 0:
		col.slid(cs.shift)
		// The samples kept stay where they are: s starts later in its
		// array, which is compacted only once the slack after it is used
		// (moving the whole column every second was 1 % of `record`);
		// those that left let go of their snapshots.
		clear(col.s[:cs.shift])
		col.s = col.s[cs.shift : cs.shift+cs.kept]
		kept = cs.kept
		col.slideProcs(cs.gen-1, cs.shift, cs.kept)
	default:
		col.ok = false
		clear(col.procs)
		col.procs = col.procs[:0]
	}
	if cap(col.s) < len(w) { // sized once: a stateless Evaluate builds every column anew
		if cap(col.base) < len(w) {
			col.base = make([]gpuSample, 0, len(w)+len(w)/8)
		}
		col.s = col.base[:copy(col.base[:kept], col.s[:kept])]
	}
	col.s, col.kept, col.summed = col.s[:kept], kept, false
	for i := kept; i < len(w); i++ {
		col.s = append(col.s, sampleOf(&w[i], idx))
	}
	col.gen = cs.gen
	return col
}
