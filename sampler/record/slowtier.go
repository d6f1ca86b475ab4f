package record

import (
	"slices"

	"github.com/gpuscope/gpuscope/sampler"
)

// slowTier stores slow-tier parts of snapshots only when they change. Per-GPU
// NVLink lists and the topology matrix are about 60% of a line on an 8-GPU
// NVLink node and almost never change, so the writer leaves them out when
// they equal what it wrote last and says so (wireEntry.SameLinks,
// SameTopology), as the statics do; the reader fills them back in. A list
// or matrix that is absent and not listed is absent: a GPU that fell off
// the bus reads back without links (docs/snapshot-json.md, Recordings).
// Version 1 recordings had no such lists and meant "unchanged" by absence;
// restoreV1 still reads them that way.
type slowTier struct {
	links map[int][]sampler.NVLink
	topo  *sampler.Topology
}

// elide leaves out of l what did not change since the last line and lists
// it. It never modifies the caller's snapshot: a GPU's links are marked
// for the encoder to skip (skipLinks), not cleared.
func (st *slowTier) elide(l *wireEntry) {
	if st.links == nil {
		st.links = map[int][]sampler.NVLink{}
	}
	if l.Topology != nil && st.topo != nil && topoEqual(l.Topology, st.topo) {
		l.Topology, l.SameTopology = nil, true
	} else {
		st.topo = l.Topology
	}
	for i := range l.GPUs {
		g := &l.GPUs[i]
		idx := g.Index
		last, ok := st.links[idx]
		// A GPU index listed twice is written in full, as in statics.
		if len(g.NVLinks) == 0 || !ok || len(last) == 0 || indexRepeats(l.GPUs, i) || !slices.Equal(last, g.NVLinks) {
			st.links[idx] = g.NVLinks
			continue
		}
		if len(l.gpuSkip) != len(l.GPUs) { // statics.elide did not run
			l.gpuSkip = make([]uint8, len(l.GPUs))
		}
		l.gpuSkip[i] |= skipLinks
		l.SameLinks = append(l.SameLinks, idx)
	}
}

// restore fills in what elide listed, from the last values read, and
// remembers everything else as read, absence included. A listed GPU the
// reader has no value for (a line skipped in lenient mode) is left as read.
func (st *slowTier) restore(l *wireEntry) {
	if st.links == nil {
		st.links = map[int][]sampler.NVLink{}
	}
	if l.SameTopology {
		l.Topology = st.topo
	} else {
		st.topo = l.Topology
	}
	for i := range l.GPUs {
		g := &l.GPUs[i]
		if slices.Contains(l.SameLinks, g.Index) {
			g.NVLinks = st.links[g.Index]
		} else {
			st.links[g.Index] = g.NVLinks
		}
	}
	l.SameLinks, l.SameTopology = nil, false
}

// restoreV1 reads a version 1 line, where an absent list or matrix meant
// "as last written".
func (st *slowTier) restoreV1(s *sampler.Snapshot) {
	if st.links == nil {
		st.links = map[int][]sampler.NVLink{}
	}
	if s.Topology == nil {
		s.Topology = st.topo
	} else {
		st.topo = s.Topology
	}
	for i := range s.GPUs {
		g := &s.GPUs[i]
		if g.NVLinks == nil {
			g.NVLinks = st.links[g.Index]
		} else {
			st.links[g.Index] = g.NVLinks
		}
	}
}

func topoEqual(a, b *sampler.Topology) bool {
	return slices.EqualFunc(a.Links, b.Links, func(x, y []string) bool { return slices.Equal(x, y) })
}
