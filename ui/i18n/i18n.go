// Package i18n holds the dashboard's words in English and Chinese, in
// go-i18n's message files (messages by id, CLDR plural forms), with
// golang.org/x/text's language matching. The Chinese follows the
// vocabulary of the two articles the diagnosis comes from
// ([gpu-idle-pipeline], [gpu-idle-handbook] in docs/references.md): GPU
// 利用率, SM 占用, 显存, 数据加载 …
package i18n

import (
	_ "embed" // words.z
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/docs"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// The message files ship compressed as words.z, one DEFLATE stream each
// (docs.Archive, as the playbook): as plain files they cost the release
// binary 131 KB. `go test ./ui/i18n -run TestWordsArchive -args
// -update-words` writes it from the *.toml beside it, and the test holds
// the two equal.
//
//go:embed words.z
var wordsZ string

// files are the embedded message files.
var files = catalogue{docs.OpenArchive(wordsZ)}

// catalogue is the message files by name.
type catalogue struct{ a docs.Archive }

// ReadFile is the file name's bytes.
func (c catalogue) ReadFile(name string) ([]byte, error) {
	if b, ok := c.a.Read(name); ok {
		return b, nil
	}
	return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
}

// Glob names the files matching pattern (path.Match's), in order.
func (c catalogue) Glob(pattern string) ([]string, error) {
	var out []string
	for _, n := range c.a.Paths() {
		ok, err := path.Match(pattern, n)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, n)
		}
	}
	return out, nil
}

// Langs are the languages the interface speaks.
var Langs = []string{"en", "zh"}

// Tr renders messages in one language. ui/cli builds one per run and hands
// it to every face (no package state). A nil *Tr shows ids as they are.
//
// go-i18n parses the message files (ParseMessageFileBytes); Tr looks the
// messages up, picks the plural form and fills the {{.Field}}s itself
// (template.go). go-i18n's Localizer executes its templates with
// text/template, whose reflective method calls kept every exported method
// of every type in the binary: 2.6 MB of the release binary
// (docs/benchmarks.md, "The binary's size: text/template's methods").
type Tr struct {
	lang string
	// mu guards msgs and pending: the files are parsed as their words are
	// first asked for (lookup), from whichever goroutine asks.
	mu      sync.Mutex
	msgs    map[string]*goi18n.Message // the language's messages by id
	pending []string                   // the language's files not parsed yet
	// words caches T of a message without fields (a pane's title, a
	// label): the dashboard asks for them on every frame (7 % of the CPU
	// at --interval 100ms when each was looked up afresh,
	// docs/benchmarks.md, "The dashboard's cost while it watches,
	// 2026-12-07"). id → string; safe for concurrent use.
	words sync.Map
}

// For returns the messages of lang ("en", "zh", or a locale such as
// "zh_CN.UTF-8", matched by x/text); anything else is English. The
// catalogue is embedded and TestCatalogues reads it, so it cannot fail
// but in a broken build, where it panics as regexp.MustCompile does.
func For(lang string) *Tr {
	tr, err := build(lang)
	if err != nil {
		panic(err)
	}
	return tr
}

// OrEnglish is t, or English where t is nil: a face's zero options speak
// English.
func OrEnglish(t *Tr) *Tr {
	if t == nil {
		return For("en")
	}
	return t
}

func build(lang string) (*Tr, error) {
	tag := Match(lang)
	// Only the language's own files: a message missing in Chinese shows
	// its id, never the English (TestCatalogues keeps that from
	// shipping). A part's file is parsed when a word of it is first asked
	// for, the panes' (active) at once: the dashboard needs no other
	// part's words but the finding page's (report), and the others held
	// 0.3 MB of its heap for the run (docs/benchmarks.md, "The
	// dashboard's memory: the peak").
	names, err := files.Glob("*." + tag + ".toml")
	if err != nil {
		return nil, fmt.Errorf("i18n: %w", err)
	}
	for i, first := range []string{"active", "report"} { // the panes', the finding page's
		if j := slices.Index(names, first+"."+tag+".toml"); j > i {
			names[i], names[j] = names[j], names[i]
		}
	}
	t := &Tr{lang: tag, msgs: map[string]*goi18n.Message{}, pending: names}
	if err := t.parseNext(); err != nil {
		return nil, err
	}
	return t, nil
}

// unmarshal reads the message files' format.
var unmarshal = map[string]goi18n.UnmarshalFunc{"toml": toml.Unmarshal}

