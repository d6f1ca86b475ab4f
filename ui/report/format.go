package report

import (
	"fmt"
	"math"
	"sort"
	"strconv"
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

// money has two decimals, and more for a price below one unit per kWh
// (0.085 per kWh is a common tariff).
func money(v float64) string {
	if v != 0 && math.Abs(v) < 1 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// kwh keeps three significant figures of a small figure (a short run is
// a few Wh) and one decimal from 100 kWh up.
func kwh(m sampler.Metric) string {
	if !m.OK {
		return na
	}
	if m.V >= 100 {
		return fmt.Sprintf("%.1f kWh", m.V)
	}
	return strconv.FormatFloat(m.V, 'g', 3, 64) + " kWh"
}

// kwhDelta is a change in energy, signed, as kwh writes the figure.
func kwhDelta(d float64) string {
	if d < 0 {
		return "-" + kwh(sampler.Some(-d))
	}
	return "+" + kwh(sampler.Some(d))
}

// throttleSpan is "1m20s (27%): sw_power_cap 1m20s, hw_thermal 10s":
// figures and NVML's reason names, the same in any language.
func throttleSpan(g *summary.GPU) string {
	s := units.Seconds(g.ThrottledSeconds.V)
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
		parts[i] = n + " " + units.Seconds(m[n])
	}
	return strings.Join(parts, ", ")
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") }

func orNA(s string) string {
	if s == "" {
		return na
	}
	return s
}

func pidLabel(pid int) string {
	if pid == 0 {
		return "-"
	}
	return fmt.Sprint(pid)
}
