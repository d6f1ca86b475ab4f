package ui

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// Temperature marks (after docs/scenarios.md: thermal_throttle warns
// "within 5 °C of slowdown"; 10 °C below is a first heads-up). When the
// slowdown temperature is n/a, 90 °C (H200 slowdown) stands in.
const (
	tempWarnBelowSlowdown = 10.0
	tempCritBelowSlowdown = 5.0
	defaultSlowdownC      = 90.0
)

// gpuPane lists every GPU: one compact row each, or two wide lines.
type gpuPane struct {
	cached
	c      *common
	lines  int // lines per GPU: 1 or 2
	cursor int
	top    int // first GPU shown when they do not all fit
	series []float64
	// scratch holds an older history point's figures (history.gpu).
	scratch sampler.GPU
	// sparks are the rows' sparklines as last drawn, two per GPU position
	// (utilisation, memory); drawn is the title line as last drawn.
	sparks []drawnSpark
	drawn  drawnTitle
}

// spark is the memo of GPU position pos's sparkline kind (0 utilisation,
// 1 memory).
func (p *gpuPane) spark(pos, kind int) *drawnSpark {
	if n := 2*pos + kind + 1; n > len(p.sparks) {
		p.sparks = append(p.sparks, make([]drawnSpark, n-len(p.sparks))...)
	}
	return &p.sparks[2*pos+kind]
}

func (p *gpuPane) View() string { return p.view(p.render) }

func (p *gpuPane) move(d int) {
	p.cursor = min(max(p.cursor+d, 0), max(0, p.c.gpuCount-1))
	p.invalidate()
}

func (p *gpuPane) render() []string {
	c, st := p.c, p.c.st
	s := c.latest()
	if s == nil {
		return []string{title(st, c.word("pane.gpus"), "", c.focus == focusGPUs, p.w), st.Muted.Render("  " + c.word("gpus.waiting"))}
	}
	info := c.gpuCountText(len(s.GPUs))
	if len(s.GPUs) > 0 {
		info += " × " + shortGPUName(s.GPUs[0].Name)
	}
	lines := []string{""}
	cur := min(p.cursor, max(0, len(s.GPUs)-1)) // the Model clamps the cursor (clampCursors); drawing never moves it
	per := max(p.lines, 1)
	fit := max(1, (p.h-1)/per)
	p.top = min(max(p.top, cur-fit+1), cur)
	p.top = max(0, min(p.top, len(s.GPUs)-fit))
	if fit < len(s.GPUs) {
		info += " · " + c.say("gpus.shown", map[string]any{"From": p.top, "To": min(len(s.GPUs), p.top+fit) - 1})
	}
	expandMIG := p.migExpanded(s)
	if !expandMIG && migRows(s) > 0 {
		info += " · " + c.word("mig.util_na") // the short form of mig.note, when it has no line
	}
	// The node balance strip rides in the title so it costs no GPU row.
	if bal := balanceInfo(c, c.window, p.w-widthOf("─ ▸ "+c.word("pane.gpus")+" · "+info+" ·  ─")); bal != "" {
		info += " · " + bal
	}
	lines[0] = p.drawn.title(st, c.word("pane.gpus"), info, c.focus == focusGPUs, p.w)
	for i := p.top; i < len(s.GPUs) && i < p.top+fit; i++ {
		g := &s.GPUs[i]
		sel := i == cur
		if per == 2 {
			l1, l2 := p.wideRows(g, i)
			lines = append(lines, c.cursor(sel, c.focus == focusGPUs, l1, p.w), "  "+l2)
		} else {
			lines = append(lines, c.cursor(sel, c.focus == focusGPUs, p.compactRow(g, i), p.w))
		}
		if expandMIG && g.MIG {
			lines = append(lines, p.migLines(g)...)
		}
	}
	if expandMIG {
		lines = append(lines, st.Info.Render("  "+truncate(c.word("mig.note"), p.w-2)))
	}
	return lines
}

