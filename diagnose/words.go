package diagnose

import (
	"maps"
	"slices"
)

// words keeps each finding's English from one evaluation to the next: the
// Engine judges every second and a finding's messages (their ids and the
// values they print, already formatted) are mostly the same as the
// second before, so their templates are filled and joined once, not every
// second (docs/benchmarks.md, "Recording a day: the findings' words").
type words struct {
	last map[Key]*worded
	gen  uint64 // the evaluation; an entry not used in it is dropped by prune
}

// worded is one finding's messages as say made them (their templates not
// filled) and the English made of them.
type worded struct {
	title           Msg
	ev, est         Text
	text            *FindingText
	titleS, evS, es string
	gen             uint64
}

// word is the finding k's English and messages: the previous evaluation's
// when its messages are the same, else filled now. w nil: filled now.
func (w *words) word(k Key, title Msg, ev, est Text) (string, string, string, *FindingText) {
	if w != nil {
		if e := w.last[k]; e != nil && sameMsg(e.title, title) && sameText(e.ev, ev) && sameText(e.est, est) {
			e.gen = w.gen
			return e.titleS, e.evS, e.es, e.text
		}
	}
	e := &worded{title: title}
	if w != nil {
		e.ev, e.est = slices.Clone(ev), slices.Clone(est)
	}
	title.en, title.raw = title.english(), false
	ev.fill()
	est.fill()
	e.text = &FindingText{Title: title, Evidence: ev, Estimated: est}
	e.titleS, e.evS, e.es = title.en, ev.String(), est.String()
	if w != nil {
		if w.last == nil {
			w.last = map[Key]*worded{}
		}
		e.gen = w.gen
		w.last[k] = e
	}
	return e.titleS, e.evS, e.es, e.text
}

// prune ends an evaluation: the findings it did not word are forgotten.
func (w *words) prune() {
	maps.DeleteFunc(w.last, func(_ Key, e *worded) bool { return e.gen != w.gen })
	w.gen++
}

func sameText(a, b Text) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameMsg(a[i], b[i]) {
			return false
		}
	}
	return true
}

// sameMsg: a and b print the same English and carry the same messages.
func sameMsg(a, b Msg) bool {
	if a.ID != b.ID || a.Join != b.Join || a.raw != b.raw || a.en != b.en ||
		!maps.Equal(a.Args, b.Args) || len(a.Words) != len(b.Words) {
		return false
	}
	for k, v := range a.Words {
		if u, ok := b.Words[k]; !ok || !sameMsg(v, u) {
			return false
		}
	}
	return true
}
