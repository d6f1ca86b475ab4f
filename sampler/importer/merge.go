package importer

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// maxSkippedLines: skipped runs of other text listed one by one; beyond,
// one line counts them (a screenful).
const maxSkippedLines = 8

// maxPictureGPUs bounds the GPUs of one merged node (the
// largest nodes have 8-16 GPUs, an NVL72 rack 72; text claiming hundreds of
// distinct GPUs is damaged, and each one is copied into every snapshot).
const maxPictureGPUs = 128

func (pic *picture) warnOnce(format string, args ...any) {
	w := fmt.Sprintf(format, args...)
	for _, x := range pic.warn {
		if x == w {
			return
		}
	}
	pic.warn = append(pic.warn, w)
}

// picture is the merged view of every section: the timeline (the longest
// series, or one snapshot) filled in with what the other sections say.
type picture struct {
	snaps    []sampler.Snapshot
	at       map[fieldAt]string // (final GPU index, field) -> "section N (kind) line L"
	sections []string
	warn     []string
}

// merge builds one picture of one node from the parts. The longest series
// (a -q loop, dmon, CSV ...) is the timeline; every other section's facts
// fill in what the timeline lacks (names, limits, topology, processes).
// Xids and lost GPUs are events: they land on the last snapshot.
func merge(parts []*part, o Options) picture {
	var pic picture
	var timeline *part
	var skipped []string
	for _, p := range parts {
		if p.sec.kind == kindOther {
			skipped = append(skipped, fmt.Sprintf("%d-%d", p.sec.first, p.sec.first+len(p.sec.lines)-1))
		}
		if p.sec.kind != kindOther || len(skipped) <= maxSkippedLines {
			pic.sections = append(pic.sections, p.line())
		}
		for _, w := range p.warn {
			pic.warn = append(pic.warn, fmt.Sprintf("section %d: %s", p.no, w))
		}
		if len(p.snaps) == 0 {
			continue
		}
		if timeline == nil || len(p.snaps) > len(timeline.snaps) ||
			len(p.snaps) == len(timeline.snaps) && rank(p) > rank(timeline) {
			timeline = p
		}
	}
	if n := len(skipped) - maxSkippedLines; n > 0 { // a bug report: dozens of other tools' outputs
		pic.sections = append(pic.sections, fmt.Sprintf("and %s of other text skipped (lines %s ...)",
			sampler.Counted(n, "more run", "more runs"), strings.Join(skipped[maxSkippedLines:min(len(skipped), maxSkippedLines+5)], ", ")))
	}
	if timeline == nil {
		return pic
	}
	pic.at = map[fieldAt]string{}
	pic.snaps = timeline.snaps // the parts are this merge's own: filled in place
	date(pic.snaps, timeline, o, &pic)
	pic.remember(timeline, placeUnknown(pic.snaps))
	pic.apply(pic.gather(parts, timeline))
	for i := range pic.snaps {
		pic.snaps[i].Node.Source = string(Pasted)
		pic.snaps[i].Seq = uint64(i + 1)
	}
	return pic
}

// rank prefers, among sections of equal length, the one with readings.
//
// Out of line: inlined at its call sites it cost more than the call
// (docs/benchmarks.md, "Pasted text copied, not changed").
//
//go:noinline
func rank(p *part) int {
	switch p.sec.kind {
	case kindStream, kindQuery, kindTable:
		return 2
	case kindTopo, kindList:
		return 1
	}
	return 0
}

// placeUnknown gives GPUs known only by address (kernel lines) an index
// after the known ones, the same in every snapshot.
func placeUnknown(snaps []sampler.Snapshot) map[int]int {
	remap := map[int]int{}
	for i := range snaps {
		for j := range snaps[i].GPUs {
			g := &snaps[i].GPUs[j]
			if g.Index >= 0 {
				continue
			}
			n, ok := remap[g.Index]
			if !ok {
				n = freeIndex(snaps[i].GPUs, -1)
				remap[g.Index] = n
			}
			g.Index = n
		}
	}
	return remap
}

// date gives untimed snapshots a time: the part's banner, else the
// synthesized start.
func date(snaps []sampler.Snapshot, p *part, o Options, pic *picture) {
	for i := range snaps {
		if !snaps[i].Time.IsZero() {
			continue
		}
		if p.timed && !p.t.IsZero() {
			snaps[i].Time = p.t.Add(time.Duration(i) * time.Second)
			continue
		}
		snaps[i].Time = o.Start.Add(time.Duration(i) * o.Interval)
		if i == 0 {
			pic.warn = append(pic.warn, fmt.Sprintf("section %d has no timestamp; its time is set to %s", p.no,
				o.Start.Format(time.RFC3339)))
		}
	}
}

// remember records where the timeline's fields came from.
func (pic *picture) remember(p *part, remap map[int]int) {
	for k, line := range p.at {
		gpu := k.gpu
		if g, ok := remap[gpu]; ok {
			gpu = g
		}
		if _, taken := pic.at[fieldAt{gpu, k.field}]; !taken {
			pic.at[fieldAt{gpu, k.field}] = pic.loc(p, line)
		}
	}
	if p.sec.kind == kindStream { // a streamed log: its rows are not tracked, its section is
		for _, s := range p.snaps {
			for _, g := range s.GPUs {
				gpu := g.Index
				if r, ok := remap[gpu]; ok {
					gpu = r
				}
				if _, taken := pic.at[fieldAt{gpu, "*"}]; !taken {
					pic.at[fieldAt{gpu, "*"}] = pic.loc(p, 0)
				}
			}
		}
	}
}

