package importer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// `nvidia-smi nvlink -s` (kindNVLinkSpeed, found by nvlSpeedRun) names a
// link down only where the listing itself proves the link should be up;
// an inactive link alone is often one the board or its bridge does not
// wire (two bridged H100 PCIe leave 6 of 18, an A100 PCIe without a
// bridge all: the b7/b8 nvlink -s files in testdata/real/INDEX.md). Proof:
//   - a GPU with more links inactive than another GPU of the same model in
//     the same listing (the same board wires the same links);
//   - every link inactive on a GPU numbered above 0 (so not a one-GPU
//     slice, whose links the fabric manager leaves untrained) of a part
//     sold only on NVSwitch or all-to-all baseboards, where every link of
//     a multi-GPU node trains (the partitions of the fabric manager's
//     guide, docs/corpus-accuracy.md batch 12).
//
// A listing that proves nothing stays refused, as before.
var (
	nvlLinkRE = lazy(`^\s*Link (\d+): (<inactive>|[\d.]+ GB/s)`)
	// SXM2 parts (P100, V100) sit on hybrid cube meshes whose slices leave
	// links unwired by design; GH/GB superchips run standalone too, and
	// the NVL and PCIe boards (H200 NVL, H800 PCIe) pair through bridges.
	nvlSwitchPartRE = lazy(`^(NVIDIA )?(A100-SXM4|H100 80GB HBM3|H100 SXM|H200|H800|H20|B200|B300)\b`)
)

type nvlGPU struct {
	index, line      int
	model            string
	links, inactive  int
	allInactive      bool
	inactiveLinkList []string
}

func parseNVLinkSpeed(sec *section) *part {
	p := newPart(sec)
	var gpus []*nvlGPU
	for i, l := range sec.lines {
		if m := listEntryRE.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			gpus = append(gpus, &nvlGPU{index: n, line: sec.first + i, model: strings.TrimSpace(m[2])})
			continue
		}
		if len(gpus) == 0 {
			continue
		}
		g := gpus[len(gpus)-1]
		if m := nvlLinkRE.FindStringSubmatch(l); m != nil {
			g.links++
			if m[2] == "<inactive>" {
				g.inactive++
				g.inactiveLinkList = append(g.inactiveLinkList, m[1])
			}
		} else if strings.Contains(l, "all links are inActive") {
			g.allInactive = true
		}
	}
	snap := sampler.Snapshot{}
	for _, g := range gpus {
		if why := nvlDownWhy(g, gpus); why != "" && g.index < maxPictureGPUs {
			p.addCheck(&snap, sampler.DiagCheck{Category: "NVLink", Test: "link speeds", Result: "fail",
				Messages: []sampler.DiagMessage{{Kind: "error", GPU: g.index, Text: why}}}, g.index, g.line)
			snap.GPUs[indexOf(snap.GPUs, g.index)].Name = g.model
		}
	}
	if len(snap.Node.Diag) == 0 {
		return p.skip("link speeds, not read: an inactive link is often one the board or its bridge does not wire; dcgmi nvlink --link-status is read")
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note(fmt.Sprintf("NVLink speeds, %s with links inactive that should run", countGPUs(len(snap.Node.Diag))))
	return p
}

// nvlDownWhy is the evidence that g has links down, "" when the listing
// does not prove it; a peer of the same model is the stronger evidence,
// so it is named first.
func nvlDownWhy(g *nvlGPU, all []*nvlGPU) string {
	for _, o := range all {
		// the same GPU pasted twice (before and after) is no peer of itself
		if o.model != g.model || o.index == g.index {
			continue
		}
		if g.allInactive && !o.allInactive && o.inactive < o.links {
			return fmt.Sprintf("GPU %d: all NVLink links inactive while GPU %d (same model) runs %d", g.index, o.index, o.links-o.inactive)
		}
		if !g.allInactive && !o.allInactive && o.links == g.links && g.inactive > o.inactive {
			return fmt.Sprintf("GPU %d: NVLink links %s inactive while GPU %d (same model) runs %d of %d", g.index,
				strings.Join(g.inactiveLinkList, ", "), o.index, o.links-o.inactive, o.links)
		}
	}
	if g.allInactive && g.index > 0 && nvlSwitchPartRE.MatchString(g.model) && !strings.Contains(g.model, "NVL") && !strings.Contains(g.model, "PCIe") {
		return fmt.Sprintf("GPU %d (%s): all NVLink links inactive on a part whose links all train in a multi-GPU node", g.index, g.model)
	}
	return ""
}
