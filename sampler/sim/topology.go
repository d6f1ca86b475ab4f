package sim

import "github.com/gpuscope/gpuscope/sampler"

// Topology is the GPU×GPU link matrix `nvidia-smi topo -m` would print: all
// pairs "NV18" through the NVSwitches on an HGX board; on the PCIe-only node
// (comm_bound) pairs behind one PCIe switch are "PIX", pairs on one socket
// "PHB", pairs across the sockets "SYS". A fresh copy each call.
func (n *Node) Topology() *sampler.Topology {
	links := make([][]string, numGPUs)
	for i := range links {
		links[i] = make([]string, numGPUs)
		for j := range links[i] {
			links[i][j] = pairLink(i, j, n.pcieOnly)
		}
	}
	return &sampler.Topology{Links: links}
}

func pairLink(i, j int, pcieOnly bool) string {
	switch {
	case i == j:
		return "X"
	case !pcieOnly:
		return "NV18"
	case i/2 == j/2: // two GPUs per PCIe switch (the common 4U PCIe server layout)
		return "PIX"
	case numaOf(i) == numaOf(j):
		return "PHB"
	default:
		return "SYS"
	}
}
