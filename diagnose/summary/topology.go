package summary

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// Topology is what `nvidia-smi topo -m` (or NVML) said about the GPUs'
// links, summarised: a topology alone is a report of its own, and with
// other outputs of the node it explains the multi-GPU findings.
type Topology struct {
	// Links[i][j] as nvidia-smi prints it: X, NV#, PIX, PXB, PHB, NODE, SYS.
	Links [][]string `json:"links"`
	// Summary says, one line each, which GPU pairs share NVLink, which go
	// over PCIe only, and which GPUs share a CPU/NUMA affinity.
	Summary []string `json:"summary"`
}

// topoGPU is what topologyOf reads of a GPU. The builder copies it out of
// each snapshot with a topology rather than keep the snapshot's GPUs: a
// lean read reuses them for a later line (record.Reader.Lean).
type topoGPU struct {
	index    int
	affinity string
	numa     sampler.Metric
}

// topoGPUsOf appends gpus' topology fields to dst.
func topoGPUsOf(dst []topoGPU, gpus []sampler.GPU) []topoGPU {
	for i := range gpus {
		g := &gpus[i]
		dst = append(dst, topoGPU{g.Index, g.CPUAffinity, g.NUMANode})
	}
	return dst
}

// topologyOf summarises the latest topology of the input, nil if none.
func topologyOf(t *sampler.Topology, gpus []topoGPU) *Topology {
	if t == nil || len(t.Links) == 0 {
		return nil
	}
	byKind := map[string][]string{}
	for i := range t.Links {
		for j := i + 1; j < len(t.Links[i]); j++ {
			l := t.Links[i][j]
			if l == "" {
				continue
			}
			byKind[l] = append(byKind[l], fmt.Sprintf("%d-%d", i, j))
		}
	}
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	out := &Topology{Links: t.Links}
	nv := false
	for _, k := range kinds {
		pairs := byKind[k]
		nv = nv || strings.HasPrefix(k, "NV")
		shown := pairs
		if len(shown) > 8 { // a line's worth of pairs
			shown = append(shown[:8:8], fmt.Sprintf("… %d pairs in all", len(pairs)))
		}
		out.Summary = append(out.Summary, fmt.Sprintf("%s (%s): GPU pairs %s", k, linkWords(k), strings.Join(shown, ", ")))
	}
	if !nv && len(t.Links) > 1 {
		out.Summary = append(out.Summary, "no NVLink: every GPU pair talks over PCIe; a job across GPUs on different CPU sockets (SYS) pays the most")
	}
	aff := map[string][]string{}
	var order []string
	for _, g := range gpus {
		if g.affinity == "" {
			continue
		}
		key := "CPUs " + g.affinity
		if g.numa.OK {
			key += fmt.Sprintf(", NUMA %.0f", g.numa.V)
		}
		if aff[key] == nil {
			order = append(order, key)
		}
		aff[key] = append(aff[key], fmt.Sprint(g.index))
	}
	for _, k := range order {
		out.Summary = append(out.Summary, fmt.Sprintf("GPUs %s: %s (pin their jobs' CPU threads there)", strings.Join(aff[k], ", "), k))
	}
	return out
}

// linkWords is the legend of `nvidia-smi topo -m`.
func linkWords(k string) string {
	switch {
	case strings.HasPrefix(k, "NV"):
		return "NVLink"
	case k == "PIX":
		return "PCIe, at most one bridge"
	case k == "PXB":
		return "PCIe, several bridges"
	case k == "PHB":
		return "PCIe through the CPU's host bridge"
	case k == "NODE":
		return "PCIe between host bridges of one NUMA node"
	case k == "SYS", k == "SOC":
		return "PCIe across CPU sockets"
	}
	return "as printed"
}
