package promtext

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// ParseRaw reads r as ParseNames does without building a Sample: each
// gets a line's name and the text between its braces (nil when it has
// none), both the reader's own bytes, valid only during the call (Labels
// reads the text). Every line is checked as ParseNames checks it; a name
// keep refuses is skipped unread. A scrape of a thousand nodes then holds
// one line buffer each, not a string and a label slice per line
// (docs/benchmarks.md, "`--nodes` over 1,000 targets").
func ParseRaw(r io.Reader, keep func(name []byte) bool, each func(name, labels []byte, value float64, tsMs int64) error) error {
	sc := bufio.NewScanner(r)
	// Lines are ~250 bytes: a small buffer that grows for a long one.
	sc.Buffer(make([]byte, 0, 4<<10), MaxLine)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimLeft(sc.Bytes(), " \t")
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if keep != nil && !keep(line[:nameEnd(line, true)]) {
			continue
		}
		name, labels, v, ts, err := parseRaw(line)
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		if err := each(name, labels, v, ts); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading the exposition: %w", err)
	}
	return nil
}

func parseRaw(line []byte) (name, labels []byte, v float64, ts int64, err error) {
	i := nameEnd(line, true)
	if i == 0 {
		return nil, nil, 0, 0, fmt.Errorf("want a metric name, got %q", clip(string(line)))
	}
	name, line = line[:i], line[i:]
	braced := false
	if rest := bytes.TrimLeft(line, " \t"); len(rest) > 0 && rest[0] == '{' {
		end, err := checkLabels(rest[1:])
		if err != nil {
			return nil, nil, 0, 0, fmt.Errorf("%s: %w", name, err)
		}
		labels, line = rest[1:1+end], rest[2+end:] // `a{}0` is a sample: expfmt needs no space after the brace
		braced = true
	}
	if len(line) == 0 || (!braced && line[0] != ' ' && line[0] != '\t') {
		return nil, nil, 0, 0, fmt.Errorf("%s: want a space and a value", name)
	}
	value, rest := field(line)
	stamp, rest := field(rest)
	if extra, _ := field(rest); len(value) == 0 || len(extra) > 0 {
		return nil, nil, 0, 0, fmt.Errorf("%s: want a value and at most a timestamp, got %q", name, clip(string(line)))
	}
	// NaN, +Inf, -Inf as the format writes them.
	if v, err = strconv.ParseFloat(string(value), 64); err != nil {
		return nil, nil, 0, 0, fmt.Errorf("%s: value %q is not a number", name, clip(string(value)))
	}
	if len(stamp) > 0 {
		if ts, err = strconv.ParseInt(string(stamp), 10, 64); err != nil {
			return nil, nil, 0, 0, fmt.Errorf("%s: timestamp %q is not milliseconds", name, clip(string(stamp)))
		}
	}
	return name, labels, v, ts, nil
}

// field is the first of s's fields as strings.Fields splits them (by
// Unicode white space) and what follows it.
func field(s []byte) (f, rest []byte) {
	i := 0
	for i < len(s) {
		r, w := utf8.DecodeRune(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += w
	}
	j := i
	for j < len(s) {
		r, w := utf8.DecodeRune(s[j:])
		if unicode.IsSpace(r) {
			break
		}
		j += w
	}
	return s[i:j], s[j:]
}

// checkLabels checks `a="b",c="d"}` (after the brace) as parseLabels reads
// it, with its errors, without building the labels; end is the closing
// brace's index in s.
func checkLabels(s []byte) (end int, err error) {
	var spans [16][2]int // the names so far, for "twice"
	names := spans[:0]
	i := 0
	for {
		i = skipBlank(s, i)
		if i < len(s) && s[i] == '}' {
			return i, nil
		}
		n := nameEnd(s[i:], false)
		if n == 0 {
			return 0, fmt.Errorf("want a label name or }, got %q", clip(string(s[i:])))
		}
		name := s[i : i+n]
		from := i
		i = skipBlank(s, i+n)
		if i >= len(s) || s[i] != '=' {
			return 0, fmt.Errorf("label %s: want =", name)
		}
		i = skipBlank(s, i+1)
		if i >= len(s) || s[i] != '"' {
			return 0, fmt.Errorf("label %s: want a quoted value", name)
		}
		if i, err = checkQuoted(s, i+1); err != nil {
			return 0, fmt.Errorf("label %s: %w", name, err)
		}
		for _, sp := range names {
			if bytes.Equal(s[sp[0]:sp[1]], name) {
				return 0, fmt.Errorf("label %s twice", name)
			}
		}
		names = append(names, [2]int{from, from + n})
		i = skipBlank(s, i)
		switch {
		case i < len(s) && s[i] == ',':
			i++
		case i < len(s) && s[i] == '}':
		default:
			return 0, fmt.Errorf("label %s: want , or } after its value", name)
		}
	}
}

// checkQuoted checks a label value from i (after its opening quote) as
// unquote reads it, and returns the index after its closing quote.
func checkQuoted(s []byte, i int) (int, error) {
	for ; i < len(s); i++ {
		switch s[i] {
		case '"':
			return i + 1, nil
		case '\\':
			if i+1 == len(s) {
				return 0, fmt.Errorf("value ends in a lone backslash")
			}
			i++
			if c := s[i]; c != '\\' && c != '"' && c != 'n' {
				return 0, fmt.Errorf(`unknown escape \%c`, c)
			}
		}
	}
	return 0, fmt.Errorf("value has no closing quote")
}

func skipBlank(s []byte, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}