// label is the GPU's index and short name, padded: "0 H200 ".
func gpuLabel(g *sampler.GPU) string { return fmt.Sprintf("%d %-5s", g.Index, shortGPUName(g.Name)) }

// compactRow fits one GPU in a line of p.w-2 cells; the sparkline takes the
// room the fixed fields leave, and the least important fields go first when
// the terminal is narrow.
func (p *gpuPane) compactRow(g *sampler.GPU, pos int) string {
	c, st := p.c, p.c.st
	if g.Lost {
		return gpuLabel(g) + " " + st.BadgeCrit.Render(" "+c.word("gpu.lost")+" ") + st.Crit.Render(" "+c.word("gpu.lost_short"))
	}
	head := gpuLabel(g) + " " + padLeft(units.Percent(g.Util, 0), 4) + " "
	optional := []string{ // most important first
		padRight(fmtUsedTotal(g.MemUsed, g.MemTotal), 9),
		p.temp(g),
		padRight(units.Compact.Whole(g.Power, "")+"/"+units.Compact.Whole(g.PowerLimit, "W"), 8),
		padRight(units.Compact.Whole(g.SMClock, "MHz"), 7),
		c.word("gpu.sm_short") + " " + padLeft(units.Percent(g.SMActive, 0), 4),
		c.word("gpu.tc_short") + " " + padLeft(units.Percent(g.TensorActive, 0), 4),
	}
	// Columns are laid out the same for every row (badge ignored) so they
	// line up; a throttled row then gives up trailing fields for its badge.
	avail := p.w - 2 - widthOf(head)
	const minSpark = 6 // fewer columns show no shape
	var tail []string
	used := 0
	for _, f := range optional {
		if used+widthOf(f)+1 > avail-minSpark {
			break
		}
		tail = append(tail, f)
		used += widthOf(f) + 1
	}
	sw := max(0, avail-used-1)
	spark := p.utilSpark(pos, sw)
	if mk := migMarker(g); mk != "" {
		spark = st.Info.Render(padRight(mk, sw)) // no GPU-Util history with MIG
	}
	if badge := throttleBadge(c, g, false); badge != "" {
		for len(tail) > 0 && widthOf(strings.Join(tail, " "))+1+widthOf(badge) > avail-sw-1 {
			tail = tail[:len(tail)-1]
		}
		tail = append(tail, badge)
	}
	return head + spark + " " + strings.Join(tail, " ")
}

// wideRows is two lines: utilisation and memory with history sparklines,
// GPM levels; then temperature, power, clocks, fan, PCIe and throttling.
func (p *gpuPane) wideRows(g *sampler.GPU, pos int) (string, string) {
	c, st := p.c, p.c.st
	if g.Lost {
		return gpuLabel(g) + " " + st.BadgeCrit.Render(" "+c.word("gpu.lost")+" "),
			st.Crit.Render(c.word("gpu.lost_long"))
	}
	label := gpuLabel(g)
	util := c.word("gpu.util") + " " + padLeft(units.Percent(g.Util, 0), 4) + " "
	mem := " " + c.word("gpu.mem") + " " + padRight(fmtUsedTotal(g.MemUsed, g.MemTotal), 10)
	gpm := "  " + c.word("gpu.sm") + " " + padLeft(units.Percent(g.SMActive, 0), 4) + "  " + c.word("gpu.tensor") + " " + padLeft(units.Percent(g.TensorActive, 0), 4) +
		"  " + c.word("gpu.dram") + " " + padLeft(units.Percent(g.DRAMActive, 0), 4)
	fixed := widthOf(label) + 1 + widthOf(util) + widthOf(mem) + 1 + widthOf(gpm)
	room := max(0, p.w-2-fixed)
	uw, mw := room*2/3, room-room*2/3
	h := c.hist
	memPct := func(i int) sampler.Metric {
		if g := h.gpu(i, pos, &p.scratch); g != nil && g.MemUsed.OK && g.MemTotal.V > 0 {
			return sampler.Some(100 * g.MemUsed.V / g.MemTotal.V)
		}
		return sampler.NA
	}
	utilSpark := p.utilSpark(pos, uw)
	if mk := migMarker(g); mk != "" {
		utilSpark = st.Info.Render(padRight(mk, uw)) // no GPU-Util history with MIG
	}
	l1 := label + " " + util + utilSpark +
		mem + p.spark(pos, 1).drawSeries(h, mw, 100, &st.Info, &p.series, memPct) + gpm
	clock := c.word("gpu.sm_clock") + " " + units.Compact.Whole(g.SMClock, "") + "/" + units.Compact.Whole(g.SMClockMax, "MHz")
	pcie := "PCIe " + c.word("net.rx") + " " + units.Compact.ByteRate(g.PCIeRx) + " " + c.word("net.tx") + " " + units.Compact.ByteRate(g.PCIeTx)
	if g.PCIeGen.OK && g.PCIeWidth.OK {
		pcie += fmt.Sprintf(" Gen%.0f×%.0f", g.PCIeGen.V, g.PCIeWidth.V)
	}
	l2 := strings.Join([]string{"      " + p.temp(g), units.Compact.Whole(g.Power, "") + "/" + units.Compact.Whole(g.PowerLimit, "W"),
		clock, c.word("gpu.fan") + " " + units.Percent(g.Fan, 0), pcie}, "  ")
	if b := throttleBadge(c, g, true); b != "" {
		l2 += "  " + b
	}
	return l1, l2
}