// parseNext parses the next pending file; t.mu held, or t not yet shared.
func (t *Tr) parseNext() error {
	f := t.pending[0]
	t.pending = t.pending[1:]
	buf, err := files.ReadFile(f)
	if err != nil {
		return fmt.Errorf("i18n: %w", err)
	}
	mf, err := goi18n.ParseMessageFileBytes(buf, f, unmarshal)
	if err != nil {
		return fmt.Errorf("i18n: %s: %w", f, err)
	}
	for _, m := range mf.Messages {
		if m.LeftDelim != "" || m.RightDelim != "" {
			return fmt.Errorf("i18n: %s: %s: other template delimiters than {{ }}", f, m.ID)
		}
		if m.Zero+m.One+m.Two+m.Few+m.Many+m.Other != "" { // go-i18n holds an empty message as none
			t.msgs[m.ID] = m
		}
	}
	return nil
}

// lookup is message id in t's language, its plural form chosen by count
// where counted and its fields filled from data; the pending files are
// parsed one by one while the id is not found. An error where the id is in
// none, has not the form or its template is not one template.go fills.
func (t *Tr) lookup(id string, counted bool, count int64, data map[string]any) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := t.msgs[id]
	for m == nil && len(t.pending) > 0 {
		if err := t.parseNext(); err != nil {
			return "", err // TestCatalogues parses every file: a broken build
		}
		m = t.msgs[id]
	}
	if m == nil {
		return "", errNotFound
	}
	src := m.Other
	if counted && t.lang == "en" && (count == 1 || count == -1) {
		// CLDR's English "one" (i = 1 and v = 0: an integer count);
		// Chinese has "other" only. A language added to Langs adds its
		// rule here (TestLookupAsGoI18n holds these to go-i18n's).
		src = m.One
	}
	if src == "" {
		return "", errNoForm
	}
	return fill(src, data)
}

var (
	errNotFound = errors.New("i18n: no such message")
	errNoForm   = errors.New("i18n: the message has no such plural form")
)

// Match names the supported language closest to lang: "zh" for any
// Chinese tag or locale (zh, zh_CN.UTF-8, zh-TW), else "en".
func Match(lang string) string {
	lang = strings.ReplaceAll(strings.SplitN(lang, ".", 2)[0], "_", "-")
	t, err := language.Parse(lang)
	if err != nil {
		return "en"
	}
	_, i, conf := language.NewMatcher([]language.Tag{language.English, language.Chinese}).Match(t)
	if conf == language.No || i != 1 {
		return "en"
	}
	return "zh"
}

// Lang is "en" or "zh".
func (t *Tr) Lang() string {
	if t == nil {
		return "en"
	}
	return t.lang
}

// T is message id; with data, its {{.Field}} templates filled. A missing
// id shows as itself (TestCatalogues keeps that from shipping). An integer
// field named Count chooses the message's plural form where it has them
// ([id] one = … other = …), so "1 snapshot" needs no other call.
func (t *Tr) T(id string, data ...map[string]any) string {
	if t == nil {
		return id
	}
	if len(data) == 0 {
		if w, ok := t.words.Load(id); ok {
			return w.(string)
		}
		w := t.localize(id, nil)
		t.words.Store(id, w)
		return w
	}
	return t.localize(id, data[0])
}

// localize is T without the cache.
func (t *Tr) localize(id string, data map[string]any) string {
	var count int64
	counted := false
	if data != nil {
		switch n := data["Count"].(type) {
		case int:
			count, counted = int64(n), true
		case int64:
			count, counted = n, true
		case uint64: // error counters
			count, counted = int64(min(n, 1<<62)), true
		}
	}
	s, err := t.lookup(id, counted, count, data)
	if err != nil && counted {
		// A message without plural forms has no "one" for a Count of 1.
		s, err = t.lookup(id, false, 0, data)
	}
	if err != nil {
		return id
	}
	return s
}

// Say is T with its fields given as name, value pairs: Say("x", "GPU", 3).
func (t *Tr) Say(id string, kv ...any) string {
	if t == nil {
		return id
	}
	if len(kv) < 2 {
		return t.T(id)
	}
	data := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		data[kv[i].(string)] = kv[i+1]
	}
	return t.T(id, data)
}

// N is plural message id for n (its {{.Count}}), in the language's CLDR
// plural forms: English one/other, Chinese other only.
func (t *Tr) N(id string, n int, data ...map[string]any) string {
	if t == nil {
		return id
	}
	fields := map[string]any{"Count": n}
	for _, d := range data {
		maps.Copy(fields, d)
	}
	s, err := t.lookup(id, true, int64(n), fields)
	if err != nil {
		return id
	}
	return s
}

// Pad is s followed by spaces to w terminal cells: a Chinese character
// takes two, so a label column cannot be padded by bytes or runes.
func Pad(s string, w int) string {
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}
