package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// gpuDetailPane is one GPU in full (enter on a GPU row, or 1…9 for GPU
// 0…8): time-series charts over the history, the clock-event strip,
// identity and health, and the processes on it, in a scrollable viewport.
// It renders only while open, on new data or a resize.
type gpuDetailPane struct {
	c    *common
	w, h int
	gpu  int
	vp   viewport.Model
	// out caches View until the page or the scroll changes: the viewport
	// re-measures every line on each call (~1.2 ms at 200×50).
	out string
	// drawn is the data time of the last rebuild; see chartRefresh.
	drawn time.Time
}

// chartRefresh bounds how often new data rebuilds the charts
// (measured: a rebuild of eight ntcharts charts costs 9-22 ms at 200×50 on a shared
// 2-core machine (15 ms with 24-bit colour), see
// BenchmarkGPUDetailPushView200x50; at most twice a second keeps a 100 ms
// sampling interval under 4% of a core, and at the default 1 s every tick
// still redraws).
const chartRefresh = 500 * time.Millisecond

// onData rebuilds the page for a new snapshot, at most every chartRefresh.
func (p *gpuDetailPane) onData(t time.Time) {
	if t.Sub(p.drawn) >= chartRefresh || t.Before(p.drawn) {
		p.refresh()
	}
}

func newGPUDetailPane(c *common) *gpuDetailPane {
	return &gpuDetailPane{c: c, vp: viewport.New(0, 0)}
}

func (p *gpuDetailPane) SetSize(w, h int) {
	p.w, p.h, p.out = w, h, ""
	p.vp.Width, p.vp.Height = w, max(0, h-1)
}

// show opens GPU gpu, scrolled to the top.
func (p *gpuDetailPane) show(gpu int) {
	p.gpu = gpu
	p.refresh()
	p.vp.GotoTop()
}

func (p *gpuDetailPane) refresh() {
	p.out = ""
	if s := p.c.latest(); s != nil {
		p.drawn = s.Time
	}
	setKeepingScroll(&p.vp, strings.Join(p.content(), "\n"))
}

func (p *gpuDetailPane) Update(msg tea.Msg) {
	p.vp, _ = p.vp.Update(msg)
	p.out = ""
}

func (p *gpuDetailPane) View() string {
	if p.out == "" {
		p.out = p.render()
	}
	return p.out
}

func (p *gpuDetailPane) render() string {
	return pageView(p.c, "pane.gpu_detail", fmt.Sprintf("GPU %d", p.gpu), "←→ GPU", &p.vp, p.w, p.h)
}

// content is the whole page: identity, clock events, charts, processes.
func (p *gpuDetailPane) content() []string {
	c, st := p.c, p.c.st
	s := c.latest()
	if s == nil || p.gpu >= len(s.GPUs) {
		return []string{st.Muted.Render("  " + c.say("gpu.no_data", map[string]any{"GPU": p.gpu}))}
	}
	g := &s.GPUs[p.gpu]
	lines := p.identity(g)
	if g.Lost {
		return append(lines, st.Crit.Render("  "+c.word("gpu.lost_detail")))
	}
	lines = append(lines, "", st.Title.Render(c.word("gpu.clock_events"))+st.Muted.Render(" "+c.word("gpu.clock_events_key")))
	lines = append(lines, p.clockStrip()...)
	lines = append(lines, "")
	lines = append(lines, p.charts(g)...)
	lines = append(lines, p.migDetail(g)...)
	lines = append(lines, "", st.Title.Render(c.say("gpu.procs_on", map[string]any{"GPU": g.Index})))
	return append(lines, p.procLines(g)...)
}

// Chart geometry (56 columns fit a readable braille chart with
// its axis labels; 9 lines give a title, a note, 5 plot rows and the axis).
const (
	chartMinWidth = 56
	chartHeight   = 9
)

// charts lays the chart specs out in as many columns as fit.
func (p *gpuDetailPane) charts(g *sampler.GPU) []string {
	return chartGrid(p.c, p.gpu, gpuCharts(p.c, g), p.w, 0)
}

