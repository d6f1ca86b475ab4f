package promexport

import (
	"math"
	"strconv"
	"strings"
)

// appendExposition writes a scrape in the Prometheus text format 0.0.4 or,
// with om, OpenMetrics 1.0 — byte for byte what client_golang's expfmt
// writes for the same series (TestEncodingMatchesClientGolang holds it).
// It exists because going through client_golang's Gather costs ~25
// allocations a series: a node of 8 GPUs and 200 processes (~2,000 series)
// took ~8 ms a scrape that way, and takes well under 1 ms this way
// (BenchmarkScrape, docs/benchmarks.md).
func appendExposition(buf []byte, sc *scrape, om bool) []byte {
	for i := range sc.batches {
		b := &sc.batches[i]
		if len(b.sorted) == 0 {
			continue // client_golang writes no HELP/TYPE for a family without series
		}
		f := b.fam
		name, sample, typ := f.name, f.name, "gauge"
		if f.counter {
			typ = "counter"
			if om {
				// OpenMetrics names a counter family without _total; one
				// whose name lacks it (dcgm-exporter's) is "unknown".
				if base, ok := strings.CutSuffix(f.name, "_total"); ok {
					name = base
				} else {
					typ = "unknown"
				}
			}
		}
		buf = append(buf, "# HELP "...)
		buf = append(buf, name...)
		buf = append(buf, ' ')
		buf = appendEscaped(buf, f.help, om)
		buf = append(buf, "\n# TYPE "...)
		buf = append(buf, name...)
		buf = append(buf, ' ')
		buf = append(buf, typ...)
		buf = append(buf, '\n')
		for _, s := range b.sorted {
			buf = append(buf, sample...)
			buf = append(buf, b.sets[s].render(f)...)
			buf = append(buf, ' ')
			buf = appendFloat(buf, b.vals[s], om)
			buf = append(buf, '\n')
		}
	}
	if om {
		buf = append(buf, "# EOF\n"...)
	}
	return buf
}

// appendLabels writes `{name="value",...}` in the family's exposition order.
func appendLabels(buf []byte, f *family, values []string) []byte {
	for j, li := range f.order {
		if j == 0 {
			buf = append(buf, '{')
		} else {
			buf = append(buf, ',')
		}
		buf = append(buf, f.labels[li]...)
		buf = append(buf, `="`...)
		buf = appendEscaped(buf, values[li], true)
		buf = append(buf, '"')
	}
	return append(buf, '}')
}

// appendEscaped escapes backslash and newline, and with quote the double
// quote (label values; HELP in OpenMetrics).
func appendEscaped(buf []byte, s string, quote bool) []byte {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		clean = s[i] != '\\' && s[i] != '\n' && s[i] != '"'
	}
	if clean {
		return append(buf, s...)
	}
	for i := range len(s) {
		switch c := s[i]; {
		case c == '\\':
			buf = append(buf, `\\`...)
		case c == '\n':
			buf = append(buf, `\n`...)
		case c == '"' && quote:
			buf = append(buf, `\"`...)
		default:
			buf = append(buf, c)
		}
	}
	return buf
}

// appendFloat formats as expfmt does: shortest 'g', and in OpenMetrics an
// integral value keeps a ".0".
func appendFloat(buf []byte, v float64, om bool) []byte {
	switch {
	case math.IsNaN(v):
		return append(buf, "NaN"...)
	case math.IsInf(v, 1):
		return append(buf, "+Inf"...)
	case math.IsInf(v, -1):
		return append(buf, "-Inf"...)
	}
	start := len(buf)
	buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
	if om && !strings.ContainsAny(string(buf[start:]), "e.") {
		buf = append(buf, ".0"...)
	}
	return buf
}
