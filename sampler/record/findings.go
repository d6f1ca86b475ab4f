package record

import (
	"bytes"
	"encoding/json"
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
	last [][]byte // the writer's: the findings of the line before, one JSON object each
	// The reader's: the findings of the line before, the value handed
	// out with them and its kept list, and a buffer reused by restore.
	items []findingItem
	list  *Findings
	kept  []bool
	kind  []byte
}

// Findings is one line's findings list as a Reader holds it: each
// finding's text where a line wrote it, with the last_seen lines since
// put in. Building the list as one text on every line was a day's report's
// largest allocation (565 MB, docs/benchmarks.md, "Recordings: the findings
// handed on"); a report needs the text of a few lines only.
type Findings struct {
	items []findingItem
	text  []byte // Text's, once built
}

// findingItem is one finding: its text as written, and the last_seen to
// put in it (nil: none).
type findingItem struct{ text, seen []byte }

// Text is the list as the line's findings member, same_findings and
// seen_findings resolved: what Entry.Findings holds when the reader was not
// asked to leave it to this (Options.FindingsOnDemand). It is built once.
func (f *Findings) Text() json.RawMessage {
	if f.text == nil {
		f.text = appendItems(make([]byte, 0, 2+itemsLen(f.items)), f.items)
	}
	return f.text
}

// Len is the number of findings.
func (f *Findings) Len() int { return len(f.items) }

func appendItems(out []byte, items []findingItem) []byte {
	out = append(out, '[')
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		s, e, ok := 0, 0, false
		if it.seen != nil {
			s, e, ok = stringValue(it.text, "last_seen")
		}
		if ok {
			out = append(append(append(out, it.text[:s]...), it.seen...), it.text[e:]...)
		} else {
			out = append(out, it.text...)
		}
	}
	return append(out, ']')
}

func itemsLen(items []findingItem) int {
	n := 0
	for _, it := range items {
		n += len(it.text) + len(it.seen) + 1
	}
	return n
}

func allSame(kind []byte) bool {
	for _, k := range kind {
		if k != 1 {
			return false
		}
	}
	return true
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
	m.elideItems(l, cur, nil, at)
}

// FindingsItems is FindingsJSON whose list also comes in pieces, as its
// maker keeps them, valid until its next FindingsJSON: each finding's text
// (never changed once handed) and, for a finding the maker knows is the
// one at its position in its call before but for last_seen, where that
// value (quotes included) sits in it; {-1, -1} elsewhere. ok is false
// where the list is null. The writer then checks such a finding around
// that span, where splitting the list and scanning both texts for it was
// ~4 % of recording a day (docs/benchmarks.md, "Recording a day: the
// writer's text").
type FindingsItems interface {
	FindingsItems() (items [][]byte, seen [][2]int, ok bool)
}

// elideItems is elide for a list in pieces: split by elide (seen nil) or
// handed so (FindingsItems).
func (m *findingsMemo) elideItems(l *wireEntry, items [][]byte, seen [][2]int, at time.Time) {
	seenAt := timeText(at)
	var rest []byte
	for i, f := range items {
		switch {
		case i >= len(m.last):
		case bytes.Equal(f, m.last[i]):
			l.SameFindings = append(l.SameFindings, i)
			continue
		case seenAt != nil && seen == nil && seenAgain(m.last[i], f, seenAt),
			seenAt != nil && seen != nil && seenAround(m.last[i], f, seen[i], seenAt):
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
	m.last = append(m.last[:0:0], items...) // a maker reuses its list
}

// seenAround is seenAgain where cur's last_seen value is at span: the two
// the same but for that value, which is the line's time.
//
//go:noinline
func seenAround(last, cur []byte, span [2]int, seenAt []byte) bool {
	cs, ce := span[0], span[1]
	if cs < 0 || !bytes.Equal(cur[cs:ce], seenAt) {
		return false
	}
	le := len(last) - (len(cur) - ce)
	return le >= cs && bytes.Equal(cur[:cs], last[:cs]) && bytes.Equal(cur[ce:], last[le:])
}

// restore puts back the findings l lists, from the line before, and
// remembers this line's. A listed position the reader has no finding for
// (the line before was damaged and skipped) is left out. With onDemand the
// list is not built as text: l.FindingsList holds it (Findings).
func (m *findingsMemo) restore(l *wireEntry, onDemand bool) {
	same, seen := l.SameFindings, l.SeenFindings
	l.SameFindings, l.SeenFindings = nil, nil
	rest, ok := splitArray(l.Findings)
	if len(same)+len(seen) == 0 {
		m.items, m.list = nil, nil
		if ok {
			m.items = make([]findingItem, len(rest))
			for i, f := range rest {
				m.items[i].text = f
			}
		}
		return
	}
	// What each position takes: a listed one the finding before (kind 1,
	// or 2 seen again), the others the next written one. Positions past
	// what the lines hold are ignored, so a crafted list costs its length.
	n := min(len(rest)+len(same)+len(seen), len(rest)+len(m.items))
	kind := append(m.kind[:0], make([]byte, n)...)
	m.kind = kind
	for k, list := range [][]int{same, seen} {
		for _, i := range list {
			if i >= 0 && i < n {
				kind[i] = byte(k + 1)
			}
		}
	}
	if onDemand && m.list != nil && len(rest) == 0 && n == len(m.items) && allSame(kind) {
		// Nothing changed, last_seen included: the same value handed on.
		l.FindingsWritten, l.Findings, l.FindingsKept, l.FindingsList = l.Findings, nil, m.kept, m.list
		return
	}
	var seenAt []byte // the line's time, where a finding was seen again
	if len(seen) > 0 {
		seenAt = appendTimeText(nil, l.Time)
	}
	items := make([]findingItem, 0, n+len(rest))
	kept := make([]bool, 0, n+len(rest))
	for i := range n {
		var it findingItem
		switch {
		case kind[i] == 0 && len(rest) > 0:
			it.text, rest = rest[0], rest[1:]
		case kind[i] == 0 || i >= len(m.items):
			continue
		case kind[i] == 1:
			it = m.items[i]
		default:
			it = findingItem{m.items[i].text, seenAt}
		}
		items = append(items, it)
		kept = append(kept, kind[i] != 0)
	}
	for _, f := range rest { // positions the lists did not account for
		items = append(items, findingItem{text: f})
		kept = append(kept, false)
	}
	m.items, m.kept = items, kept
	m.list = &Findings{items: items}
	l.FindingsWritten, l.FindingsKept = l.Findings, kept
	if onDemand {
		l.Findings, l.FindingsList = nil, m.list
	} else {
		l.Findings = m.list.Text()
	}
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
	// The lines' own times: written as the encoder writes them (encodetext.go's
	// time), without the round trip below that was ~1 % of recording a day.
	if _, off := t.Zone(); t.Year() >= 0 && t.Year() <= 9999 && off%60 == 0 && off > -86400 && off < 86400 {
		return appendTimeText(nil, t)
	}
	return timeTextChecked(t)
}

// timeTextChecked is timeText by the JSON round trip: the text, or nil when
// it does not read back as the same text.
func timeTextChecked(t time.Time) []byte {
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