// chartGrid lays specs out as many abreast as fit w (at most maxCols, 0:
// no limit), each chartHeight rows; gpu is the GPU they read (-1: charts
// that read whole snapshots).
func chartGrid(c *common, gpu int, specs []chartSpec, w, maxCols int) []string {
	cols := max(1, (w+1)/(chartMinWidth+1))
	if maxCols > 0 {
		cols = min(cols, maxCols)
	}
	cw := (w - (cols - 1)) / cols
	var out []string
	for i := 0; i < len(specs); i += cols {
		acc, accW := "", 0
		for j := i; j < i+cols && j < len(specs); j++ {
			block := fitBlock(drawChart(c, gpu, specs[j], cw, chartHeight), cw, chartHeight, false)
			if accW == 0 {
				acc, accW = block, cw
				continue
			}
			acc, accW = joinColumns(acc, accW, block), accW+1+cw
		}
		out = append(out, strings.Split(acc, "\n")...)
	}
	return out
}

// idRow is a label of the identity block and its value.
func (p *gpuDetailPane) idRow(id, v string) string {
	return p.c.st.Muted.Render(p.c.word("gpu.id."+id)+" ") + v
}

// identity is the name, ids, state and health of g.
func (p *gpuDetailPane) identity(g *sampler.GPU) []string {
	c, st := p.c, p.c.st
	kv := func(id, v string) string { return p.idRow(id, v) }
	link := fmt.Sprintf("Gen%s/%s ×%s/%s", units.Compact.Whole(g.PCIeGen, ""), units.Compact.Whole(g.PCIeGenMax, ""), units.Compact.Whole(g.PCIeWidth, ""), units.Compact.Whole(g.PCIeWidthMax, ""))
	pstate := naText
	if g.PState.OK {
		pstate = fmt.Sprintf("P%.0f", g.PState.V)
	}
	mig := c.word("gpu.off")
	if g.MIG {
		mig = c.word("gpu.on")
	}
	remap := units.Compact.Whole(g.RemappedRows, "")
	if g.RemapPending {
		remap += st.Warn.Render(" " + c.word("gpu.remap_pending"))
	}
	if g.RemapFailed {
		remap += st.Crit.Render(" " + c.word("gpu.remap_failed"))
	}
	xids := c.word("gpu.none")
	if len(g.Xids) > 0 {
		var codes []string
		for _, x := range g.Xids {
			codes = append(codes, fmt.Sprintf("%d@%s", x.Code, x.Time.Format("15:04:05")))
		}
		xids = st.Crit.Render(strings.Join(codes, " "))
	}
	ecc := units.Compact.Whole(g.ECCUncorrected, "") + " " + c.word("gpu.ecc_uncorr") + " / " + units.Compact.Whole(g.ECCCorrected, "") + " " + c.word("gpu.ecc_corr")
	if g.ECCUncorrected.OK && g.ECCUncorrected.V > 0 {
		ecc = st.Crit.Render(ecc)
	}
	items := []string{kv("uuid", orDash(g.UUID)), kv("bus", orDash(g.BusID)), kv("pstate", pstate),
		kv("persistence", orDash(g.Persistence)), kv("compute", orDash(g.ComputeMode)), kv("mig", mig),
		kv("pcie", link), kv("replays", units.Compact.Whole(g.PCIeReplays, "")), kv("ecc", ecc),
		kv("remapped", remap), kv("xid", xids), kv("numa", units.Compact.Whole(g.NUMANode, "")),
		kv("affinity", orDash(g.CPUAffinity)), kv("nvlinks", nvlinkSummary(c, g))}
	if h, ok := diagnose.HolderOf(g); ok { // the scheduler's allocation, with or without a process (docs/jobs.md)
		who := c.say("gpu.holder_pod", map[string]any{"Pod": h.ID})
		if h.Kind == diagnose.HolderSlurm {
			who = c.say("gpu.holder_slurm", map[string]any{"Job": h.ID, "User": orDash(h.User)})
		}
		if t := c.hours.By[diagnose.HolderKey{Kind: h.Kind, Job: h.ID, User: h.User}]; t != nil && t.Held > 0 {
			who = c.say("gpu.holder_hours", map[string]any{"Who": who, "Held": gpuHoursText(t.Held / 3600),
				"Used": fmt.Sprintf("%.0f%%", 100*t.Used/t.Held)})
		}
		items = append([]string{kv("holder", who)}, items...)
	}
	head := st.Bold.Render(fmt.Sprintf("GPU %d  %s", g.Index, orDash(g.Name))) + st.Muted.Render("  "+orDash(g.Arch))
	return append([]string{head}, flow(items, p.w)...)
}

