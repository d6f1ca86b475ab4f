package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// migRows is how many lines the GPU pane wants for MIG: one per instance of
// every MIG GPU, plus the note; 0 on a node without MIG instances.
func migRows(s *sampler.Snapshot) int {
	n := 0
	for i := range s.GPUs {
		if s.GPUs[i].MIG {
			n += len(s.GPUs[i].MIGDevices)
		}
	}
	if n > 0 {
		n++ // the note
	}
	return n
}

// migMarker is "MIG×N" for a MIG GPU ("MIG" before instances are known),
// "" otherwise. It stands where the GPU-Util sparkline would be: with MIG
// that history is empty anyway.
func migMarker(g *sampler.GPU) string {
	if !g.MIG {
		return ""
	}
	if len(g.MIGDevices) == 0 {
		return "MIG"
	}
	return fmt.Sprintf("MIG×%d", len(g.MIGDevices))
}

// migInstanceLine is one instance under its GPU's row: profile, index,
// memory, GPM SM/tensor activity when known, and the process count.
func migInstanceLine(c *common, md *sampler.MIGDevice, last bool, w int) string {
	branch := "├"
	if last {
		branch = "└"
	}
	parts := []string{
		fmt.Sprintf("   %s MIG %d %-8s", branch, md.Index, orDash(md.Profile)),
		c.word("gpu.mem") + " " + padRight(fmtUsedTotal(md.MemUsed, md.MemTotal), 11),
	}
	if md.SMActive.OK {
		parts = append(parts, c.word("gpu.sm_short")+" "+padLeft(units.Percent(md.SMActive, 0), 4))
	}
	if md.TensorActive.OK {
		parts = append(parts, c.word("gpu.tc_short")+" "+padLeft(units.Percent(md.TensorActive, 0), 4))
	}
	parts = append(parts, c.count("procs.count", len(md.Procs)))
	return truncate(strings.Join(parts, "  "), w)
}

// migExpanded reports whether the pane has room for every MIG instance line
// (and the note) below all GPUs; otherwise rows carry only the marker.
func (p *gpuPane) migExpanded(s *sampler.Snapshot) bool {
	extra := migRows(s)
	return extra > 0 && p.h-1 >= len(s.GPUs)*max(p.lines, 1)+extra
}

// gpuAtLine is the GPU drawn at pane line (1 = first below the title),
// counting the MIG instance lines, which belong to the GPU above them.
func (p *gpuPane) gpuAtLine(line int) int {
	per := max(p.lines, 1)
	s := p.c.latest()
	if s == nil || !p.migExpanded(s) {
		return p.top + (line-1)/per
	}
	y := 1
	for i := p.top; i < len(s.GPUs); i++ {
		y += per
		if s.GPUs[i].MIG {
			y += len(s.GPUs[i].MIGDevices)
		}
		if line < y {
			return i
		}
	}
	return len(s.GPUs) - 1
}

// migLines are the instance lines of g, for the GPU pane.
func (p *gpuPane) migLines(g *sampler.GPU) []string {
	st := p.c.st
	out := make([]string, 0, len(g.MIGDevices))
	for i := range g.MIGDevices {
		out = append(out, st.Muted.Render(migInstanceLine(p.c, &g.MIGDevices[i], i == len(g.MIGDevices)-1, p.w-2)))
	}
	return out
}

// migDetail lists a MIG GPU's instances with their processes, for the GPU
// detail page; nil for a GPU without MIG.
func (p *gpuDetailPane) migDetail(g *sampler.GPU) []string {
	if !g.MIG {
		return nil
	}
	c, st := p.c, p.c.st
	lines := []string{"", st.Title.Render(c.say("mig.instances", map[string]any{"GPU": g.Index})), st.Muted.Render("  " + truncate(c.word("mig.note"), p.w-2))}
	if len(g.MIGDevices) == 0 {
		return append(lines, st.Muted.Render("  "+c.word("mig.none")))
	}
	for i := range g.MIGDevices {
		md := &g.MIGDevices[i]
		head := fmt.Sprintf("  MIG %d  %s  GI %d / CI %d  %s  %s %s  %s %s  %s %s  %s %s",
			md.Index, orDash(md.Profile), md.GPUInstance, md.ComputeInstance, c.say("mig.slices", map[string]any{"Count": md.SMSlices}),
			c.word("gpu.mem"), fmtUsedTotal(md.MemUsed, md.MemTotal), c.word("gpu.sm"), units.Percent(md.SMActive, 0),
			c.word("gpu.tensor"), units.Percent(md.TensorActive, 0), c.word("gpu.dram"), units.Percent(md.DRAMActive, 0))
		lines = append(lines, truncate(head, p.w), st.Muted.Render("    "+truncate(orDash(md.UUID), p.w-4)))
		if len(md.Procs) == 0 {
			lines = append(lines, st.Muted.Render("    "+c.word("gpu.no_procs")))
			continue
		}
		for _, pr := range md.Procs {
			if pr.Host == nil { // the parent's list carries the host side (JoinProcs)
				if k := slices.IndexFunc(g.Procs, func(q sampler.GPUProc) bool { return q.PID == pr.PID }); k >= 0 {
					pr.Host = g.Procs[k].Host
				}
			}
			r := procRow{gpu: g.Index, p: pr}
			h := hostOf(&r)
			lines = append(lines, fmt.Sprintf("    %7d %s %8s %s", pr.PID, padRight(orDash(h.User), 8),
				units.Compact.Bytes(pr.MemUsed), command(&r, max(10, p.w-32), true)))
		}
	}
	return lines
}
