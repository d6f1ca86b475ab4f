package markdown

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpuscope/gpuscope/docs"
)

// Every playbook page, in both languages and every style, fits the width it
// is rendered for (40 and 100 columns): a pane of that width never gets a line cut off or
// wrapped by the terminal (Chinese paragraphs have no spaces to break at).
func TestEveryPageFitsItsWidth(t *testing.T) {
	var renderers []*Renderer
	for _, style := range []Style{Plain, Dark} { // Light wraps exactly as Dark
		renderers = append(renderers, New(style))
	}
	for _, lang := range []string{"en", "zh"} {
		for _, rule := range docs.Rules() {
			page, ok := docs.PlaybookLang(rule, lang)
			if !ok {
				t.Fatalf("%s/%s: no page", lang, rule)
			}
			for _, r := range renderers {
				for _, width := range []int{40, 100} {
					out := r.Render(page, width)
					for i, l := range strings.Split(out, "\n") {
						if w := ansi.StringWidth(l); w > width {
							t.Fatalf("%s/%s width %d: line %d is %d cells: %q", lang, rule, width, i, w, ansi.Strip(l))
						}
					}
				}
			}
		}
	}
}

// Plain output (mono theme, NO_COLOR, a pipe) carries no escape sequence,
// and the page's words and commands survive rendering: the markup is gone,
// the content is not.
func TestPlainKeepsContentWithoutEscapes(t *testing.T) {
	page, _ := docs.Playbook("input_starved")
	out := Render(page, 100, Plain)
	if strings.Contains(out, "\x1b") {
		t.Fatalf("plain output has escape sequences")
	}
	for _, want := range []string{"input_starved", "How gpuscope detects it", "py-spy dump --pid {pid}", "num_workers=8"} {
		if !strings.Contains(out, want) {
			t.Errorf("rendered page lost %q", want)
		}
	}
	// The source's 100-column line breaks are joined: a paragraph reflows
	// to the width instead of keeping the source's breaks.
	narrow := Render(page, 60, Plain)
	if !strings.Contains(narrow, "GPU-Util only reports the share of time *some* kernel ran") {
		t.Errorf("paragraph not reflowed:\n%s", narrow[:min(len(narrow), 800)])
	}
	if dark := Render(page, 100, Dark); !strings.Contains(dark, "\x1b[") {
		t.Errorf("dark style has no colour")
	}
}

func TestForTheme(t *testing.T) {
	cases := []struct {
		theme   string
		noColor bool
		want    Style
	}{{"dark", false, Dark}, {"light", false, Light}, {"mono", false, Plain}, {"dark", true, Plain}, {"light", true, Plain}}
	for _, c := range cases {
		if got := ForTheme(c.theme, c.noColor); got != c.want {
			t.Errorf("ForTheme(%q, %v) = %s, want %s", c.theme, c.noColor, got, c.want)
		}
	}
}

// A wrapped line carries only its own styles: before, the left margin of
// each broken line was cut from the styled line and took every colour
// switch of the whole paragraph with it (empty "\x1b[38;5;203m\x1b[39m"
// pairs, bytes the terminal is sent for nothing at every frame).
func TestWrappedLinesCarryNoEmptyStyles(t *testing.T) {
	empty := regexp.MustCompile("\x1b\\[38;5;\\d+m\x1b\\[39m")
	for _, rule := range docs.Rules() {
		page, _ := docs.Playbook(rule)
		if out := Render(page, 60, Dark); empty.MatchString(out) {
			t.Fatalf("%s: empty style pair in %q", rule, empty.FindString(out))
		}
	}
}

// List items hang their continuation lines under their text, code inside
// an item sits under the item, and an ordered list counts from its start.
func TestListLayout(t *testing.T) {
	md := "3. first item with enough words to wrap at twenty-five cells\n4. second\n   ```sh\n   echo hi\n   ```\n- nested *stress* and `code`\n"
	out := Render(md, 25, Plain)
	want := []string{" 3. first item with", "    enough words to wrap", " 4. second", "      echo hi", " - nested *stress* and", "   code"}
	lines := strings.Split(out, "\n")
	for _, w := range want {
		found := false
		for _, l := range lines {
			if l == w {
				found = true
			}
		}
		if !found {
			t.Errorf("no line %q in:\n%s", w, out)
		}
	}
}
