package i18n

import (
	"regexp"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// The findings' words: their English is built by the rules (diagnose's
// say calls) and carried on each finding; findings.zh.toml holds the
// Chinese under "finding.<id>".

// Finding is f's title, evidence and estimate in t's language. English,
// and a finding without messages (one from a log or an older recording),
// keep the finding's own text.
func (t *Tr) Finding(f diagnose.Finding) (title, evidence, estimated string) {
	title, evidence, estimated = f.Title, f.Evidence, f.Estimated
	if t == nil || t.lang == "en" || f.I18n == nil {
		return
	}
	if s, ok := t.msg(f.I18n.Title); ok {
		title = s
	}
	if s, ok := t.text(f.I18n.Evidence); ok {
		evidence = s
	}
	if s, ok := t.text(f.I18n.Estimated); ok {
		estimated = s
	}
	return
}

// msg is one piece in t's language; false when the catalogue lacks it
// (a recording from a newer gpuscope), so the English stands.
func (t *Tr) msg(m diagnose.Msg) (string, bool) {
	data := make(map[string]any, len(m.Args))
	for k, v := range m.Args {
		data[k] = v
	}
	for name, w := range m.Words {
		s, ok := t.msg(w)
		if !ok {
			return "", false
		}
		data[name] = s
	}
	id := "finding." + m.ID
	s := t.T(id, data)
	// A template field the message does not carry (a recording from
	// another version) renders as "<no value>": keep the English then.
	return s, s != id && !strings.Contains(s, "<no value>")
}

// text joins pieces with the language's separators; false when any piece
// is missing, so a sentence is never half translated.
func (t *Tr) text(pieces diagnose.Text) (string, bool) {
	if len(pieces) == 0 {
		return "", false
	}
	var b strings.Builder
	for i, m := range pieces {
		s, ok := t.msg(m)
		if !ok {
			return "", false
		}
		if i > 0 {
			b.WriteString(t.sep(m.Join))
		}
		b.WriteString(s)
	}
	return b.String(), true
}

// sep is the separator before a piece joined by j: Chinese uses its own
// full-width semicolon and enumeration comma.
func (t *Tr) sep(j diagnose.Join) string {
	if t.lang != "zh" {
		return j.Sep()
	}
	switch j {
	case diagnose.Continue:
		return ""
	case diagnose.Item:
		return "、"
	}
	return "；"
}

// Text is pieces in t's language, or fallback (their English) where t is
// English, there are no pieces, or one is missing from the catalogue.
func (t *Tr) Text(pieces diagnose.Text, fallback string) string {
	if t == nil || t.lang == "en" {
		return fallback
	}
	if s, ok := t.text(pieces); ok {
		return s
	}
	return fallback
}

// Fix is a finding's first fix in t's language, by the id the finding
// carries (Finding.FixID, "fix.<id>"); hint, its English, where t is
// English or there is no id (advice from the Xid catalogue or a log).
func (t *Tr) Fix(id, hint string) string {
	if t == nil || t.lang == "en" || id == "" {
		return withoutCitations(hint)
	}
	if s := t.T("fix." + id); s != "fix."+id {
		return withoutCitations(s)
	}
	return withoutCitations(hint)
}

// citation is a hint's "([gpu-idle-handbook] §3.1, [gpu-idle-pipeline]
// §4.1)": the rules' sources, kept in the hint tables for whoever maintains
// them (docs/references.md). A reader cannot open "[gpu-idle-handbook]
// §3.1", so every face shows the fix without it and points to what opens:
// the playbook page (enter, `gpuscope explain RULE`), which cites them.
var citation = regexp.MustCompile(`\s*[(（]\s*\[[a-z0-9-]+\][^()（）]*[)）]`)

func withoutCitations(s string) string { return citation.ReplaceAllString(s, "") }

// Cause is the i-th likely cause of a GPU source's failure in t's
// language: its Chinese by key ("cause.<key>") followed by what the
// filesystem showed (paths, as they are); the English as it came where
// t is English or the cause has no key.
func (t *Tr) Cause(e *sampler.SourceError, i int) string {
	if t == nil || t.lang == "en" || i >= len(e.CauseKeys) || i >= len(e.CauseSeen) {
		return e.Causes[i]
	}
	id := "cause." + e.CauseKeys[i]
	s := t.T(id)
	if s == id {
		return e.Causes[i]
	}
	return s + e.CauseSeen[i]
}
