package record

import (
	"slices"

	"github.com/gpuscope/gpuscope/sampler"
)

// slowTier stores slow-tier parts of snapshots only when they change. Per-GPU
// NVLink lists and the topology matrix are about 60% of a line on an 8-GPU
// NVLink node and almost never change, so the writer drops them when they
// equal what it wrote last, and the reader carries the last ones forward.
// A recording therefore reads back with every snapshot complete.
type slowTier struct {
	links map[int][]sampler.NVLink
	topo  *sampler.Topology
}

// elide returns s without the slow-tier parts that did not change. It never
// modifies s: the GPU slice is copied when a GPU needs trimming.
func (st *slowTier) elide(s sampler.Snapshot) sampler.Snapshot {
	if st.links == nil {
		st.links = map[int][]sampler.NVLink{}
	}
	if s.Topology != nil && st.topo != nil && topoEqual(s.Topology, st.topo) {
		s.Topology = nil
	} else if s.Topology != nil {
		st.topo = s.Topology
	}
	copied := false
	for i := range s.GPUs {
		g := &s.GPUs[i]
		if g.NVLinks == nil {
			continue
		}
		if last, ok := st.links[g.Index]; ok && slices.Equal(last, g.NVLinks) {
			if !copied {
				s.GPUs = slices.Clone(s.GPUs)
				g, copied = &s.GPUs[i], true
			}
			g.NVLinks = nil
			continue
		}
		st.links[g.Index] = g.NVLinks
	}
	return s
}

// restore fills in what elide dropped, from the last values read.
func (st *slowTier) restore(s *sampler.Snapshot) {
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
