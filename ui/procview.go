package ui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// procViewPane is one process over time (enter on a process row, as
// nvitop's process screen): its GPU memory, GPU time %, CPU % (its own and its
// workers') and RSS charted over the chart history, the findings that name
// it, its full command line, container, pod and children. The history is
// the dashboard's own (ui/history.go): each point keeps the charted
// figures of every PID its snapshot showed (histpoint.go), so nothing is
// kept per open page.
type procViewPane struct {
	c    *common
	w, h int
	pid  int
	vp   viewport.Model
	out  string    // View cached until the page or the scroll changes
	seen time.Time // when the process was last in a snapshot
}

func newProcViewPane(c *common) *procViewPane { return &procViewPane{c: c, vp: viewport.New(0, 0)} }

func (p *procViewPane) SetSize(w, h int) {
	p.w, p.h, p.out = w, h, ""
	p.vp.Width, p.vp.Height = w, max(0, h-1)
}

// show opens process pid, scrolled to the top.
func (p *procViewPane) show(pid int) {
	p.pid, p.seen = pid, time.Time{}
	p.refresh()
	p.vp.GotoTop()
}

// refresh rebuilds the page for new data, keeping the scroll position.
func (p *procViewPane) refresh() {
	p.out = ""
	setKeepingScroll(&p.vp, strings.Join(p.content(), "\n"))
}

func (p *procViewPane) Update(msg tea.Msg) {
	p.vp, _ = p.vp.Update(msg)
	p.out = ""
}

func (p *procViewPane) View() string {
	if p.out == "" {
		p.out = pageView(p.c, "pane.process", fmt.Sprintf("PID %d", p.pid), "", &p.vp, p.w, p.h)
	}
	return p.out
}

// procIn finds pid in s: its GPU entries (with the GPU index) and its
// host-side record (nil where the host is not visible). Out of line: its
// loops were copied into each caller.
//
//go:noinline
func procIn(s *sampler.Snapshot, pid int) (gpus []procRow, host *sampler.Proc) {
	if s == nil {
		return nil, nil
	}
	for _, g := range s.GPUs {
		for _, pr := range g.Procs {
			if pr.PID == pid {
				gpus = append(gpus, procRow{gpu: g.Index, p: pr})
				if host == nil {
					host = pr.Host
				}
			}
		}
	}
	if s.Host != nil && s.Host.Procs[pid] != nil {
		host = s.Host.Procs[pid]
	}
	return gpus, host
}

// content is the whole page: who the process is, its findings, its charts
// and its children.
func (p *procViewPane) content() []string {
	c, st := p.c, p.c.st
	s := c.latest()
	gpus, h := procIn(s, p.pid)
	var lines []string
	if len(gpus) == 0 && h == nil {
		gone := c.word("pview.not_in")
		if !p.seen.IsZero() {
			gone = c.say("pview.gone", map[string]any{"At": p.seen.Format("15:04:05"), "Ago": fmtDuration(c.now().Sub(p.seen))})
		}
		lines = append(lines, st.Warn.Render(fmt.Sprintf("  PID %d %s", p.pid, gone)))
	} else {
		if s != nil {
			p.seen = s.Time
		}
		lines = append(lines, p.identity(gpus, h)...)
	}
	lines = append(lines, "", st.Title.Render(c.word("pview.findings")))
	lines = append(lines, p.findingLines()...)
	lines = append(lines, "", st.Title.Render(c.word("pview.over_time"))+st.Muted.Render("  "+c.say("pview.last", map[string]any{"Span": fmtDuration(c.hist.span)})))
	lines = append(lines, p.charts()...)
	if h != nil && len(h.Children) > 0 {
		lines = append(lines, "", st.Title.Render(c.say("pview.children", map[string]any{"N": len(h.Children)})))
		lines = append(lines, p.childLines(s, h)...)
	}
	return lines
}

