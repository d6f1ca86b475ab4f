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
// every second) changes each time and was marshalled through jsonv1's
// reflection, ~6 % of recording a day (docs/benchmarks.md, "Recording a
// day: the statics skipped"). False where it leaves f to jsonv1: a time
// jsonv1 may refuse or write otherwise, a message with words of its own
// (rare), a map key outside ASCII (whose order it may sort otherwise).
// TestFindingJSONAsJsonv1 holds the two equal on random findings.
func appendFinding(b []byte, f *diagnose.Finding) ([]byte, bool) {
	if !plainTime(f.Since) || !plainTime(f.LastSeen) {
		return b, false
	}
	w := fjson{b: b, ok: true}
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
	return w.b, w.ok
}

// plainTime: a time jsonv1 writes as AppendFormat's RFC 3339 does.
func plainTime(t time.Time) bool {
	_, off := t.Zone()
	return t.Year() >= 0 && t.Year() <= 9999 && off%60 == 0
}

// fjson is appendFinding's text; ok false once a part is left to jsonv1.
// Its methods are out of line: an append inlined per field was ~80 bytes
// of binary each.
type fjson struct {
	b  []byte
	ok bool
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

func (w *fjson) msg(m *diagnose.Msg) {
	w.str(`{"id":`, m.ID)
	keys := make([]string, 0, len(m.Args))
	for k := range m.Args {
		keys = append(keys, k)
		w.ok = w.ok && asciiKey(k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		w.raw([2]string{`,"args":{`, `,`}[min(i, 1)])
		w.str("", k)
		w.str(":", m.Args[k])
	}
	if len(keys) > 0 {
		w.raw(`}`)
	}
	w.ok = w.ok && len(m.Words) == 0
	if m.Join != 0 {
		w.int(`,"join":`, int(m.Join))
	}
	w.raw(`}`)
}

func asciiKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if k[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
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
