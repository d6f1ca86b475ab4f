package diagnose

import "github.com/gpuscope/gpuscope/sampler"

// The health rules decide from the column first: each walks the window
// for a rare event (a throttle, a degraded link, replays, an Xid), and
// the column answers "none" from small values; a rule then words its
// finding from the snapshots as before, so what it says is unchanged
// (docs/benchmarks.md, "Recording a day: the window kept"). Each quick
// check repeats its rule's counts and thresholds; TestColumnChecksHideNoFinding
// holds the two together.

// Bits of gpuSample.health.
const (
	hClockOK    = 1 << iota // ClockEvents.OK
	hHW                     // a hardware slowdown (hwSlowdownBits)
	hSWThermal              // sw_thermal
	hSWPowerCap             // sw_power_cap
	hTempOK                 // temp read
	hSlowdownOK             // slowdown temperature read
	hLinkLow                // PCIe generation or width below its max
	hReplaysOK              // the replay counter read
	hOddLink                // a link width below zero: the replay limit is not a rate
	hXid                    // Xid events in this sample
	hCopyKnown              // ruleCopyBound judges the sample: util and PCIe read
	hLowCopy                // ... copying while the GPU idles
	hLinkBound              // ... the link half busy while util is under linkBoundUtil
)

// healthOf fills s's health bits and values from x (lost or not: the
// rules below read lost GPUs where they did).
func healthOf(s *gpuSample, x *sampler.GPU) {
	ce := x.ClockEvents
	util, b := x.Util, max(x.PCIeRx.Or(0), x.PCIeTx.Or(0))
	copyKnown := util.OK && (x.PCIeRx.OK || x.PCIeTx.OK)
	peak := linkPeak(x)
	s.health = bits(ce.OK, ce.Has(hwSlowdownBits), ce.Has(sampler.ClockSwThermal), ce.Has(sampler.ClockSwPowerCap),
		x.Temp.OK, x.TempSlowdown.OK,
		x.PCIeGen.OK && x.PCIeGenMax.OK && x.PCIeGen.V < x.PCIeGenMax.V || x.PCIeWidth.OK && x.PCIeWidthMax.OK && x.PCIeWidth.V < x.PCIeWidthMax.V,
		x.PCIeReplays.OK, x.PCIeWidth.OK && x.PCIeWidth.V < 0, len(x.Xids) > 0,
		copyKnown, copyKnown && util.V < copyLowUtil && b >= copyActiveBytes,
		copyKnown && peak > 0 && b >= linkBoundFrac*peak && util.V < linkBoundUtil)
	s.temp, s.slowdown, s.replays = x.Temp.V, x.TempSlowdown.V, x.PCIeReplays.V
}

// bits is a set with bit i set where on[i] holds.
func bits(on ...bool) uint16 {
	var b uint16
	for i, v := range on {
		if v {
			b |= 1 << i
		}
	}
	return b
}

// mayThrottle is false where ruleThermal finds nothing: its counts, from
// the column.
func (c *ctx) mayThrottle(g *gpuCtx) bool {
	if c.walkAll {
		return true
	}
	n, hw, sw, hot := 0, 0, 0, 0
	slow, slowOK := 0.0, false
	for i := range g.col {
		x := &g.col[i]
		if x.x == nil || x.has&sampleLost != 0 {
			continue
		}
		if x.health&hSlowdownOK != 0 {
			slow, slowOK = x.slowdown, true
		}
		if x.health&hTempOK != 0 && slowOK && x.temp >= slow-thermalMargin {
			hot++
		}
		if x.health&hClockOK == 0 {
			continue
		}
		n++
		if x.health&hHW != 0 {
			hw++
		}
		if x.health&hSWThermal != 0 {
			sw++
		}
	}
	samples := max(n, g.util.n, 1)
	return hw > 0 || float64(sw)/float64(samples) >= swThermalFrac || float64(hot)/float64(samples) >= swThermalFrac
}

// mayCap is false where rulePowerCapped finds nothing: too few capped samples.
func (c *ctx) mayCap(g *gpuCtx) bool {
	if c.walkAll {
		return true
	}
	n, capped := 0, 0
	for i := range g.col {
		if h := g.col[i].health; h&hClockOK != 0 {
			n++
			if h&hSWPowerCap != 0 {
				capped++
			}
		}
	}
	return n > 0 && float64(capped)/float64(n) >= powerCapFrac
}

// mayLink is false where rulePCIeLink and rulePCIeLanes find nothing: no
// sample's link below its max.
func (c *ctx) mayLink(g *gpuCtx) bool {
	if c.walkAll {
		return true
	}
	for i := range g.col {
		if g.col[i].health&hLinkLow != 0 {
			return true
		}
	}
	return false
}

// mayReplay is false where rulePCIeErrors finds nothing: the counter
// never rose (a rate of 0 is under any limit of a real link).
func (c *ctx) mayReplay(g *gpuCtx) bool {
	if c.walkAll {
		return true
	}
	prev, prevOK := 0.0, false
	for i := range g.col {
		x := &g.col[i]
		if x.health&hOddLink != 0 {
			return true
		}
		if x.health&hReplaysOK == 0 {
			continue
		}
		if prevOK && x.replays-prev > 0 {
			return true
		}
		prev, prevOK = x.replays, true
	}
	return false
}

// mayCopy is false where ruleCopyBound finds nothing: too few samples
// copy while the GPU idles, or hold the link busy, to be a third of them.
func (c *ctx) mayCopy(g *gpuCtx) bool {
	if c.walkAll {
		return true
	}
	n, low, link := 0, 0, 0
	for _, x := range g.col[g.from:] {
		if x.health&hCopyKnown != 0 {
			n++
			if x.health&hLowCopy != 0 {
				low++
			}
			if x.health&hLinkBound != 0 {
				link++
			}
		}
	}
	return n > 0 && (float64(low)/float64(n) >= copyMinFrac || float64(link)/float64(n) >= copyMinFrac)
}

// mayXid is false where ruleXid finds nothing: no event, the GPU not lost.
func (c *ctx) mayXid(g *gpuCtx) bool {
	if c.walkAll {
		return true
	}
	if g.last.Lost {
		return true
	}
	for i := range g.col {
		if g.col[i].health&hXid != 0 {
			return true
		}
	}
	return false
}