// identity is user, state, GPUs, container, pod and the whole command line.
func (p *procViewPane) identity(gpus []procRow, h *sampler.Proc) []string {
	c, st := p.c, p.c.st
	label := func(id string) string {
		if id == "" {
			return st.Muted.Render("  " + padRight("", 10))
		}
		return st.Muted.Render("  " + padRight(c.word(id), 10))
	}
	var out []string
	if h == nil {
		h = &sampler.Proc{PID: p.pid}
		out = append(out, st.Muted.Render("  "+c.word("pview.not_visible")))
	}
	head := c.say("pview.head", map[string]any{"PID": p.pid, "User": orDash(h.User), "State": orDash(h.State)})
	if h.Threads > 0 {
		head += "  " + c.say("pview.threads", map[string]any{"N": h.Threads})
	}
	if !h.Start.IsZero() {
		head += "  " + c.word("pview.running") + " " + fmtDuration(c.now().Sub(h.Start))
	}
	out = append(out, "  "+st.Bold.Render(head))
	var on []string
	for _, r := range gpus {
		on = append(on, fmt.Sprintf("GPU %d (%s, %s, %s %s)", r.gpu, orDash(r.p.Type), units.Compact.Bytes(r.p.MemUsed), c.word("procs.col.sm"), units.Percent(r.p.SMUtil, 0)))
	}
	if len(on) == 0 {
		on = []string{c.word("pview.no_gpu")}
	}
	out = append(out, label("pview.gpus")+strings.Join(on, ", "))
	out = append(out, label("pview.cpu_rss")+c.say("pview.cpu_rss_val", map[string]any{"CPU": units.Percent(h.CPU, 0), "RSS": units.Compact.Bytes(h.RSS)}))
	where := c.word("pview.no_container")
	if h.Container != "" {
		where = h.Container
	}
	out = append(out, label("pview.container")+truncate(where, max(1, p.w-12)))
	if h.Pod.Name != "" {
		pod := strings.Trim(h.Pod.Namespace+"/"+h.Pod.Name, "/")
		if h.Pod.Container != "" {
			pod += c.say("pview.pod_container", map[string]any{"Name": h.Pod.Container})
		}
		out = append(out, label("pview.pod")+truncate(pod, max(1, p.w-12)))
	}
	if h.PodUID != "" {
		out = append(out, label("pview.pod_uid")+h.PodUID)
	}
	cmd := h.Cmdline
	if cmd == "" {
		cmd = h.Name
	}
	wrapped := strings.Split(ansi.Wrap(orDash(cmd), max(20, p.w-14), " /-"), "\n")
	for i, l := range wrapped {
		k := ""
		if i == 0 {
			k = "pview.command"
		}
		out = append(out, label(k)+l)
	}
	return out
}

// findingLines are the open findings that name the process.
func (p *procViewPane) findingLines() []string {
	st := p.c.st
	var out []string
	for _, f := range p.c.findings {
		if f.PID == p.pid {
			title, _, _ := p.c.findingText(f)
			out = append(out, truncate(fmt.Sprintf("  %s %s  %s", SeverityMark(st, f.Severity), st.Bold.Render(f.Rule), title), p.w))
		}
	}
	if len(out) == 0 {
		out = append(out, st.Muted.Render("  "+p.c.word("pview.none_open")))
	}
	return out
}

// charts are the process's figures over the history, two abreast where
// the width allows (four side by side would leave each too narrow).
func (p *procViewPane) charts() []string {
	return chartGrid(p.c, -1, procCharts(p.c, p.pid), p.w, 2)
}

// childLines list the workers with their own figures, busiest first.
func (p *procViewPane) childLines(s *sampler.Snapshot, h *sampler.Proc) []string {
	c, st := p.c, p.c.st
	var kids []*sampler.Proc
	for _, pid := range h.Children {
		if s != nil && s.Host != nil && s.Host.Procs[pid] != nil {
			kids = append(kids, s.Host.Procs[pid])
		}
	}
	sort.SliceStable(kids, func(i, j int) bool { return kids[i].CPU.Or(0) > kids[j].CPU.Or(0) })
	col := func(id string) string { return c.word("procs.col." + id) }
	out := []string{st.Muted.Render("  " + padLeft(col("pid"), 7) + " " + padLeft(col("cpu"), 5) + " " + padLeft(col("rss"), 6) + " " +
		padRight(col("state"), 5) + " " + col("command"))}
	for _, k := range kids {
		cmd := k.Cmdline
		if cmd == "" {
			cmd = k.Name
		}
		out = append(out, truncate(fmt.Sprintf("  %7d %5s %6s %-5s %s", k.PID, units.Percent(k.CPU, 0), units.Compact.Bytes(k.RSS), orDash(k.State), cmd), p.w))
	}
	if missing := len(h.Children) - len(kids); missing > 0 {
		out = append(out, st.Muted.Render("  "+c.say("pview.missing", map[string]any{"N": missing})))
	}
	return out
}
