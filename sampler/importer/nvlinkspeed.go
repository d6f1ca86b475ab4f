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

// nvlSwitchPart: model is one of those parts (a name, then no letter or
// digit). SXM2 parts (P100, V100) sit on hybrid cube meshes whose slices
// leave links to GPUs outside them; GH/GB superchips run standalone too,
// and the NVL and PCIe boards (H200 NVL, H800 PCIe) pair through bridges.
// A function, not a pattern: each lazy pattern is 32 bytes of data.
func nvlSwitchPart(model string) bool {
	m := strings.TrimPrefix(model, "NVIDIA ")
	if strings.Contains(m, "NVL") || strings.Contains(m, "PCIe") {
		return false
	}
	for _, part := range strings.Split("A100-SXM4|H100 80GB HBM3|H100 SXM5|H100 SXM|H200|H800|H20|B200|B300", "|") {
		if rest, ok := strings.CutPrefix(m, part); ok && (rest == "" || !isWordByte(rest[0])) {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

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
		if m := nvlSpeedRE.FindStringSubmatch(l); m != nil && m[2] != "" {
			g.links++
			if m[3] == "<inactive>" {
				g.inactive++
				g.inactiveLinkList = append(g.inactiveLinkList, m[2])
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
		// read, not refused as unread: what is missing is a peer that proves it
		return p.skip("link speeds read, no link shown down: an inactive link is often one the board or its bridge does not wire, " +
			"so one is named down only beside a GPU of the same model that runs it (or all off on an NVSwitch board's GPU past 0)")
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note("NVLink speeds: links inactive that should run, as failed NVLink checks")
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
		if !o.allInactive && o.inactive < o.links && (g.allInactive || o.links == g.links && g.inactive > o.inactive) {
			off := "all"
			if !g.allInactive {
				off = strings.Join(g.inactiveLinkList, ", ")
			}
			return fmt.Sprintf("GPU %d: NVLink links %s inactive while GPU %d (same model) runs %d of %d", g.index,
				off, o.index, o.links-o.inactive, o.links)
		}
	}
	if g.allInactive && g.index > 0 && nvlSwitchPart(g.model) {
		return fmt.Sprintf("GPU %d (%s): all NVLink links inactive on a part whose links all train in a multi-GPU node", g.index, g.model)
	}
	return ""
}
