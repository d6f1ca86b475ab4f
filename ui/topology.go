package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// topoLegend is what `nvidia-smi topo -m` prints under its matrix: the
// link names, each explained by message topo.legend.<name>.
var topoLegend = []string{"X", "NV#", "PIX", "PXB", "PHB", "NODE", "SYS"}

// jobLabel names a job in a line: "torchrun, PPID 2000" (the parent's name
// cut to 20 cells) or "PID 2100".
func jobLabel(j diagnose.Job) string {
	if j.Parent != "" {
		j.Parent = truncate(j.Parent, 20)
	}
	return j.Key()
}

// topoPane is the `t` page: the matrix, CPU affinity and NUMA node per GPU,
// the legend and the highlighted slow pairs. It scrolls below its title.
type topoPane struct {
	c      *common
	w, h   int
	scroll int // in lines, clamped when drawn
}

func (p *topoPane) SetSize(w, h int) { p.w, p.h = w, h }

// show opens the page at its top.
func (p *topoPane) show() { p.scroll = 0 }

// Update scrolls (keys and the wheel); the Model closes the page on esc,
// backspace or t.
func (p *topoPane) Update(msg tea.Msg) {
	km := &p.c.keys
	switch msg := msg.(type) {
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, km.Up):
			p.scroll = max(0, p.scroll-1)
		case key.Matches(msg, km.Down):
			p.scroll++
		case key.Matches(msg, km.PageUp):
			p.scroll = max(0, p.scroll-10)
		case key.Matches(msg, km.PageDown):
			p.scroll += 10
		}
	case tea.MouseMsg:
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			p.scroll = max(0, p.scroll-1)
		case tea.MouseButtonWheelDown:
			p.scroll++
		}
	}
}

// View draws the page afresh: it is open rarely and reads the newest
// snapshot's topology.
func (p *topoPane) View() string {
	w, h := p.w, p.h
	c, st := p.c, p.c.st
	lines := []string{title(st, c.word("pane.topology"), c.word("topo.info"), true, w)}
	s := c.latest()
	if s == nil || s.Topology == nil || len(s.Topology.Links) == 0 {
		lines = append(lines, st.Muted.Render("  "+c.word("topo.unknown")))
		return fitBlock(lines, w, h, false)
	}
	links := s.Topology.Links
	n := len(links)
	slow := map[[2]int]bool{}
	pairs := diagnose.SlowPairs(s)
	for _, p := range pairs {
		slow[[2]int{p.A, p.B}], slow[[2]int{p.B, p.A}] = true, true
	}
	// Cells are 5 wide ("NV18!"); when the matrix would not fit, NV# shrinks
	// to NV (the count goes to the legend line).
	cw, label := 6, 6
	if label+n*cw > w {
		cw = 5
	}
	short := label+n*cw > w
	if short {
		cw = 4
	}
	affW := 0
	if room := w - label - n*cw; room >= 16 {
		affW = min(room, 26) // "0-55,112-167" fits with room; NUMA follows
	}
	hdr := padRight("", label)
	for j := 0; j < n; j++ {
		name := fmt.Sprintf("GPU%d", j)
		if short {
			name = fmt.Sprint(j)
		}
		hdr += padRight(name, cw)
	}
	if affW > 0 {
		hdr += padRight(c.word("gpu.id.affinity"), max(0, affW-6)) + "NUMA"
	}
	lines = append(lines, st.Bold.Render(hdr))
	for i := 0; i < n; i++ {
		row := padRight(fmt.Sprintf("GPU%d", i), label)
		for j := 0; j < n && j < len(links[i]); j++ {
			cell := links[i][j]
			if short && strings.HasPrefix(cell, "NV") {
				cell = "NV"
			}
			if slow[[2]int{i, j}] {
				row += st.Crit.Render(padRight(cell+"!", cw))
			} else if cell == "X" {
				row += st.Muted.Render(padRight(cell, cw))
			} else {
				row += padRight(cell, cw)
			}
		}
		if affW > 0 {
			aff, numa := gpuAffinity(s, i)
			row += padRight(aff, max(0, affW-6)) + numa
		}
		lines = append(lines, row)
	}
	if affW == 0 {
		lines = append(lines, "", st.Title.Render(c.word("gpu.id.affinity")+" · NUMA"))
		for i := 0; i < n; i++ {
			aff, numa := gpuAffinity(s, i)
			lines = append(lines, fmt.Sprintf("GPU%-3d %s · NUMA %s", i, aff, numa))
		}
	}
	lines = append(lines, "")
	if len(pairs) == 0 {
		lines = append(lines, st.OK.Render("✓")+" "+c.word("topo.all_nvlink"))
	}
	lines = append(lines, slowPairLines(c, pairs)...)
	lines = append(lines, "", st.Title.Render(c.word("topo.legend")))
	for _, l := range topoLegend {
		lines = append(lines, "  "+st.Key.Render(padRight(l, 5))+" "+c.word("topo.legend."+strings.ToLower(strings.TrimSuffix(l, "#"))))
	}
	if short {
		lines = append(lines, st.Muted.Render("  "+c.word("topo.narrow")))
	}
	// Scroll below the title when the page is taller than the screen.
	p.scroll = max(0, min(p.scroll, len(lines)-h))
	if p.scroll > 0 {
		lines = append(lines[:1:1], lines[1+p.scroll:]...)
	}
	return fitBlock(lines, w, h, false)
}

// gpuAffinity is GPU i's CPU affinity and NUMA node, n/a when unknown.
func gpuAffinity(s *sampler.Snapshot, i int) (string, string) {
	if i >= len(s.GPUs) {
		return naText, naText
	}
	g := &s.GPUs[i]
	aff := g.CPUAffinity
	if aff == "" {
		aff = naText
	}
	return aff, units.Compact.Whole(g.NUMANode, "")
}

// slowPairLines says which job's GPU pairs talk without NVLink: each pair
// when a job has a few, else one line per job with the count per link type
// (an 8-rank job on a PCIe box has 28 pairs; listing them hides the point).
func slowPairLines(c *common, pairs []diagnose.SlowPair) []string {
	st := c.st
	const listUpTo = 4
	var jobs []string
	byJob := map[string][]diagnose.SlowPair{}
	for _, p := range pairs {
		label := jobLabel(p.Job)
		if _, ok := byJob[label]; !ok {
			jobs = append(jobs, label)
		}
		byJob[label] = append(byJob[label], p)
	}
	var lines []string
	for _, job := range jobs {
		ps := byJob[job]
		if len(ps) <= listUpTo {
			for _, p := range ps {
				lines = append(lines, st.Warn.Render("▲")+" "+c.say("topo.pair", map[string]any{"A": p.A, "B": p.B, "Job": job, "Link": p.Link}))
			}
			continue
		}
		count, gpus := map[string]int{}, map[int]bool{}
		var kinds []string
		for _, p := range ps {
			if count[p.Link] == 0 {
				kinds = append(kinds, p.Link)
			}
			count[p.Link]++
			gpus[p.A], gpus[p.B] = true, true
		}
		var parts []string
		for _, k := range kinds {
			parts = append(parts, fmt.Sprintf("%d %s", count[k], k))
		}
		lines = append(lines, st.Warn.Render("▲")+" "+c.say("topo.job_pairs", map[string]any{"Job": job, "GPUs": len(gpus), "Count": len(ps), "Kinds": strings.Join(parts, ", ")}))
	}
	return lines
}
