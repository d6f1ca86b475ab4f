package ui

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// hostPane is the machine around the GPUs: CPU (with a per-core strip, as a
// single pinned core is the input-starved signature), iowait, memory, disk
// and network.
type hostPane struct {
	cached
	c     *common
	cores []float64
}

func (p *hostPane) View() string { return p.view(p.render) }

// Host CPU marks (after docs/scenarios.md: host CPU ≥ 90% saturates
// input pipelines; iowait ≥ 20% is io_bound's threshold).
const (
	hostCPUWarn = 90.0
	iowaitWarn  = 20.0
)

func (p *hostPane) render() []string {
	c, st := p.c, p.c.st
	s := c.latest()
	var lines []string
	if p.h >= 3 {
		info := ""
		if s != nil && s.Host != nil && len(s.Host.CPUs) > 0 {
			info = c.count("host.cores", len(s.Host.CPUs))
		}
		lines = append(lines, title(st, p.c.word("pane.host"), info, false, p.w))
	}
	if s == nil || s.Host == nil {
		return append(lines, st.Muted.Render(c.word("host.none")))
	}
	h := s.Host
	cpu := "CPU " + p.warnAbove(h.CPU, hostCPUWarn, padLeft(fmtPct(h.CPU), 4)) + " "
	rest := "  " + c.word("host.iowait") + " " + p.warnAbove(h.IOWait, iowaitWarn, fmtPct1(h.IOWait)) +
		"  " + c.word("host.load") + " " + fmtLoad(h.Load1) + " " + fmtLoad(h.Load5) + " " + fmtLoad(h.Load15)
	strip := max(0, p.w-widthOf(cpu)-widthOf(rest))
	line1 := cpu + p.coreStrip(h.CPUs, strip) + rest
	groups := []string{c.word("host.mem") + " " + fmtUsedTotal(h.MemUsed, h.MemTotal),
		c.word("host.swap") + " " + fmtUsedTotal(h.SwapUsed, h.SwapTotal),
		c.word("host.disk") + " " + c.word("disk.read") + " " + fmtRate(h.DiskRead) + " " + c.word("disk.write") + " " + fmtRate(h.DiskWrite),
		c.word("host.net") + " " + c.word("net.rx") + " " + fmtRate(h.NetRx) + " " + c.word("net.tx") + " " + fmtRate(h.NetTx)}
	line2 := strings.Join(groups, "  ")
	if widthOf(line2) > p.w { // Chinese words, or long figures, at 80 columns: one space keeps net tx on screen
		line2 = strings.Join(groups, " ")
	}
	return append(lines, line1, line2)
}

// coreStrip draws per-core busy as one block per column. With more cores
// than columns each column shows its group's busiest core, so one pinned
// core still shows (an average would hide it).
func (p *hostPane) coreStrip(cpus []float64, w int) string {
	if w <= 0 || len(cpus) == 0 {
		return ""
	}
	n := min(w, len(cpus))
	p.cores = p.cores[:0]
	for i := 0; i < n; i++ {
		lo, hi := i*len(cpus)/n, (i+1)*len(cpus)/n
		peak := 0.0
		for _, v := range cpus[lo:hi] {
			peak = max(peak, v)
		}
		p.cores = append(p.cores, peak)
	}
	return heatStrip(p.cores, p.c.st.Accent.Render, p.c.st.Warn.Render)
}

// heatStrip maps percentages to eight block heights; ≥ hostCPUWarn uses hot.
func heatStrip(vals []float64, normal, hot func(...string) string) string {
	const blocks = " ▁▂▃▄▅▆▇█"
	runes := []rune(blocks)
	var cool, warm strings.Builder
	var b strings.Builder
	flush := func() {
		if cool.Len() > 0 {
			b.WriteString(normal(cool.String()))
			cool.Reset()
		}
		if warm.Len() > 0 {
			b.WriteString(hot(warm.String()))
			warm.Reset()
		}
	}
	for _, v := range vals {
		r := runes[int(min(max(v, 0), 100)/100*float64(len(runes)-1)+0.5)]
		if v >= hostCPUWarn {
			if cool.Len() > 0 {
				flush()
			}
			warm.WriteRune(r)
		} else {
			if warm.Len() > 0 {
				flush()
			}
			cool.WriteRune(r)
		}
	}
	flush()
	return b.String()
}

func (p *hostPane) warnAbove(m sampler.Metric, limit float64, text string) string {
	if m.OK && m.V >= limit {
		return p.c.st.Warn.Render(text)
	}
	return text
}

func fmtPct1(m sampler.Metric) string { return units.Percent(m, 1) }

func fmtLoad(m sampler.Metric) string {
	if !m.OK {
		return naText
	}
	return fmt.Sprintf("%.1f", m.V)
}
