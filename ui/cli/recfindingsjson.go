package cli

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/diagnose"
)

// appendFinding appends f as jsonv1.Marshal writes it, field by field: a
// finding whose words count something (the mixed demo's throttled GPU,
// every second) changes each time, and jsonv1's reflection over it was
// ~3 % of recording a day (docs/benchmarks.md, "Recording a day: the
// findings' JSON"). False where it leaves f to jsonv1: a time jsonv1 may
// refuse or write otherwise. TestFindingJSONAsJsonv1, TestDemoFindingsJSONAsJsonv1
// and FuzzFindingJSON hold the two equal.
func appendFinding(w *fjson, f *diagnose.Finding) ([]byte, bool) {
	if !plainTime(f.Since) || !plainTime(f.LastSeen) {
		return w.b, false
	}
	w.str(`{"rule":`, f.Rule)
	w.str(`,"severity":`, f.Severity.String())
	w.int(`,"gpu":`, f.GPU)
	w.int(`,"pid":`, f.PID)
	for i, v := range [...]string{f.Title, f.Evidence, f.Hint, f.FixID, f.Estimated} {
		if v != "" || i < 3 { // fix_id and estimated: omitempty
			w.str([...]string{`,"title":`, `,"evidence":`, `,"hint":`, `,"fix_id":`, `,"estimated":`}[i], v)
		}
	}
	w.time(`,"since":"`, f.Since)
	w.time(`","last_seen":"`, f.LastSeen)
	w.raw(`"`)
	if t := f.I18n; t != nil {
		w.raw(`,"i18n":{"title":`)
		w.msg(&t.Title)
		w.text(`,"evidence":[`, t.Evidence)
		w.text(`,"estimated":[`, t.Estimated)
		w.raw(`}`)
	}
	for i, u := range f.Uses {
		w.raw([2]string{`,"uses":[`, `,`}[min(i, 1)])
		w.int(`{"gpu":`, u.GPU)
		w.str(`,"field":`, u.Field)
		w.raw(`}`)
		if i == len(f.Uses)-1 {
			w.raw(`]`)
		}
	}
	w.raw(`}`)
	return w.b, true
}

// plainTime: a time jsonv1 writes as AppendFormat's RFC 3339 does.
func plainTime(t time.Time) bool {
	_, off := t.Zone()
	return t.Year() >= 0 && t.Year() <= 9999 && off%60 == 0
}

// fjson is appendFinding's text; keys holds the maps' keys as they are
// sorted, reused. Its methods are out of line: an append inlined per
// field was ~80 bytes of binary each.
type fjson struct {
	b    []byte
	keys []string
}

//go:noinline
func (w *fjson) raw(s string) { w.b = append(w.b, s...) }

//go:noinline
func (w *fjson) str(key, s string) { w.b = jsonStr(append(w.b, key...), s) }

//go:noinline
func (w *fjson) int(key string, n int) { w.b = strconv.AppendInt(append(w.b, key...), int64(n), 10) }

//go:noinline
func (w *fjson) time(key string, t time.Time) {
	w.b = t.AppendFormat(append(w.b, key...), time.RFC3339Nano)
}

// text: the list after key, omitempty.
func (w *fjson) text(key string, x diagnose.Text) {
	for i := range x {
		w.raw([2]string{key, `,`}[min(i, 1)])
		w.msg(&x[i])
	}
	if len(x) > 0 {
		w.raw(`]`)
	}
}

// msg writes m; its maps' keys sorted as jsonv1 sorts them, in byte
// order (UTF-8, not UTF-16: the test's keys beyond U+FFFF hold it).
func (w *fjson) msg(m *diagnose.Msg) {
	w.str(`{"id":`, m.ID)
	n := len(w.keys)
	for k := range m.Args {
		w.keys = append(w.keys, k)
	}
	w.args(w.keys[n:], m.Args)
	w.keys = w.keys[:n]
	for k := range m.Words {
		w.keys = append(w.keys, k)
	}
	keys := w.keys[n:]
	slices.Sort(keys)
	for i, k := range keys {
		w.raw([2]string{`,"words":{`, `,`}[min(i, 1)])
		w.str("", k)
		v := m.Words[k]
		w.raw(":")
		w.msg(&v) // appends its keys after these
	}
	if len(keys) > 0 {
		w.raw(`}`)
	}
	w.keys = w.keys[:n]
	if m.Join != 0 {
		w.int(`,"join":`, int(m.Join))
	}
	w.raw(`}`)
}

func (w *fjson) args(keys []string, args map[string]string) {
	slices.Sort(keys)
	for i, k := range keys {
		w.raw([2]string{`,"args":{`, `,`}[min(i, 1)])
		w.str("", k)
		w.str(":", args[k])
	}
	if len(keys) > 0 {
		w.raw(`}`)
	}
}

// jsonStr appends s quoted as jsonv1.Marshal writes it: as it is where
// nothing in it is escaped (HTML's <, > and & are), else by jsonv1.
func jsonStr(b []byte, s string) []byte {
	wide := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c == 0x7f:
			q, _ := jsonv1.Marshal(s) // a string always marshals
			return append(b, q...)
		case c >= utf8.RuneSelf:
			wide = true
		}
	}
	if wide && (!utf8.ValidString(s) || strings.ContainsRune(s, '\u2028') || strings.ContainsRune(s, '\u2029')) {
		q, _ := jsonv1.Marshal(s)
		return append(b, q...)
	}
	return append(append(append(b, '"'), s...), '"')
}
