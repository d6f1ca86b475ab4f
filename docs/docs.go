// Package docs holds gpuscope's user documentation and the playbook: one
// Markdown page per diagnosis rule, embedded in the binary so that the UI and
// `gpuscope explain RULE` can show it on a node with no network.
package docs

import (
	"path"
	"slices"
	"strconv"
	"strings"
)

// The English pages are playbook/RULE.md; their Chinese versions, written in
// the terms of the two articles the diagnosis follows, are playbook/zh/RULE.md.
// The binary carries them compressed (archive.go).

// Playbook returns the Markdown page for a rule id, with the {gpu} and {pid}
// placeholders left in (see Render). ok is false for an unknown id.
func Playbook(rule string) (string, bool) {
	if rule == "" || strings.ContainsAny(rule, "/\\.") {
		return "", false // a rule id is a plain word; never a path
	}
	b, ok := readPage(path.Join("playbook", rule+".md"))
	if !ok {
		return "", false
	}
	return string(b), true
}

// PlaybookLang returns the page for a rule id in a language: the Chinese page
// for "zh" (or a tag such as "zh-CN" / "zh_CN.UTF-8"), the English page for any
// other language. A rule with no page in the chosen language falls back to
// English, so a new rule is never without a page. ok is false for an unknown id.
func PlaybookLang(rule, lang string) (string, bool) {
	if isChinese(lang) && rule != "" && !strings.ContainsAny(rule, "/\\.") {
		if b, ok := readPage(path.Join("playbook", "zh", rule+".md")); ok {
			return string(b), true
		}
	}
	return Playbook(rule)
}

// isChinese reports whether a language tag or locale names Chinese: "zh",
// "zh-CN", "zh_TW.UTF-8", "ZH".
func isChinese(lang string) bool { return IsChinese(lang) }

// IsChinese is isChinese for callers outside the package (language choice
// from a flag or the locale environment).
func IsChinese(lang string) bool {
	base, _, _ := strings.Cut(strings.ToLower(lang), "-")
	base, _, _ = strings.Cut(base, "_")
	base, _, _ = strings.Cut(base, ".")
	return base == "zh"
}

// Rules lists the rule ids that have a page, alphabetically; callers that
// show them order them by diagnose.Rules, the one rule order.
func Rules() []string {
	var out []string
	for _, p := range playbook().Paths() {
		if name, ok := strings.CutPrefix(p, "playbook/"); ok && !strings.Contains(name, "/") {
			out = append(out, strings.TrimSuffix(name, ".md"))
		}
	}
	slices.Sort(out)
	return out
}

// Summary returns the one-line summary under a page's title, or "" when the
// rule has no page.
func Summary(rule string) string { return SummaryLang(rule, "en") }

// SummaryLang is Summary from the page PlaybookLang chooses for lang.
func SummaryLang(rule, lang string) string {
	page, ok := PlaybookLang(rule, lang)
	if !ok {
		return ""
	}
	seenTitle := false
	for line := range strings.Lines(page) {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case !seenTitle && strings.HasPrefix(line, "# "):
			seenTitle = true
		case seenTitle && !strings.HasPrefix(line, "#"):
			return line
		default:
			return "" // a heading came before any summary line
		}
	}
	return ""
}

// Render fills the {gpu} and {pid} placeholders of a page with the GPU index
// and process id the UI is looking at. A placeholder stays as written when
// its value is unknown (gpu < 0: the whole node; pid <= 0: no single process),
// so the reader can still see what to substitute.
func Render(page string, gpu int, pid int) string {
	var pairs []string
	if gpu >= 0 {
		pairs = append(pairs, "{gpu}", strconv.Itoa(gpu))
	}
	if pid > 0 {
		pairs = append(pairs, "{pid}", strconv.Itoa(pid))
	}
	if len(pairs) == 0 {
		return page
	}
	return strings.NewReplacer(pairs...).Replace(page)
}
