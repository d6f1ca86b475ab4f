package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
	"github.com/gpuscope/gpuscope/ui/markdown"
	"github.com/muesli/termenv"
)

// detailPane is one finding in full: the evidence, the live numbers behind
// it and the playbook page (confirm commands with GPU and PID filled in),
// in a scrollable viewport.
type detailPane struct {
	c       *common
	w, h    int
	finding diagnose.Finding
	vp      viewport.Model
	// md renders the playbook page in the theme's colours; built on the
	// first page opened.
	md *markdown.Renderer
}

func newDetailPane(c *common) *detailPane { return &detailPane{c: c, vp: viewport.New(0, 0)} }

func (p *detailPane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.vp.Width, p.vp.Height = w, max(0, h-1)
}

// show opens the detail page for f, scrolled to the top.
func (p *detailPane) show(f diagnose.Finding) {
	p.finding = f
	p.refresh()
	p.vp.GotoTop()
}

// refresh rebuilds the page (new data updates the live numbers), keeping
// the scroll position.
func (p *detailPane) refresh() {
	setKeepingScroll(&p.vp, ansi.Wrap(p.content(), max(1, p.w), " "))
}

func (p *detailPane) Update(msg tea.Msg) {
	p.vp, _ = p.vp.Update(msg)
}

func (p *detailPane) View() string {
	return pageView(p.c, "pane.finding", p.finding.Rule, "", &p.vp, p.w, p.h)
}

func (p *detailPane) content() string {
	c, st, f := p.c, p.c.st, p.finding
	where := c.word("label.the_node")
	if f.GPU >= 0 {
		where = fmt.Sprintf("GPU %d", f.GPU)
	}
	if f.PID > 0 {
		where += fmt.Sprintf(", PID %d", f.PID)
	}
	title, evidence, estimated := c.findingText(f)
	// The labels are padded to one width in cells, whatever the language.
	labels := []string{c.word("label.evidence"), c.word("label.first_fix"), c.word("label.estimated_label"), c.word("label.since")}
	lw := 0
	for _, l := range labels {
		lw = max(lw, lipgloss.Width(l))
	}
	label := func(i int) string { return st.Muted.Render(padRight(labels[i], lw)) }
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s  %s  (%s)\n", SeverityMark(st, f.Severity), st.Bold.Render(c.wordOr("severity."+f.Severity.String(), strings.ToUpper(f.Severity.String()))), st.Bold.Render(f.Rule), where)
	fmt.Fprintf(&b, "%s\n\n", st.Bold.Render(title))
	fmt.Fprintf(&b, "%s %s\n", label(0), evidence)
	fmt.Fprintf(&b, "%s %s\n", label(1), c.fix(f))
	if estimated != "" {
		fmt.Fprintf(&b, "%s %s\n", label(2), estimated)
	}
	if !f.Since.IsZero() {
		fmt.Fprintf(&b, "%s %s\n", label(3), c.tr.T("label.since_ago", map[string]any{"At": f.Since.Format("15:04:05"), "Ago": fmtDuration(c.now().Sub(f.Since))}))
	}
	b.WriteString("\n" + st.Title.Render(c.word("label.live_numbers")) + "\n")
	b.WriteString(p.liveNumbers())
	b.WriteString("\n" + st.Title.Render(c.word("label.playbook")) + "\n")
	if c.opts.Playbook == nil {
		b.WriteString(c.say("detail.no_playbook", map[string]any{"Rule": f.Rule}) + "\n")
	} else {
		b.WriteString(p.playbook(c.opts.Playbook(f.Rule, c.lang(), f.GPU, f.PID)))
	}
	return b.String()
}

// playbook renders the page's Markdown to the pane's width, as `gpuscope
// explain` does in a terminal.
func (p *detailPane) playbook(page string) string {
	if p.md == nil {
		// No colour where the styles have none or the terminal shows none
		// (lipgloss found no colour profile).
		plain := !p.c.st.Colorful || lipgloss.ColorProfile() == termenv.Ascii
		p.md = markdown.New(markdown.ForTheme(p.c.st.Name, plain))
	}
	return p.md.Render(page, p.w)
}

// liveNumbers are the newest readings of the finding's GPU and process.
func (p *detailPane) liveNumbers() string {
	c := p.c
	s, f := c.latest(), p.finding
	if s == nil {
		return "  " + c.word("live.no_data") + "\n"
	}
	line := func(id string, kv ...any) string { return "  " + c.tr.Say("live."+id, kv...) + "\n" }
	var b strings.Builder
	if f.GPU >= 0 && f.GPU < len(s.GPUs) {
		g := &s.GPUs[f.GPU]
		b.WriteString(line("gpu", "GPU", g.Index, "Name", shortGPUName(g.Name), "Util", units.Percent(g.Util, 0), "SM", units.Percent(g.SMActive, 0),
			"Tensor", units.Percent(g.TensorActive, 0), "DRAM", units.Percent(g.DRAMActive, 0), "Mem", fmtUsedTotal(g.MemUsed, g.MemTotal)))
		b.WriteString(line("gpu_health", "Temp", units.Compact.Whole(g.Temp, "°C"), "Slowdown", units.Compact.Whole(g.TempSlowdown, "°C"),
			"Power", units.Compact.Whole(g.Power, ""), "Limit", units.Compact.Whole(g.PowerLimit, "W"), "Clock", units.Compact.Whole(g.SMClock, ""),
			"ClockMax", units.Compact.Whole(g.SMClockMax, "MHz"), "Events", g.ClockEvents.String()))
		b.WriteString(line("gpu_pcie", "Rx", units.Compact.ByteRate(g.PCIeRx), "Tx", units.Compact.ByteRate(g.PCIeTx), "Gen", units.Compact.Whole(g.PCIeGen, ""),
			"GenMax", units.Compact.Whole(g.PCIeGenMax, ""), "Width", units.Compact.Whole(g.PCIeWidth, ""), "WidthMax", units.Compact.Whole(g.PCIeWidthMax, ""),
			"Replays", units.Compact.Whole(g.PCIeReplays, "")))
	}
	if pr := findProc(s, f.PID); pr != nil {
		r := procRow{p: *pr}
		b.WriteString(line("proc", "PID", pr.PID, "Cmd", command(&r, 0, true), "CPU", units.Percent(hostOf(&r).CPU, 0),
			"RSS", units.Compact.Bytes(hostOf(&r).RSS), "GPUMem", units.Compact.Bytes(pr.MemUsed), "Workers", len(hostOf(&r).Children),
			"State", orDash(hostOf(&r).State)))
	}
	if h := s.Host; h != nil {
		b.WriteString(line("host", "CPU", units.Percent(h.CPU, 0), "IOWait", units.Percent(h.IOWait, 1), "Load", units.Number(h.Load1, 1), "Disk", units.Compact.ByteRate(h.DiskRead)))
	}
	return b.String()
}

func findProc(s *sampler.Snapshot, pid int) *sampler.GPUProc {
	if pid <= 0 {
		return nil
	}
	for gi := range s.GPUs {
		for pi := range s.GPUs[gi].Procs {
			if s.GPUs[gi].Procs[pi].PID == pid {
				return &s.GPUs[gi].Procs[pi]
			}
		}
	}
	return nil
}
