package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// Formatting shared by the text, markdown and HTML renderers: reports are
// prose, so sampler/units' spaced form ("62 °C", "650 W"). Every figure
// that may be absent renders as "n/a", never as 0.

const na = units.NA

func pct(m sampler.Metric) string { return units.Percent(m, 1) }

func distMean(d *summary.Dist) sampler.Metric {
	if d == nil {
		return sampler.NA
	}
	return sampler.Some(d.Mean)
}

// distPart picks one figure of a distribution: "mean", "p5", "p50", "p95".
func distPart(d *summary.Dist, part string) sampler.Metric {
	if d == nil {
		return sampler.NA
	}
	switch part {
	case "p5":
		return sampler.Some(d.P5)
	case "p50":
		return sampler.Some(d.P50)
	case "p95":
		return sampler.Some(d.P95)
	}
	return sampler.Some(d.Mean)
}

func distText(d *summary.Dist) string {
	if d == nil {
		return na
	}
	return fmt.Sprintf("mean %.1f%%  p5 %.1f%%  p50 %.1f%%  p95 %.1f%%", d.Mean, d.P5, d.P50, d.P95)
}

func watts(m sampler.Metric) string { return units.Spaced.Watts(m) }

func celsius(m sampler.Metric) string { return units.Spaced.Celsius(m) }

func gib(m sampler.Metric) string { return units.Spaced.GiB(m) }

// memText is "40.0 GiB of 141.0 GiB (28%)", or less when the total is unknown.
func memText(g *summary.GPU) string {
	if !g.MemPeak.OK || !g.MemTotal.OK || g.MemTotal.V <= 0 {
		return gib(g.MemPeak)
	}
	return fmt.Sprintf("%s of %s (%.0f%%)", gib(g.MemPeak), gib(g.MemTotal), 100*g.MemPeak.V/g.MemTotal.V)
}

func dur(seconds float64) string { return units.Seconds(seconds) }

// throttleText is "1m20s (27%): sw_power_cap 1m20s, hw_thermal 10s",
// "none", or n/a when the input has no clock-event reasons.
func throttleText(g *summary.GPU) string {
	if !g.ThrottledSeconds.OK {
		return na
	}
	if g.ThrottledSeconds.V == 0 {
		return "none"
	}
	s := dur(g.ThrottledSeconds.V)
	if span := g.Last.Sub(g.First).Seconds(); span > 0 {
		s += fmt.Sprintf(" (%.0f%%)", 100*g.ThrottledSeconds.V/span)
	}
	if r := reasonsText(g.ThrottleReasons); r != "" {
		s += ": " + r
	}
	return s
}

func reasonsText(m map[string]float64) string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if m[names[i]] != m[names[j]] {
			return m[names[i]] > m[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + " " + dur(m[n])
	}
	return strings.Join(parts, ", ")
}

func powerText(g *summary.GPU) string {
	s := fmt.Sprintf("mean %s  max %s", watts(g.PowerMean), watts(g.PowerMax))
	if g.PowerLimit.OK {
		s += fmt.Sprintf("  (%s / %s of the %s limit)", pctInt(g.PowerShareMean), pctInt(g.PowerShareMax), watts(g.PowerLimit))
	}
	return s
}

func pctInt(m sampler.Metric) string { return units.Percent(m, 0) }

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") }

func orNA(s string) string {
	if s == "" {
		return na
	}
	return s
}

func gpuLabel(gpu int) string {
	if gpu < 0 {
		return "node"
	}
	return fmt.Sprintf("GPU %d", gpu)
}

func pidLabel(pid int) string {
	if pid == 0 {
		return "-"
	}
	return fmt.Sprint(pid)
}

func episodesText(f *summary.Finding) string {
	s := "episode"
	if f.Episodes != 1 {
		s += "s"
	}
	return fmt.Sprintf("open %s in %d %s", dur(f.OpenSeconds), f.Episodes, s)
}

func rangeText(r summary.Range) string {
	return fmt.Sprintf("%s → %s (%s, %d snapshots)", stamp(r.From), stamp(r.To), dur(r.Seconds), r.Samples)
}

func findingsFromText(r *summary.Report) string {
	if r.FindingsFrom == "recording" {
		return "as the diagnosis showed them while recording"
	}
	return "recomputed here by the diagnosis over the snapshots"
}
