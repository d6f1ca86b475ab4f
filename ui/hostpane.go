package ui

import (
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
	cpu := "CPU " + p.warnAbove(h.CPU, hostCPUWarn, padLeft(units.Percent(h.CPU, 0), 4)) + " "
	rest := "  " + c.word("host.iowait") + " " + p.warnAbove(h.IOWait, iowaitWarn, units.Percent(h.IOWait, 1)) +
		"  " + c.word("host.load") + " " + units.Number(h.Load1, 1) + " " + units.Number(h.Load5, 1) + " " + units.Number(h.Load15, 1)
	strip := max(0, p.w-widthOf(cpu)-widthOf(rest))
	line1 := cpu + p.coreStrip(h.CPUs, strip) + rest
	groups := []string{c.word("host.mem") + " " + fmtUsedTotal(h.MemUsed, h.MemTotal),
		c.word("host.swap") + " " + fmtUsedTotal(h.SwapUsed, h.SwapTotal),
		c.word("host.disk") + " " + c.word("disk.read") + " " + units.Compact.ByteRate(h.DiskRead) + " " + c.word("disk.write") + " " + units.Compact.ByteRate(h.DiskWrite),
		c.word("host.net") + " " + c.word("net.rx") + " " + units.Compact.ByteRate(h.NetRx) + " " + c.word("net.tx") + " " + units.Compact.ByteRate(h.NetTx)}
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
