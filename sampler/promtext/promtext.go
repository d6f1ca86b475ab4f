// Package promtext parses the Prometheus text exposition format (what
// `gpuscope serve` and dcgm-exporter answer on /metrics) into samples, for
// `gpuscope --nodes`, which scrapes nodes without a Prometheus server.
// It is written here rather than linked from prometheus/common/expfmt,
// which would bring the protobuf model into the binary (docs/benchmarks.md,
// "What each dependency costs"); the tests hold it against expfmt.
//
// Format: [exposition-formats] §Text format details. Comment lines (# HELP,
// # TYPE, others) are skipped; a histogram's or summary's lines are
// samples like any other (name_bucket{le="…"}, name_sum, name_count).
package promtext

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Label is one label pair.
type Label struct{ Name, Value string }

// Sample is one line: a series and its value. TimestampMs is 0 when the
// line has none.
type Sample struct {
	Name        string
	Labels      []Label
	Value       float64
	TimestampMs int64
}

// MaxLine bounds one line: a longer one is an error, not an allocation.
const MaxLine = 1 << 20

// Parse reads r and calls each for every sample, in order. It stops at the
// first malformed line with an error naming the line; each's error stops
// it too.
func Parse(r io.Reader, each func(Sample) error) error {
	return ParseNames(r, nil, each)
}

// ParseNames is Parse for the samples whose name keep accepts (nil: all):
// the others' labels are not read, nor checked.
func ParseNames(r io.Reader, keep func(name string) bool, each func(Sample) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimLeft(sc.Text(), " \t")
		if line == "" || line[0] == '#' {
			continue
		}
		if keep != nil && !keep(line[:nameEnd(line, true)]) {
			continue
		}
		s, err := parseLine(line)
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		if err := each(s); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading the exposition: %w", err)
	}
	return nil
}

func parseLine(line string) (Sample, error) {
	var s Sample
	i := nameEnd(line, true)
	if i == 0 {
		return s, fmt.Errorf("want a metric name, got %q", clip(line))
	}
	s.Name, line = line[:i], line[i:]
	labels := false
	if rest := strings.TrimLeft(line, " \t"); strings.HasPrefix(rest, "{") {
		var err error
		s.Labels, line, err = parseLabels(rest[1:])
		if err != nil {
			return s, fmt.Errorf("%s: %w", s.Name, err)
		}
		labels = true // `a{}0` is a sample: expfmt needs no space after the brace
	}
	if line == "" || (!labels && line[0] != ' ' && line[0] != '\t') {
		return s, fmt.Errorf("%s: want a space and a value", s.Name)
	}
	fields := strings.Fields(line)
	if len(fields) < 1 || len(fields) > 2 {
		return s, fmt.Errorf("%s: want a value and at most a timestamp, got %q", s.Name, clip(line))
	}
	v, err := strconv.ParseFloat(fields[0], 64) // NaN, +Inf, -Inf as the format writes them
	if err != nil {
		return s, fmt.Errorf("%s: value %q is not a number", s.Name, clip(fields[0]))
	}
	s.Value = v
	if len(fields) == 2 {
		ts, err := strconv.ParseInt(fields[1], 10, 64)
		if err != nil {
			return s, fmt.Errorf("%s: timestamp %q is not milliseconds", s.Name, clip(fields[1]))
		}
		s.TimestampMs = ts
	}
	return s, nil
}

// parseLabels reads `a="b",c="d"}` (after the brace) and returns the rest.
func parseLabels(s string) ([]Label, string, error) {
	var out []Label
	for {
		s = strings.TrimLeft(s, " \t")
		if strings.HasPrefix(s, "}") {
			return out, s[1:], nil
		}
		i := nameEnd(s, false)
		if i == 0 {
			return nil, "", fmt.Errorf("want a label name or }, got %q", clip(s))
		}
		name := s[:i]
		s = strings.TrimLeft(s[i:], " \t")
		if !strings.HasPrefix(s, "=") {
			return nil, "", fmt.Errorf("label %s: want =", name)
		}
		s = strings.TrimLeft(s[1:], " \t")
		if !strings.HasPrefix(s, `"`) {
			return nil, "", fmt.Errorf("label %s: want a quoted value", name)
		}
		v, rest, err := unquote(s[1:])
		if err != nil {
			return nil, "", fmt.Errorf("label %s: %w", name, err)
		}
		for _, l := range out {
			if l.Name == name {
				return nil, "", fmt.Errorf("label %s twice", name)
			}
		}
		out = append(out, Label{name, v})
		s = strings.TrimLeft(rest, " \t")
		switch {
		case strings.HasPrefix(s, ","):
			s = s[1:]
		case strings.HasPrefix(s, "}"):
		default:
			return nil, "", fmt.Errorf("label %s: want , or } after its value", name)
		}
	}
}

// unquote reads a label value up to its closing quote: \\, \" and \n are
// the escapes the format has.
func unquote(s string) (string, string, error) {
	if i := strings.IndexAny(s, `"\\`); i >= 0 && s[i] == '"' {
		return s[:i], s[i+1:], nil // no escape: no copy
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return b.String(), s[i+1:], nil
		case '\\':
			if i+1 == len(s) {
				return "", "", fmt.Errorf("value ends in a lone backslash")
			}
			i++
			switch s[i] {
			case '\\':
				b.WriteByte('\\')
			case '"':
				b.WriteByte('"')
			case 'n':
				b.WriteByte('\n')
			default:
				return "", "", fmt.Errorf(`unknown escape \%c`, s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", "", fmt.Errorf("value has no closing quote")
}

// nameEnd is the length of the metric (colons allowed) or label name at
// the start of s: [a-zA-Z_:][a-zA-Z0-9_:]*.
func nameEnd(s string, metric bool) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || (metric && c == ':') || (i > 0 && c >= '0' && c <= '9')
		if !ok {
			return i
		}
	}
	return len(s)
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
