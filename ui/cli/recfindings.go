package cli

import (
	"bytes"
	"slices"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/diagnose"
)

// findingsText writes a recording's findings as jsonv1.Marshal writes the
// list, keeping each finding's text while the finding at its position is
// the same but for its last_seen: a diagnosis holds for many seconds, and
// marshalling every finding every second was ~10 % of recording a day
// (docs/benchmarks.md, "Recording a day: the encoder and the findings").
// One writer uses it at a time (record.Toggle asks under its lock).
type findingsText struct {
	prev []diagnose.Finding
	text []seenText
	next []seenText
	out  []byte
	// The list in pieces (record.FindingsItems): each finding's text, and
	// its last_seen's span where only that changed since the call before.
	items [][]byte
	seen  [][2]int
	w     fjson // a finding that changed, written (appendFinding)
}

// seenText is one finding's JSON and where its last_seen's value (quotes
// included) sits in it; s < 0 where it was not found.
type seenText struct {
	b     []byte
	s, e  int
	again bool // the text before with last_seen set anew (reseen)
}

// recordFindings is one frame's findings for record.Toggle, encoded only
// when it writes them (record.FindingsJSON).
type recordFindings struct {
	c  *findingsText
	fs []diagnose.Finding
}

func (r recordFindings) FindingsJSON() ([]byte, error) { return r.c.encode(r.fs) }

func (r recordFindings) FindingsItems() ([][]byte, [][2]int, bool) {
	items, seen := r.c.pieces()
	return items, seen, r.fs != nil
}

// pieces is the last list encoded, finding by finding. Not inlined: it
// would be twice, in FindingsItems and its pointer wrapper.
//
//go:noinline
func (c *findingsText) pieces() ([][]byte, [][2]int) {
	c.items, c.seen = c.items[:0], c.seen[:0]
	for _, t := range c.text {
		span := [2]int{-1, -1}
		if t.again {
			span = [2]int{t.s, t.e}
		}
		c.items, c.seen = append(c.items, t.b), append(c.seen, span)
	}
	return c.items, c.seen
}

// encode returns the list's JSON; it is valid until the next call.
func (c *findingsText) encode(fs []diagnose.Finding) ([]byte, error) {
	if fs == nil {
		c.prev, c.text = nil, c.text[:0]
		return []byte("null"), nil
	}
	next := c.next[:0]
	for i := range fs {
		f := &fs[i]
		if i < len(c.prev) && sameButSeen(&c.prev[i], f) {
			if t, ok := reseen(c.text[i], f.LastSeen); ok {
				next = append(next, t)
				continue
			}
		}
		c.w.b = make([]byte, 0, 1024) // a finding is ~1 KB: one allocation
		b, ok := appendFinding(&c.w, f)
		if !ok {
			var err error
			if b, err = jsonv1.Marshal(f); err != nil {
				return nil, err
			}
		}
		t := seenText{b: b, s: -1}
		if k := bytes.Index(b, []byte(`,"last_seen":"`)); k >= 0 {
			if n := bytes.IndexByte(b[k+14:], '"'); n >= 0 {
				t.s, t.e = k+13, k+14+n+1
			}
		}
		next = append(next, t)
	}
	c.prev, c.text, c.next = fs, next, c.text
	out := append(c.out[:0], '[')
	for i, t := range next {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, t.b...)
	}
	c.out = append(out, ']')
	return c.out, nil
}

// reseen is t with its last_seen set to at, as jsonv1 writes a time (years
// 0–9999, offsets in whole minutes; false otherwise).
func reseen(t seenText, at time.Time) (seenText, bool) {
	if _, off := at.Zone(); t.s < 0 || at.Year() < 0 || at.Year() > 9999 || off%60 != 0 {
		return t, false
	}
	b := make([]byte, 0, len(t.b)+8)
	b = at.AppendFormat(append(append(b, t.b[:t.s]...), '"'), time.RFC3339Nano)
	e := len(b) + 1
	b = append(append(b, '"'), t.b[t.e:]...)
	return seenText{b: b, s: t.s, e: e, again: true}, true
}

// sameButSeen: a and b are the same but for LastSeen, in every field
// their JSON shows. Field by field: reflect.DeepEqual was ~6 % of
// recording a day, on the writer's goroutine (docs/benchmarks.md,
// "Recording a day: the writer's text"). Times compare as ==, so an
// equal instant in another location only has the finding marshalled
// again; a nil and an empty list or map write the same JSON (omitempty)
// and compare equal. TestFindingsTextAgrees changes each field.
func sameButSeen(a, b *diagnose.Finding) bool {
	return a.Rule == b.Rule && a.Severity == b.Severity && a.GPU == b.GPU && a.PID == b.PID &&
		a.Title == b.Title && a.Evidence == b.Evidence && a.Hint == b.Hint && a.FixID == b.FixID &&
		a.Estimated == b.Estimated && a.Since == b.Since && slices.Equal(a.Uses, b.Uses) &&
		sameI18n(a.I18n, b.I18n)
}

// sameI18n: the same pointer is the same words, as the Engine hands an
// unchanged finding the FindingText it made before (diagnose/words.go)
// and nothing changes one once made.
func sameI18n(a, b *diagnose.FindingText) bool {
	if a == b || a == nil || b == nil {
		return a == b
	}
	return sameMsg(&a.Title, &b.Title) && sameMsgs(a.Evidence, b.Evidence) && sameMsgs(a.Estimated, b.Estimated)
}

func sameMsgs(a, b diagnose.Text) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameMsg(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// sameMsg: loops, not maps.EqualFunc's closures (smaller in the binary).
func sameMsg(a, b *diagnose.Msg) bool {
	if a.ID != b.ID || a.Join != b.Join || len(a.Args) != len(b.Args) || len(a.Words) != len(b.Words) {
		return false
	}
	for k, v := range a.Args {
		if w, ok := b.Args[k]; !ok || w != v {
			return false
		}
	}
	for k, v := range a.Words {
		if w, ok := b.Words[k]; !ok || !sameMsg(&v, &w) {
			return false
		}
	}
	return true
}
