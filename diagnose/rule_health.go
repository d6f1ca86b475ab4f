package diagnose

import (
	"math"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Thresholds of the clock, link and health rules. Where no source sets a
// number, the comment gives the reasoning; docs/references.md lists the keys.
const (
	// powerCapFrac: sw_power_cap active ≥ 10% of the window. [nvml-api]
	// defines the bit but no share; a tenth of a 1 Hz window is a cap that
	// recurs every few seconds, not one passing spike.
	powerCapFrac = 0.1
	// clockLoss: capped samples must run the SM clock ≤ 90% of max: boost
	// jitter of a few percent is normal and costs nothing.
	clockLoss = 0.9
	// loadedUtil: clock and link findings matter only under load; idle
	// GPUs downclock and downtrain links by design ([nvml-api]: current vs
	// max link generation; [gpu-idle-handbook] §6.3).
	loadedUtil = 50.0
	// clockSpan: a clock rule needs 30 s of data, the shortest window the
	// profilers judge a rate over ([nsight-systems], [sagemaker-debugger-rules]).
	clockSpan = 30 * time.Second
	// swThermalFrac: sw_thermal ≥ 10% of the window, as powerCapFrac.
	swThermalFrac = 0.1
	// thermalMargin: within 5 °C of the slowdown temperature ([nvml-api]
	// TEMPERATURE_THRESHOLD_SLOWDOWN): the sw_thermal governor acts a few
	// degrees before it, so 5 °C warns before clocks fall.
	thermalMargin = 5.0
	// linkDegradedFor: current < max while loaded for ≥ 5 s: a link retrains
	// in milliseconds, so 5 s under load is no transition.
	linkDegradedFor = 5 * time.Second
	// linkDegradedShare: and in ≥ half of the loaded samples: a transient
	// retrain is not a degraded link.
	linkDegradedShare = 0.5
	// lowLimitShare: a power limit below 95% of the highest limit on the node
	// was lowered on purpose (nvidia-smi -pl; [gpu-idle-handbook] §6.2); 5%
	// is wider than the spread of default limits within one product.
	lowLimitShare = 0.95
	// defaultReplayLimit: replays per minute for Gen4 x16 ([dcgm-health]:
	// ceil(16 GT/s × 60/1000 × 16)); used when the link is unknown.
	defaultReplayLimit = 16.0
)

// hwSlowdownBits are the hardware slowdowns: "any HW bit → critical, clocks
// cut ≥ 2×" ([nvml-api] clock event reasons; [dcgm-health] thermal watch).
const hwSlowdownBits = sampler.ClockHwSlowdown | sampler.ClockHwThermal | sampler.ClockHwPowerBrake

// pcieGTs is the transfer rate per lane of each PCIe generation (GT/s).
var pcieGTs = [...]float64{0, 2.5, 5, 8, 16, 32, 64}

func (c *ctx) rulePowerCapped(g *gpuCtx) (Finding, bool) {
	if g.util.n == 0 || g.util.mean < loadedUtil || c.span < clockSpan || !c.mayCap(g) {
		return Finding{}, false
	}
	n, capped, clockKnown := 0, 0, 0
	var clockSum float64
	maxClock := g.last.SMClockMax
	for i := range c.w {
		x := g.col[i].x
		if x == nil || !x.ClockEvents.OK {
			continue
		}
		n++
		if x.ClockEvents.Has(sampler.ClockSwPowerCap) {
			capped++
			if x.SMClock.OK {
				clockSum += x.SMClock.V
				clockKnown++
			}
			if x.SMClockMax.OK {
				maxClock = x.SMClockMax
			}
		}
	}
	if n == 0 || float64(capped)/float64(n) < powerCapFrac {
		return Finding{}, false
	}
	var est Text
	sev := Warning
	ev := Text{say("power_cap.share", "sw_power_cap in {{.Share}} of {{.N}} {{plural .N \"sample\" \"samples\"}}", "Share", pct(float64(capped)/float64(n)*100), "N", n)}
	if top := c.maxPowerLimit(); g.last.PowerLimit.OK && len(c.gpus) > 1 && g.last.PowerLimit.V >= lowLimitShare*top {
		// Every GPU has this limit: the node's configured envelope, expected
		// under heavy load rather than a misconfiguration.
		sev = Info
		ev = append(ev, say("power_cap.every_gpu", "every GPU has this power limit"))
	}
	if g.last.Power.OK && g.last.PowerLimit.OK {
		ev = append(ev, say("power_cap.power", "power {{.Power}} W of {{.Limit}} W limit", "Power", f0(g.last.Power.V), "Limit", f0(g.last.PowerLimit.V)))
	}
	if clockKnown > 0 && maxClock.OK {
		avg := clockSum / float64(clockKnown)
		if avg > clockLoss*maxClock.V {
			return Finding{}, false
		}
		ev = append(ev, say("power_cap.clock", "SM clock {{.Clock}} MHz while capped (max {{.Max}})", "Clock", f0(avg), "Max", f0(maxClock.V)))
	} else {
		est = Text{say("est.no_clock", "SM clock or its max n/a: clock loss not confirmed")}
	}
	return c.finding(g, RulePowerCapped, sev, mainPID(g),
		say("power_cap.title", "GPU {{.GPU}} clocks held down by the power limit", "GPU", g.idx), ev, hintPowerCap, est), true
}

func (c *ctx) ruleThermal(g *gpuCtx) (Finding, bool) {
	if !c.mayThrottle(g) {
		return Finding{}, false
	}
	n, hw, sw, hot := 0, 0, 0, 0
	var hwNames []string
	var hwSeen uint64
	maxTemp, slowdown := math.Inf(-1), sampler.NA
	for i := range c.w {
		x := g.col[i].x
		if x == nil || x.Lost {
			continue
		}
		if x.TempSlowdown.OK {
			slowdown = x.TempSlowdown
		}
		if x.Temp.OK {
			maxTemp = max(maxTemp, x.Temp.V)
			if slowdown.OK && x.Temp.V >= slowdown.V-thermalMargin {
				hot++
			}
		}
		if !x.ClockEvents.OK {
			continue
		}
		n++
		if x.ClockEvents.Has(hwSlowdownBits) {
			hw++
			if x.ClockEvents.Mask&hwSlowdownBits&^hwSeen != 0 { // a reason not named yet
				hwSeen |= x.ClockEvents.Mask & hwSlowdownBits
				for _, name := range (sampler.ClockEvents{Mask: x.ClockEvents.Mask & hwSlowdownBits, OK: true}).Names() {
					if !containsString(hwNames, name) {
						hwNames = append(hwNames, name)
					}
				}
			}
		}
		if x.ClockEvents.Has(sampler.ClockSwThermal) {
			sw++
		}
	}
	samples := max(n, g.util.n, 1)
	if hw == 0 && float64(sw)/float64(samples) < swThermalFrac && float64(hot)/float64(samples) < swThermalFrac {
		return Finding{}, false // the evidence below is worded only for a finding
	}
	var ev Text
	if !math.IsInf(maxTemp, -1) {
		ev = append(ev, say("thermal.temp", "temp max {{.Temp}} °C", "Temp", f0(maxTemp)))
		if slowdown.OK {
			ev = append(ev, then("thermal.slowdown", " (slowdown {{.Temp}} °C)", "Temp", f0(slowdown.V)))
		}
	}
	if clk := g.last.SMClock; clk.OK {
		ev = append(ev, say("thermal.clock", "SM clock {{.Clock}} MHz", "Clock", f0(clk.V)))
		if g.last.SMClockMax.OK {
			ev = append(ev, then("thermal.clock_max", " of {{.Max}}", "Max", f0(g.last.SMClockMax.V)))
		}
	}
	switch {
	case hw > 0:
		ev = append(Text{say("thermal.hw", "{{.Reasons}} active in {{.N}} of {{.Samples}} {{plural .Samples \"sample\" \"samples\"}}", "Reasons", strings.Join(hwNames, ","), "N", hw, "Samples", n)}, ev...)
		return c.healthFinding(g, RuleThermalThrottle, Critical, say("thermal.title_hw", "GPU {{.GPU}} hardware slowdown", "GPU", g.idx), ev, hintThermalHW), true
	case float64(sw)/float64(samples) >= swThermalFrac || float64(hot)/float64(samples) >= swThermalFrac:
		ev = append(Text{say("thermal.sw", "sw_thermal in {{.N}} of {{.Samples}} {{plural .Samples \"sample\" \"samples\"}}, within {{.Margin}} °C of slowdown in {{.Hot}}",
			"N", sw, "Samples", n, "Margin", f0(thermalMargin), "Hot", hot)}, ev...)
		return c.healthFinding(g, RuleThermalThrottle, Warning, say("thermal.title", "GPU {{.GPU}} throttled by temperature", "GPU", g.idx), ev, hintThermal), true
	}
	return Finding{}, false
}

func (c *ctx) rulePCIeLink(g *gpuCtx) (Finding, bool) {
	if !c.mayLink(g) {
		return Finding{}, false
	}
	if f, ok := c.rulePCIeLanes(g); ok {
		return f, true
	}
	loaded, degraded := 0, 0
	var degradedFor time.Duration
	var gen, genMax, width, widthMax float64
	for i := range c.w {
		x := g.col[i].x
		if x == nil || !x.Util.OK || x.Util.V <= loadedUtil {
			continue
		}
		loaded++
		lowGen := x.PCIeGen.OK && x.PCIeGenMax.OK && x.PCIeGen.V < x.PCIeGenMax.V
		lowWidth := x.PCIeWidth.OK && x.PCIeWidthMax.OK && x.PCIeWidth.V < x.PCIeWidthMax.V
		if !lowGen && !lowWidth {
			continue
		}
		degraded++
		gen, genMax, width, widthMax = x.PCIeGen.V, x.PCIeGenMax.V, x.PCIeWidth.V, x.PCIeWidthMax.V
		if i > 0 {
			degradedFor += c.w[i].Time.Sub(c.w[i-1].Time)
		}
	}
	if degraded == 0 || degradedFor < linkDegradedFor || float64(degraded) < linkDegradedShare*float64(loaded) {
		return Finding{}, false
	}
	ev := Text{say("pcie_link.ev", "PCIe Gen{{.Gen}} x{{.Width}} (max Gen{{.GenMax}} x{{.WidthMax}}) in {{.N}} of {{.Loaded}} {{plural .Loaded \"sample\" \"samples\"}} under load (GPU-Util > {{.Util}})",
		"Gen", f0(gen), "Width", f0(width), "GenMax", f0(genMax), "WidthMax", f0(widthMax), "N", degraded, "Loaded", loaded, "Util", pct(loadedUtil))}
	return c.finding(g, RulePCIeLinkDegraded, Warning, 0,
		say("pcie_link.title", "GPU {{.GPU}} PCIe link below capability", "GPU", g.idx), ev, hintPCIeLink, nil), true
}

func (c *ctx) rulePCIeErrors(g *gpuCtx) (Finding, bool) {
	if !c.mayReplay(g) {
		return Finding{}, false
	}
	var delta float64
	prev := sampler.NA
	var first, last time.Time
	limit := defaultReplayLimit
	for i := range c.w {
		x := g.col[i].x
		if x == nil || !x.PCIeReplays.OK {
			continue
		}
		if prev.OK {
			if d := x.PCIeReplays.V - prev.V; d > 0 {
				delta += d // a counter reset (driver reload) is not negative errors
			}
		} else {
			first = c.w[i].Time
		}
		last, prev = c.w[i].Time, x.PCIeReplays
		if x.PCIeGen.OK && x.PCIeWidth.OK && int(x.PCIeGen.V) > 0 && int(x.PCIeGen.V) < len(pcieGTs) {
			limit = math.Ceil(pcieGTs[int(x.PCIeGen.V)] * 60 / 1000 * x.PCIeWidth.V)
		}
	}
	// Rate per 60 s, never extrapolated from less than a minute (DCGM counts
	// per minute): a short window fires only on a full minute's worth.
	minutes := max(last.Sub(first).Minutes(), 1)
	rate := delta / minutes
	if rate <= limit {
		return Finding{}, false
	}
	ev := Text{say("pcie_errors.ev", "PCIe replay counter +{{.Delta}} over {{.Span}} ({{.Rate}}/min, limit {{.Limit}}/min for this link)",
		"Delta", f0(delta), "Span", secs(last.Sub(first)), "Rate", f0(rate), "Limit", f0(limit))}
	return c.healthFinding(g, RulePCIeErrors, Warning, say("pcie_errors.title", "GPU {{.GPU}} PCIe link errors rising", "GPU", g.idx), ev, hintPCIeErrors), true
}

func mainPID(g *gpuCtx) int {
	if g.main == nil {
		return 0
	}
	return g.main.PID
}

// maxPowerLimit is the highest enforced power limit among the node's GPUs.
func (c *ctx) maxPowerLimit() float64 {
	top := 0.0
	for gi := range c.gpus {
		top = max(top, c.gpus[gi].last.PowerLimit.Or(0))
	}
	return top
}

// rulePCIeLanes: fewer lanes than the link's maximum at any load. A GPU
// lowers its link generation when idle, not its width ([nvml-api] current
// vs max link; nvidia-smi(1) "GPU Link Info"): x8 of x16 at idle is the
// slot, riser or card, in ≥ half of the samples for ≥ 5 s as the loaded
// test.
func (c *ctx) rulePCIeLanes(g *gpuCtx) (Finding, bool) {
	known, narrow := 0, 0
	var narrowFor time.Duration
	var width, widthMax float64
	for i := range c.w {
		x := g.col[i].x
		if x == nil || !x.PCIeWidth.OK || !x.PCIeWidthMax.OK {
			continue
		}
		known++
		if x.PCIeWidth.V >= x.PCIeWidthMax.V {
			continue
		}
		narrow++
		width, widthMax = x.PCIeWidth.V, x.PCIeWidthMax.V
		if i > 0 {
			narrowFor += c.w[i].Time.Sub(c.w[i-1].Time)
		}
	}
	if narrow == 0 || narrowFor < linkDegradedFor || float64(narrow) < linkDegradedShare*float64(known) {
		return Finding{}, false
	}
	ev := Text{say("pcie_link.lanes", "PCIe x{{.Width}} of x{{.WidthMax}} lanes in {{.N}} of {{.Known}} {{plural .Known \"sample\" \"samples\"}}, at any load (the width does not drop to save power)",
		"Width", f0(width), "WidthMax", f0(widthMax), "N", narrow, "Known", known)}
	return c.finding(g, RulePCIeLinkDegraded, Warning, 0,
		say("pcie_link.title_lanes", "GPU {{.GPU}} PCIe link runs on fewer lanes than it has", "GPU", g.idx), ev, hintPCIeLink, nil), true
}
