// Package units formats readings that may be n/a with their units, the
// one way every view does it: a reading that is absent renders as "n/a",
// never as 0. Two spellings, one per context: Compact for the dashboard's
// cells and the --once table ("62°C", "650W", "12.3GiB", "80.1G"), where
// columns are tight, and Spaced for prose and reports ("62 °C", "650 W", "12.3 GiB"),
// as SI writes a number and its unit. Percent never takes a space ("42%").
package units

import (
	"fmt"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// NA is how an absent reading reads.
const NA = "n/a"

// Style is where a figure is shown: Compact (cells) or Spaced (prose).
type Style bool

const (
	Compact Style = false
	Spaced  Style = true
)

func (s Style) join(num, unit string) string {
	if s == Spaced {
		return num + " " + unit
	}
	return num + unit
}

// Scaled is the reading divided by div, with the given decimals and its
// unit: Compact.Scaled(m, 1e9, 2, "GB/s") is "1.25GB/s"; n/a when absent.
func (s Style) Scaled(m sampler.Metric, div float64, decimals int, unit string) string {
	if !m.OK {
		return NA
	}
	num := fmt.Sprintf("%.*f", decimals, m.V/div)
	if unit == "" {
		return num
	}
	return s.join(num, unit)
}

// Whole is the reading rounded to a whole number with its unit: "62°C" or
// "62 °C"; n/a when absent. Not inlined: ~45 copies cost the binary more
// than the call (docs/benchmarks.md, "The dashboard at 100 ms, again").
//
//go:noinline
func (s Style) Whole(m sampler.Metric, unit string) string { return s.Scaled(m, 1, 0, unit) }

// Celsius is a temperature in whole degrees.
func (s Style) Celsius(m sampler.Metric) string { return s.Whole(m, "°C") }

// Watts is a power in whole watts.
func (s Style) Watts(m sampler.Metric) string { return s.Whole(m, "W") }

// GiB is a byte count in GiB with one decimal.
func (s Style) GiB(m sampler.Metric) string { return s.Scaled(m, 1<<30, 1, "GiB") }

// Bytes is a byte count in binary units to three significant figures:
// Compact names the unit by its letter, as the dashboard's cells have room
// for ("512B", "1.5K", "80.1G", "141G"), Spaced in full ("80.1 GiB"); n/a
// when absent.
func (s Style) Bytes(m sampler.Metric) string {
	if !m.OK {
		return NA
	}
	const letters = "BKMGTPE"
	sign, v, i := "", m.V, 0
	if v < 0 {
		sign, v = "-", -v
	}
	for v >= 1024 && i < len(letters)-1 {
		v /= 1024
		i++
	}
	unit := letters[i : i+1]
	if s == Spaced && i > 0 {
		unit += "iB"
	}
	decimals := 1
	if i == 0 || v >= 99.95 {
		decimals = 0
	}
	return s.join(fmt.Sprintf("%s%.*f", sign, decimals, v), unit)
}

// ByteRate is Bytes per second: "1.5G/s", "1.5 GiB/s"; n/a when absent.
func (s Style) ByteRate(m sampler.Metric) string {
	if !m.OK {
		return NA
	}
	return s.Bytes(m) + "/s"
}

// Number is the bare reading with the given decimals, or n/a.
func Number(m sampler.Metric, decimals int) string { return Compact.Scaled(m, 1, decimals, "") }

// Percent is a percent reading with the given decimals: "42%", "42.5%".
//
// Not inlined: a copy at each call site cost the binary; see docs/benchmarks.md,
// "Binary size and the glibc floor".
//
//go:noinline
func Percent(m sampler.Metric, decimals int) string {
	if !m.OK {
		return NA
	}
	return fmt.Sprintf("%.*f%%", decimals, m.V)
}

// Seconds is a span of seconds rounded to the second: "1m20s".
func Seconds(seconds float64) string {
	return time.Duration(seconds * float64(time.Second)).Round(time.Second).String()
}
