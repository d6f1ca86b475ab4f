package docs

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// requiredHeadings are the sections every playbook page must have, in order,
// because the UI's detail pane and `explain` jump to them by name.
var requiredHeadings = []string{
	"## What it means",
	"## How gpuscope detects it",
	"## Confirm it",
	"## Fixes, in priority order",
	"## Caveats",
	"## Sources",
}

// articleCitation is a citation of one of the two articles the diagnosis
// follows, with a section number (docs/references.md lists their sections).
var articleCitation = regexp.MustCompile(`\[gpu-idle-(pipeline|handbook)\] §\d`)

// section returns the text between heading and the next "## " heading.
func section(page, heading string) string {
	_, after, ok := strings.Cut(page, "\n"+heading+"\n")
	if !ok {
		return ""
	}
	if i := strings.Index(after, "\n## "); i >= 0 {
		return after[:i]
	}
	return after
}

// fencedCommands returns the non-empty lines inside ``` blocks.
func fencedCommands(text string) []string {
	var out []string
	inside := false
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "```") {
			inside = !inside
			continue
		}
		if inside && line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

func TestEveryCanonicalRuleHasACompletePage(t *testing.T) {
	for _, rule := range canonicalRules() {
		t.Run(rule, func(t *testing.T) {
			page, ok := Playbook(rule)
			if !ok {
				t.Fatalf("no playbook page for %q", rule)
			}
			title := "# " + rule + " — "
			if !strings.HasPrefix(page, title) {
				t.Errorf("page must start with %q, starts with %q", title, firstLine(page))
			}
			last := -1
			for _, h := range requiredHeadings {
				i := strings.Index(page, "\n"+h+"\n")
				if i < 0 {
					t.Errorf("missing heading %q", h)
					continue
				}
				if i < last {
					t.Errorf("heading %q out of order", h)
				}
				last = i
			}
			if src := section(page, "## Sources"); !articleCitation.MatchString(src) {
				t.Errorf("Sources section cites no article section (want e.g. \"[gpu-idle-pipeline] §2.1\"): %q", src)
			}
			if cmds := fencedCommands(section(page, "## Confirm it")); len(cmds) == 0 {
				t.Error("Confirm it section has no command in a ``` block")
			}
			// The summary is listed by `gpuscope explain` next to a 24-column id,
			// so it must stay short: 100 runes keeps it one line on a
			// 132-column terminal.
			if s := Summary(rule); utf8.RuneCountInString(s) < 20 || utf8.RuneCountInString(s) > 100 || strings.HasPrefix(s, "#") {
				t.Errorf("summary under the title must be one line of 20-100 runes: %q", s)
			}
			if n := strings.Count(page, "\n"); n < 30 || n > 120 {
				t.Errorf("page has %d lines; keep it ~40-90", n)
			}
		})
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func TestRulesAreCanonicalAndOrdered(t *testing.T) {
	got, want := Rules(), slices.Sorted(slices.Values(canonicalRules()))
	if !slices.Equal(got, want) {
		t.Errorf("Rules() = %v\nwant a page for each of diagnose.Rules and no other %v", got, want)
	}
}

func TestUnknownRuleHasNoPage(t *testing.T) {
	for _, id := range []string{"", "healthy", "mixed", "no_such_rule", "../docs", "playbook/io_bound", "io_bound.md"} {
		if _, ok := Playbook(id); ok {
			t.Errorf("Playbook(%q) found a page; want none", id)
		}
		if s := Summary(id); s != "" {
			t.Errorf("Summary(%q) = %q; want empty", id, s)
		}
	}
}

func TestRenderFillsPlaceholders(t *testing.T) {
	page := "nvidia-smi -i {gpu}; py-spy dump --pid {pid}; again {gpu}"
	cases := []struct {
		gpu, pid int
		want     string
	}{
		{3, 4242, "nvidia-smi -i 3; py-spy dump --pid 4242; again 3"},
		{0, 0, "nvidia-smi -i 0; py-spy dump --pid {pid}; again 0"},
		{-1, 17, "nvidia-smi -i {gpu}; py-spy dump --pid 17; again {gpu}"},
		{-1, 0, page},
	}
	for _, c := range cases {
		if got := Render(page, c.gpu, c.pid); got != c.want {
			t.Errorf("Render(gpu=%d, pid=%d) = %q; want %q", c.gpu, c.pid, got, c.want)
		}
	}
}

func TestRenderedPagesHaveNoPlaceholdersLeft(t *testing.T) {
	leftover := regexp.MustCompile(`\{[a-z_]+\}`)
	for _, rule := range Rules() {
		page, _ := Playbook(rule)
		if m := leftover.FindString(Render(page, 2, 1234)); m != "" {
			t.Errorf("%s: placeholder %s is not one Render fills", rule, m)
		}
	}
}
