package record

import (
	"bytes"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"
)

// findingsMemo stores the findings only when they change (version 3 on).
// A diagnosis holds for many lines: the same findings, ranked alike, each
// seen again at the line's time. They were ~42 % of a line (5.3 KB of
// 12.7 KB on a day of the mixed demo, 8 GPUs), encoded by the recorder and
// scanned by every reader on every line (docs/benchmarks.md). The writer
// compares each finding with the one at the same position in the line
// before and lists it instead of writing it: same_findings when it is the
// same text, seen_findings when only its last_seen differs and is the
// line's time. The reader puts the text back, so a reader's Entry.Findings
// holds the whole list as it was written. Findings are compared as text:
// nothing here knows their fields but last_seen (sampler does not import
// diagnose, docs/ARCHITECTURE.md).
type findingsMemo struct {
	last [][]byte // the findings of the line before, one JSON object each
	// reused from line to line by restore
	kind []byte
	offs []int
	at   []byte
}

// elide sets l's findings to those that changed and lists the others. raw
// is the whole list; at is the line's time.
func (m *findingsMemo) elide(l *wireEntry, raw []byte, at time.Time) {
	// A copy: its items are kept as the line before. Null, or not a list:
	// written as it is, and nothing to refer to.
	cur, ok := splitArray(bytes.Clone(raw))
	if !ok {
		m.last = nil
		return
	}
	seenAt := timeText(at)
	var rest []byte
	for i, f := range cur {
		switch {
		case i >= len(m.last):
		case bytes.Equal(f, m.last[i]):
			l.SameFindings = append(l.SameFindings, i)
			continue
		case seenAt != nil && seenAgain(m.last[i], f, seenAt):
			l.SeenFindings = append(l.SeenFindings, i)
			continue
		}
		rest = appendElem(rest, f)
	}
	if len(l.SameFindings)+len(l.SeenFindings) > 0 {
		if rest == nil {
			l.Findings = nil // all listed: the key is left out
		} else {
			l.Findings = append(rest, ']')
		}
	}
	m.last = cur
}

// restore puts back the findings l lists, from the line before, and
// remembers this line's. A listed position the reader has no finding for
// (the line before was damaged and skipped) is left out.
func (m *findingsMemo) restore(l *wireEntry) {
	same, seen := l.SameFindings, l.SeenFindings
	l.SameFindings, l.SeenFindings = nil, nil
	rest, ok := splitArray(l.Findings)
	if len(same)+len(seen) == 0 {
		m.last = rest
		if !ok {
			m.last = nil
		}
		return
	}
	m.at = appendTimeText(m.at[:0], l.Time)
	seenAt := m.at
	// What each position takes: a listed one the finding before (kind 1,
	// or 2 seen again), the others the next written one. Positions past
	// what the lines hold are ignored, so a crafted list costs its length.
	n := min(len(rest)+len(same)+len(seen), len(rest)+len(m.last))
	kind := append(m.kind[:0], make([]byte, n)...)
	m.kind = kind
	for k, list := range [][]int{same, seen} {
		for _, i := range list {
			if i >= 0 && i < n {
				kind[i] = byte(k + 1)
			}
		}
	}
	out := make([]byte, 0, len(l.Findings)+n*len(seenAt)+sumLen(m.last)+2)
	out = append(out, '[')
	offs := m.offs[:0] // where each finding starts in out, and ends
	kept := make([]bool, 0, n)
	for i := range n {
		var f []byte
		var at []byte // the last_seen to set, if seen again
		switch {
		case kind[i] == 1:
			f = m.elem(i)
		case kind[i] == 2:
			f, at = m.elem(i), seenAt
		case len(rest) > 0:
			f, rest = rest[0], rest[1:]
		}
		if f == nil {
			continue
		}
		kept = append(kept, kind[i] != 0)
		if len(offs) > 0 {
			out = append(out, ',')
		}
		offs = append(offs, len(out))
		s, e, ok := 0, 0, false
		if at != nil {
			s, e, ok = stringValue(f, "last_seen")
		}
		if ok {
			out = append(append(append(out, f[:s]...), at...), f[e:]...)
		} else {
			out = append(out, f...)
		}
		offs = append(offs, len(out))
	}
	for _, f := range rest { // positions the lists did not account for
		if len(offs) > 0 {
			out = append(out, ',')
		}
		offs = append(offs, len(out))
		out = append(out, f...)
		offs = append(offs, len(out))
		kept = append(kept, false)
	}
	out = append(out, ']')
	m.offs = offs
	m.last = m.last[:0]
	for i := 0; i < len(offs); i += 2 {
		m.last = append(m.last, out[offs[i]:offs[i+1]])
	}
	l.FindingsWritten, l.Findings, l.FindingsKept = l.Findings, out, kept
}

func (m *findingsMemo) elem(i int) []byte {
	if i < len(m.last) {
		return m.last[i]
	}
	return nil
}

// seenAgain: cur is last but for its last_seen, which is seenAt.
func seenAgain(last, cur, seenAt []byte) bool {
	cs, ce, ok := stringValue(cur, "last_seen")
	if !ok || !bytes.Equal(cur[cs:ce], seenAt) {
		return false
	}
	ls, le, ok := stringValue(last, "last_seen")
	return ok && bytes.Equal(cur[:cs], last[:ls]) && bytes.Equal(cur[ce:], last[le:])
}

// timeText is t as JSON encodes it, or nil when the text would not read
// back as the same text (then nothing is listed as seen at the line's time).
func timeText(t time.Time) []byte {
	b, err := jsonv1.Marshal(t)
	if err != nil {
		return nil
	}
	var back time.Time
	if jsonv1.Unmarshal(b, &back) != nil {
		return nil
	}
	if c, err := jsonv1.Marshal(back); err != nil || !bytes.Equal(b, c) {
		return nil
	}
	return b
}

// appendTimeText appends what timeText returns for a time it accepted
// (a year of four digits), without its checks: a reader needs the text
// only where the writer listed a finding as seen at the line's time.
func appendTimeText(b []byte, t time.Time) []byte {
	b = append(b, '"')
	return append(t.AppendFormat(b, time.RFC3339Nano), '"')
}

func appendElem(list, f []byte) []byte {
	if list == nil {
		list = append(list, '[')
	} else {
		list = append(list, ',')
	}
	return append(list, f...)
}

func sumLen(fs [][]byte) int {
	n := 0
	for _, f := range fs {
		n += len(f)
	}
	return n
}
