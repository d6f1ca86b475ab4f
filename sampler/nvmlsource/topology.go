package nvmlsource

import (
	"strconv"
	"strings"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// buildTopology labels each GPU pair as `nvidia-smi topo -m` does: "X" on the
// diagonal; "NV<n>" for n active NVLinks between the two (directly, or both
// through NVSwitches, where n is the smaller switch-link count, as nvidia-smi
// shows NV18 on a DGX H100/H200); otherwise their closest common PCIe
// ancestor: PIX, PXB, PHB, NODE or SYS.
func (s *Source) buildTopology() *sampler.Topology {
	n := len(s.gpus)
	if n == 0 {
		return nil
	}
	buses := make([]string, n)
	for i, g := range s.gpus {
		buses[i] = normBus(g.slow.BusID)
	}
	links := make([][]string, n)
	for i := range links {
		links[i] = make([]string, n)
	}
	for i, gi := range s.gpus {
		direct := directLinks(gi, buses)
		links[i][i] = "X"
		for j := i + 1; j < n; j++ {
			gj := s.gpus[j]
			label := ""
			switch {
			case direct[j] > 0:
				label = "NV" + strconv.Itoa(direct[j])
			case gi.switchLinks > 0 && gj.switchLinks > 0:
				label = "NV" + strconv.Itoa(min(gi.switchLinks, gj.switchLinks))
			default:
				label = s.pcieLabel(i, j)
			}
			links[i][j], links[j][i] = label, label
		}
	}
	return &sampler.Topology{Links: links}
}

// directLinks counts GPU i's active NVLinks per peer GPU (by remote bus id).
func directLinks(g *gpuReader, buses []string) []int {
	counts := make([]int, len(buses))
	for _, lk := range g.slow.NVLinks {
		if !lk.Active || lk.RemoteBus == "" {
			continue
		}
		rb := normBus(lk.RemoteBus)
		for j, b := range buses {
			if b != "" && b == rb && j != g.index {
				counts[j]++
				break
			}
		}
	}
	return counts
}

// pcieLabel is GPUs i and j's closest common PCIe ancestor, asked of NVML
// once per pair.
func (s *Source) pcieLabel(i, j int) string {
	if s.pcie == nil {
		s.pcie = make([][]string, len(s.gpus))
		for k := range s.pcie {
			s.pcie[k] = make([]string, len(s.gpus))
		}
	}
	if l := s.pcie[i][j]; l != "" {
		return l
	}
	a, b := s.gpus[i], s.gpus[j]
	if a.dev == nil || b.dev == nil || a.lost || b.lost {
		return "n/a"
	}
	level, r := a.dev.GetTopologyCommonAncestor(b.handle)
	if r != nvml.SUCCESS {
		if r == nvml.ERROR_GPU_IS_LOST {
			a.lost = true
		}
		return "n/a"
	}
	l := levelLabel(level)
	s.pcie[i][j], s.pcie[j][i] = l, l
	return l
}

// levelLabel spells an NVML topology level as nvidia-smi topo -m does.
func levelLabel(level nvml.GpuTopologyLevel) string {
	switch level {
	case nvml.TOPOLOGY_INTERNAL, nvml.TOPOLOGY_SINGLE:
		return "PIX"
	case nvml.TOPOLOGY_MULTIPLE:
		return "PXB"
	case nvml.TOPOLOGY_HOSTBRIDGE:
		return "PHB"
	case nvml.TOPOLOGY_NODE:
		return "NODE"
	}
	return "SYS"
}

// normBus makes bus ids comparable: NVML spells the domain with 8 hex
// digits ("00000000:18:00.0") but legacy forms use 4, and case varies.
func normBus(b string) string {
	b = strings.ToUpper(b)
	dom, rest, ok := strings.Cut(b, ":")
	if !ok || strings.Count(rest, ":") != 1 {
		return b
	}
	if len(dom) >= 8 {
		return b // already NVML's spelling: no allocation
	}
	return strings.Repeat("0", 8-len(dom)) + dom + ":" + rest
}
