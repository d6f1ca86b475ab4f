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
	"fmt"
	"io"
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
	var keepRaw func([]byte) bool
	if keep != nil {
		keepRaw = func(name []byte) bool { return keep(string(name)) }
	}
	return ParseRaw(r, keepRaw, func(name, labels []byte, v float64, ts int64) error {
		s := Sample{Name: string(name), Value: v, TimestampMs: ts}
		if len(labels) > 0 {
			var err error
			if s.Labels, err = Labels(string(labels)); err != nil {
				return err // ParseRaw checked them: not reached
			}
		}
		return each(s)
	})
}

// Labels reads the text between a sample's braces, as ParseRaw gives it:
// `a="b",c="d"`. Values without escapes are substrings of text.
func Labels(text string) ([]Label, error) {
	out, rest, err := parseLabels(text, true)
	if err == nil && rest != "" {
		err = fmt.Errorf("want the end of the labels, got %q", clip(rest))
	}
	return out, err
}

// parseLabels reads `a="b",c="d"}` (after the brace) and returns the rest;
// whole: the text ends where the brace would be (Labels).
func parseLabels(s string, whole bool) ([]Label, string, error) {
	var out []Label
	for {
		s = strings.TrimLeft(s, " \t")
		if strings.HasPrefix(s, "}") {
			return out, s[1:], nil
		}
		if whole && s == "" {
			return out, "", nil
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
		case strings.HasPrefix(s, "}"), whole && s == "":
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
func nameEnd[T string | []byte](s T, metric bool) int {
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