// flow packs items into lines of at most w cells, two spaces apart, so a
// narrow terminal wraps the identity block instead of cutting it.
func flow(items []string, w int) []string {
	var out []string
	line := ""
	for _, it := range items {
		switch {
		case line == "":
			line = it
		case widthOf(line)+2+widthOf(it) <= w:
			line += "  " + it
		default:
			out = append(out, line)
			line = it
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// nvlinkSummary is "18 active, 0 replay/recovery/CRC errors" or n/a.
func nvlinkSummary(c *common, g *sampler.GPU) string {
	if len(g.NVLinks) == 0 {
		return naText
	}
	active := 0
	var errs uint64
	for _, l := range g.NVLinks {
		if l.Active {
			active++
		}
		errs += l.Replay + l.Recovery + l.CRC
	}
	return c.say("gpu.nvlinks", map[string]any{"Active": active, "Total": len(g.NVLinks), "Count": errs})
}

// clockReasons are the strip's rows, in the order people ask about them.
// id is the row's message (clock.<id>).
var clockReasons = []struct {
	id   string
	bits uint64
}{
	{"power_cap", sampler.ClockSwPowerCap},
	{"power_brake", sampler.ClockHwPowerBrake},
	{"sw_thermal", sampler.ClockSwThermal},
	{"hw_thermal", sampler.ClockHwThermal},
	{"hw_slowdown", sampler.ClockHwSlowdown},
	{"sync_boost", sampler.ClockSyncBoost},
	{"idle", sampler.ClockGpuIdle},
}

// clockStrip is one row per reason, one cell per snapshot: where each was
// active over the history.
func (p *gpuDetailPane) clockStrip() []string {
	c, st := p.c, p.c.st
	const label = 13
	n := max(1, p.w-label-2)
	first := max(0, c.hist.len()-n)
	var out []string
	var scratch sampler.GPU
	for _, r := range clockReasons {
		var b strings.Builder
		known := false
		for i := first; i < c.hist.len(); i++ {
			var ce sampler.ClockEvents
			if g := c.hist.gpu(i, p.gpu, &scratch); g != nil {
				ce = g.ClockEvents
			}
			switch {
			case !ce.OK:
				b.WriteByte(' ')
			case ce.Has(r.bits):
				known = true
				b.WriteString("█")
			default:
				known = true
				b.WriteString("·")
			}
		}
		strip := b.String()
		if !known {
			strip = st.Muted.Render(naText)
		} else if r.bits&(sampler.ClockHwSlowdown|sampler.ClockHwThermal|sampler.ClockHwPowerBrake) != 0 {
			strip = st.Crit.Render(strip)
		} else if r.bits != sampler.ClockGpuIdle {
			strip = st.Warn.Render(strip)
		}
		out = append(out, "  "+padRight(c.word("clock."+r.id), label)+strip)
	}
	return out
}

// procLines are the processes on g with their host side.
func (p *gpuDetailPane) procLines(g *sampler.GPU) []string {
	c, st := p.c, p.c.st
	if len(g.Procs) == 0 {
		return []string{st.Muted.Render("  " + c.word("gpu.no_procs"))}
	}
	col := func(id string) string { return c.word("procs.col." + id) }
	out := []string{st.Muted.Render("  " + padLeft(col("pid"), 7) + " " + padRight(col("user"), 8) + " " + padLeft(col("gpu_mem"), 8) +
		" " + padLeft(col("sm"), 4) + " " + padLeft(col("cpu"), 5) + " " + col("command"))}
	for _, pr := range g.Procs {
		r := procRow{gpu: g.Index, p: pr}
		h := hostOf(&r)
		out = append(out, fmt.Sprintf("  %7d %s %8s %4s %5s %s", pr.PID, padRight(orDash(h.User), 8), units.Compact.Bytes(pr.MemUsed),
			units.Percent(pr.SMUtil, 0), units.Percent(h.CPU, 0), command(&r, max(10, p.w-42), true)))
	}
	return out
}

// gpuHoursText is GPU-hours to three figures below 10 (a few minutes of one
// GPU is 0.05), whole above.
func gpuHoursText(h float64) string {
	if h < 10 {
		return strconv.FormatFloat(h, 'g', 3, 64)
	}
	return strconv.FormatFloat(h, 'f', 0, 64)
}