func (pic *picture) loc(p *part, line int) string {
	kind := p.sec.kind
	if kind == kindStream {
		kind = string(p.sec.format)
	}
	file := ""
	if p.sec.file != "" {
		file = p.sec.file + ", "
	}
	if line == 0 {
		return fmt.Sprintf("%ssection %d (%s) lines %d-%d", file, p.no, kind, p.sec.first, p.sec.first+len(p.sec.lines)-1)
	}
	return fmt.Sprintf("%ssection %d (%s) line %d", file, p.no, kind, line)
}

// gather folds every non-timeline section into one snapshot of facts;
// slots maps each part's GPU index to its place in it.
func (pic *picture) gather(parts []*part, timeline *part) (sampler.Snapshot, map[*part]map[int]int) {
	var st sampler.Snapshot
	slots := map[*part]map[int]int{}
	for _, p := range parts {
		if p == timeline || len(p.snaps) == 0 {
			continue
		}
		m := map[int]int{}
		for _, s := range p.snaps {
			for _, g := range s.GPUs {
				key := g.Index
				j := matchGPU(st.GPUs, g)
				if j < 0 && g.Lost && g.Index < 0 {
					g.Index = lostSlot(st.GPUs, g.Index)
				}
				switch {
				case j < 0 && len(st.GPUs) >= maxPictureGPUs:
					pic.warnOnce("section %d: more than %d GPUs on one node; the rest ignored", p.no, maxPictureGPUs)
					continue
				case j < 0:
					st.GPUs = append(st.GPUs, g)
					j = len(st.GPUs) - 1
				default:
					fillGPU(&st.GPUs[j], &g, true)
				}
				m[key] = j
			}
			fillString(&st.Node.Driver, s.Node.Driver)
			fillString(&st.Node.CUDA, s.Node.CUDA)
			fillString(&st.Node.Hostname, s.Node.Hostname)
			fillString(&st.Node.CUDAError, s.Node.CUDAError)
			fillString(&st.Node.ContainerError, s.Node.ContainerError)
			fillString(&st.Node.DriverMismatch, s.Node.DriverMismatch)
			fillString(&st.Node.FabricError, s.Node.FabricError)
			st.Node.Diag = append(st.Node.Diag, s.Node.Diag...)
			st.Node.SliceOOM = append(st.Node.SliceOOM, s.Node.SliceOOM...)
			if st.Topology == nil {
				st.Topology = s.Topology
			}
		}
		slots[p] = m
	}
	return st, slots
}

// apply fills the timeline with the gathered facts (events into the last
// snapshot only) and records where they came from.
func (pic *picture) apply(st sampler.Snapshot, slots map[*part]map[int]int) {
	last := &pic.snaps[len(pic.snaps)-1]
	final := make([]int, len(st.GPUs))
	for j := range st.GPUs {
		sg := &st.GPUs[j]
		k := matchGPU(last.GPUs, *sg)
		if k < 0 && len(last.GPUs) >= maxPictureGPUs {
			final[j] = -1
			continue
		}
		if k < 0 {
			want := sg.Index
			if sg.Lost && want < 0 {
				want = lostSlot(last.GPUs, want)
			}
			idx := freeIndex(last.GPUs, want)
			for i := range pic.snaps {
				pic.snaps[i].GPUs = append(pic.snaps[i].GPUs, sampler.GPU{Index: idx})
			}
			k = len(last.GPUs) - 1
		}
		final[j] = last.GPUs[k].Index
		fillGPU(&last.GPUs[k], sg, true)
		for i := range pic.snaps[:len(pic.snaps)-1] { // the series: what does not change over it
			if x := indexOf(pic.snaps[i].GPUs, final[j]); x >= 0 {
				fillStatic(&pic.snaps[i].GPUs[x], sg)
			}
		}
	}
	for i := range pic.snaps {
		n := &pic.snaps[i].Node
		fillString(&n.Driver, st.Node.Driver)
		fillString(&n.CUDA, st.Node.CUDA)
		fillString(&n.Hostname, st.Node.Hostname)
		fillString(&n.CUDAError, st.Node.CUDAError)
		fillString(&n.ContainerError, st.Node.ContainerError)
		fillString(&n.DriverMismatch, st.Node.DriverMismatch)
		fillString(&n.FabricError, st.Node.FabricError)
		if i == len(pic.snaps)-1 { // a diag run's verdicts are events of the paste, like Xids
			n.Diag = append(n.Diag, st.Node.Diag...)
			n.SliceOOM = append(n.SliceOOM, st.Node.SliceOOM...)
		}
		if pic.snaps[i].Topology == nil {
			pic.snaps[i].Topology = st.Topology
		}
	}
	order := make([]*part, 0, len(slots))
	for p := range slots {
		order = append(order, p)
	}
	sort.Slice(order, func(a, b int) bool { return order[a].no < order[b].no }) // the first section's line wins
	for _, p := range order {
		remap := map[int]int{}
		for gi, j := range slots[p] {
			remap[gi] = final[j]
		}
		pic.remember(p, remap)
	}
}