// utilSpark is GPU position pos's utilisation sparkline, w cells.
func (p *gpuPane) utilSpark(pos, w int) string {
	h := p.c.hist
	return p.spark(pos, 0).drawSeries(h, w, 100, &p.c.st.Accent, &p.series, func(i int) sampler.Metric {
		if g := h.gpu(i, pos, &p.scratch); g != nil {
			return g.Util
		}
		return sampler.NA
	})
}

// temp colours the temperature by its distance to the slowdown point.
func (p *gpuPane) temp(g *sampler.GPU) string {
	st := p.c.st
	t := padRight(units.Compact.Whole(g.Temp, "°C"), 4)
	slow := g.TempSlowdown.Or(defaultSlowdownC)
	switch {
	case !g.Temp.OK:
		return p.c.styled(&st.Muted, t)
	case g.Temp.V >= slow-tempCritBelowSlowdown:
		return p.c.styled(&st.Crit, t)
	case g.Temp.V >= slow-tempWarnBelowSlowdown:
		return p.c.styled(&st.Warn, t)
	}
	return t
}

// throttleBadge names why clocks are held down (power, thermal, hw, sync),
// from the clock event reasons; "" when they are not.
func throttleBadge(c *common, g *sampler.GPU, long bool) string {
	st := c.st
	ce := g.ClockEvents
	if !ce.Throttled() {
		return ""
	}
	var why []string
	if ce.Has(sampler.ClockSwThermal | sampler.ClockHwThermal) {
		why = append(why, c.word("throttle.thermal"))
	}
	if ce.Has(sampler.ClockSwPowerCap | sampler.ClockHwPowerBrake) {
		why = append(why, c.word("throttle.power"))
	}
	if ce.Has(sampler.ClockHwSlowdown) {
		why = append(why, c.word("throttle.hw"))
	}
	if ce.Has(sampler.ClockSyncBoost) {
		why = append(why, c.word("throttle.sync"))
	}
	style := &st.BadgeWarn
	if ce.Has(sampler.ClockHwSlowdown | sampler.ClockHwThermal | sampler.ClockHwPowerBrake) {
		style = &st.BadgeCrit // hardware slowdown: critical (DCGM health, docs/scenarios.md)
	}
	if long {
		return c.styled(style, " "+c.word("throttle.long")+" "+strings.Join(why, "+")+" ")
	}
	return c.styled(style, c.word("throttle.short")+" "+why[0])
}

func widthOf(s string) int { return cellWidth(s) }
