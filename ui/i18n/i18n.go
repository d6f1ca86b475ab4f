// Package i18n holds the dashboard's words in English and Chinese, with
// go-i18n (messages by id, CLDR plural rules) and golang.org/x/text's
// language matching. The Chinese follows the vocabulary of the two
// articles the diagnosis comes from ([gpu-idle-pipeline], [gpu-idle-handbook]
// in docs/references.md): GPU 利用率, SM 占用, 显存, 数据加载 …
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
type Tr struct {
	lang string
	// mu guards b and pending: the files are parsed as their words are
	// first asked for (lookup), from whichever goroutine asks.
	mu      sync.Mutex
	b       *goi18n.Bundle
	loc     *goi18n.Localizer
	pending [][]string // message files not parsed yet, a part's languages together
	// words caches T of a message without fields (a pane's title, a
	// label): the dashboard asks for them on every frame, and go-i18n
	// looks each up afresh (7 % of the CPU at --interval 100ms,
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
	b := goi18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	tag := Match(lang)
	// English always (the fallback), the chosen language's files besides:
	// parsing the Chinese too would double what this costs in English. A
	// part's files are parsed when a word of theirs is first asked for,
	// the panes' (active) at once: the dashboard needs no other part's
	// words but the finding page's (report), and the others held 0.3 MB of
	// its heap for the run (docs/benchmarks.md, "The dashboard's memory:
	// the peak").
	names, err := files.Glob("*.en.toml")
	if err != nil {
		return nil, fmt.Errorf("i18n: %w", err)
	}
	for i, first := range []string{"active.en.toml", "report.en.toml"} { // the panes', the finding page's
		if j := slices.Index(names, first); j > i {
			names[i], names[j] = names[j], names[i]
		}
	}
	all, _ := files.Glob("*.toml")
	exists := func(name string) bool { return slices.Contains(all, name) }
	t := &Tr{lang: tag, b: b, loc: goi18n.NewLocalizer(b, tag)}
	for _, n := range names {
		part := []string{n}
		if tag != "en" {
			if other := strings.TrimSuffix(n, "en.toml") + tag + ".toml"; exists(other) {
				part = append(part, other)
			}
		}
		t.pending = append(t.pending, part)
	}
	if tag != "en" { // the language's own files: findings, causes
		more, _ := files.Glob("*." + tag + ".toml")
		for _, n := range more {
			if !exists(strings.TrimSuffix(n, tag+".toml") + "en.toml") {
				t.pending = append(t.pending, []string{n})
			}
		}
	}
	if err := t.parseNext(); err != nil {
		return nil, err
	}
	return t, nil
}

// parseNext parses the next pending part; t.mu held, or t not yet shared.
func (t *Tr) parseNext() error {
	part := t.pending[0]
	t.pending = t.pending[1:]
	for _, f := range part {
		buf, err := files.ReadFile(f)
		if err != nil {
			return fmt.Errorf("i18n: %w", err)
		}
		if _, err := t.b.ParseMessageFileBytes(buf, f); err != nil {
			return fmt.Errorf("i18n: %s: %w", f, err)
		}
	}
	return nil
}

// lookup is go-i18n's Localize, the pending parts parsed one by one while
// the message is not found; with every part parsed, what Localize gives
// over the whole catalogue.
func (t *Tr) lookup(cfg *goi18n.LocalizeConfig) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for {
		s, err := t.loc.Localize(cfg)
		var missing *goi18n.MessageNotFoundErr
		if !errors.As(err, &missing) || len(t.pending) == 0 {
			return s, err
		}
		if perr := t.parseNext(); perr != nil {
			return s, err // TestCatalogues parses every file: a broken build
		}
	}
}

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
	cfg := &goi18n.LocalizeConfig{MessageID: id}
	if data != nil {
		cfg.TemplateData = data
		switch n := data["Count"].(type) {
		case int, int64:
			cfg.PluralCount = n
		case uint64: // error counters; go-i18n reads signed numbers only
			cfg.PluralCount = int64(min(n, 1<<62))
		}
	}
	s, err := t.lookup(cfg)
	if err != nil && cfg.PluralCount != nil {
		// A message without plural forms has no "one" for a Count of 1.
		cfg.PluralCount = nil
		s, err = t.lookup(cfg)
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
	s, err := t.lookup(&goi18n.LocalizeConfig{MessageID: id, PluralCount: n, TemplateData: fields})
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
