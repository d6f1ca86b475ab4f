package docs

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// requiredHeadingsZh are the Chinese pages' sections, in the order and with the
// meaning of requiredHeadings.
var requiredHeadingsZh = []string{
	"## 什么意思",
	"## gpuscope 如何判断",
	"## 如何确认",
	"## 修复（按优先级）",
	"## 注意",
	"## 来源",
}

// pageIDs lists the rule ids that have a page directly under dir.
func pageIDs(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := fs.ReadDir(pagesFS, dir)
	if err != nil {
		t.Fatalf("reading %s: %v", dir, err)
	}
	var ids []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".md"); ok && !e.IsDir() {
			ids = append(ids, name)
		}
	}
	slices.Sort(ids)
	return ids
}

func TestEveryPageHasAChineseTwinAndBack(t *testing.T) {
	en, zh := pageIDs(t, "playbook"), pageIDs(t, "playbook/zh")
	for _, id := range en {
		if !slices.Contains(zh, id) {
			t.Errorf("playbook/%s.md has no Chinese page playbook/zh/%s.md", id, id)
		}
	}
	for _, id := range zh {
		if !slices.Contains(en, id) {
			t.Errorf("playbook/zh/%s.md has no English page playbook/%s.md", id, id)
		}
	}
	if len(zh) != len(canonicalRules()) {
		t.Errorf("%d Chinese pages; want one per rule (%d)", len(zh), len(canonicalRules()))
	}
}

// commandsOf returns a page's fenced lines without trailing comments, which
// the Chinese pages may translate; the commands themselves must be identical.
func commandsOf(page string) []string {
	var out []string
	for _, c := range fencedCommands(page) {
		if i := strings.Index(c, " #"); i >= 0 {
			c = strings.TrimSpace(c[:i])
		}
		out = append(out, c)
	}
	return out
}

var number = regexp.MustCompile(`\d+(?:\.\d+)?`)

func TestChinesePagesMatchTheEnglishOnes(t *testing.T) {
	for _, rule := range canonicalRules() {
		t.Run(rule, func(t *testing.T) {
			en, _ := Playbook(rule)
			zh, ok := PlaybookLang(rule, "zh")
			if !ok || zh == en {
				t.Fatalf("no Chinese page for %q", rule)
			}
			if title := "# " + rule + " — "; !strings.HasPrefix(zh, title) {
				t.Errorf("page must start with %q, starts with %q", title, firstLine(zh))
			}
			last := -1
			for _, h := range requiredHeadingsZh {
				i := strings.Index(zh, "\n"+h+"\n")
				if i < 0 {
					t.Errorf("missing heading %q", h)
					continue
				}
				if i < last {
					t.Errorf("heading %q out of order", h)
				}
				last = i
			}
			if !strings.ContainsFunc(zh, func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff }) {
				t.Error("page has no Chinese text")
			}
			if src := section(zh, "## 来源"); !articleCitation.MatchString(src) {
				t.Errorf("来源 cites no article section: %q", src)
			}
			if got, want := commandsOf(zh), commandsOf(en); !slices.Equal(got, want) {
				t.Errorf("commands differ from the English page\n zh: %q\n en: %q", got, want)
			}
			// Every threshold of the English detection section appears in the
			// Chinese one: the two pages describe the same rule.
			zhDetect := section(zh, "## gpuscope 如何判断")
			for _, n := range number.FindAllString(section(en, "## How gpuscope detects it"), -1) {
				if !strings.Contains(zhDetect, n) {
					t.Errorf("the English detection section says %s; the Chinese one does not", n)
				}
			}
			enKeys, zhKeys := citedKeys(en), citedKeys(zh)
			for _, k := range enKeys {
				if !slices.Contains(zhKeys, k) {
					t.Errorf("the English page cites [%s]; the Chinese page does not", k)
				}
			}
		})
	}
}

func citedKeys(page string) []string {
	var keys []string
	for _, m := range citationKey.FindAllStringSubmatch(withoutCode(page), -1) {
		if !slices.Contains(keys, m[1]) {
			keys = append(keys, m[1])
		}
	}
	return keys
}

func TestPlaybookLang(t *testing.T) {
	en, _ := Playbook("input_starved")
	zh, _ := PlaybookLang("input_starved", "zh")
	if zh == en || !strings.Contains(zh, "## 什么意思") {
		t.Fatalf("PlaybookLang(input_starved, zh) is not the Chinese page: %q", firstLine(zh))
	}
	for _, lang := range []string{"zh", "zh-CN", "zh_CN.UTF-8", "ZH-tw"} {
		if got, ok := PlaybookLang("input_starved", lang); !ok || got != zh {
			t.Errorf("PlaybookLang(input_starved, %q) is not the Chinese page", lang)
		}
	}
	for _, lang := range []string{"", "en", "en_US.UTF-8", "de", "zhx", "C"} {
		if got, ok := PlaybookLang("input_starved", lang); !ok || got != en {
			t.Errorf("PlaybookLang(input_starved, %q) is not the English page", lang)
		}
	}
	for _, id := range []string{"", "no_such_rule", "../input_starved", "zh/input_starved", "input_starved.md"} {
		if _, ok := PlaybookLang(id, "zh"); ok {
			t.Errorf("PlaybookLang(%q, zh) found a page; want none", id)
		}
	}
	// Rules and Playbook stay English-only and unchanged by the zh directory.
	if got := Rules(); !slices.Equal(got, slices.Sorted(slices.Values(canonicalRules()))) {
		t.Errorf("Rules() = %v; the zh pages must not add ids", got)
	}
}
