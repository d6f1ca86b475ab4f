package summary

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/importer"
)

// The metamorphic corpus test: every corpus file (in sample and held aside)
// read again after a change the way it was copied makes — line endings, a
// Markdown fence, a quote, an editor's tabs, a web page's spaces — must give
// the findings (rule and GPU) it gives as it is. What each copy does and
// why some are not undone is in docs/corpus-accuracy.md ("Copied, not
// changed").

var robustTable = flag.Bool("robust-table", false, "print how many corpus files change findings under each copy transformation")

// copyForm is one way a paste is copied; apply returns the copied text, or
// "" where the form does not apply to the file (see skip).
type copyForm struct {
	name  string
	apply func(text string) string
}

var copyForms = []copyForm{
	{"crlf", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }},
	{"bom", func(s string) string { return "\ufeff" + s }},
	{"fence", func(s string) string { return "```\n" + strings.TrimRight(s, "\n") + "\n```\n" }},
	{"fence-console", func(s string) string {
		return "```console\n$ nvidia-smi\n" + strings.TrimRight(s, "\n") + "\n```\n"
	}},
	{"root-prompt", func(s string) string {
		return "root@gpu-node-3:~# nvidia-smi\n" + strings.TrimRight(s, "\n") + "\nroot@gpu-node-3:~# \n"
	}},
	{"quote", func(s string) string {
		return eachLine(s, func(l string) string { return strings.TrimRight("> "+l, " ") })
	}},
	{"editor", func(s string) string {
		return eachLine(s, func(l string) string { return strings.TrimRight(expandTabs(l, 4), " \t") })
	}},
	{"nbsp", func(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") }},
	{"ascii-box", asciiBox},
	{"wrap-120", func(s string) string { return eachLine(s, func(l string) string { return wrapProse(l, 120, wrapAt) }) }},
	{"wrap-80", func(s string) string { return eachLine(s, func(l string) string { return wrapProse(l, 80, wrapAt) }) }},
	{"hardwrap-120", func(s string) string {
		return eachLine(s, func(l string) string { return wrapProse(l, 120, hardWrap) })
	}},
	{"hardwrap-80", func(s string) string { return eachLine(s, func(l string) string { return wrapProse(l, 80, hardWrap) }) }},
	{"chatter", func(s string) string {
		return "这是我的输出，大家帮忙看看：\n" + strings.TrimRight(s, "\n") + "\n谢谢！有人遇到过吗？\n"
	}},
	{"chatter-ko-es", func(s string) string {
		return "서버에서 nvidia-smi 결과입니다. 도와주세요!\n\n" + strings.TrimRight(s, "\n") + "\n\n¿Alguien sabe qué pasa? Gracias de antemano.\n"
	}},
	// A rich-text editor's typography on running text (Discourse, Word,
	// Outlook): curly quotes and ellipses; columns stay in code.
	{"typography", func(s string) string {
		return eachLine(s, func(l string) string {
			if columnar(l) {
				return l
			}
			return strings.NewReplacer("'", "’", "\"", "”", "...", "…").Replace(l)
		})
	}},
	// A forum reply on Windows: the paste quoted, wrapped by the page and
	// copied from it with its spaces and line ends.
	{"forum-copy", func(s string) string {
		s = eachLine(s, func(l string) string { return strings.TrimRight("> "+wrapProse(l, 120, wrapAt), " ") })
		return strings.ReplaceAll(strings.ReplaceAll(s, " ", "\u00a0"), "\n", "\r\n")
	}},
}

func eachLine(s string, f func(string) string) string {
	ls := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range ls {
		ls[i] = f(l)
	}
	return strings.Join(ls, "\n") + "\n"
}

// expandTabs turns tabs into spaces at stops of n columns, as an editor set
// to n does when it saves.
func expandTabs(l string, n int) string {
	if !strings.Contains(l, "\t") {
		return l
	}
	var b strings.Builder
	col := 0
	for _, r := range l {
		if r == '\t' {
			k := n - col%n
			b.WriteString(strings.Repeat(" ", k))
			col += k
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// wrapProse wraps a line of running text, not a row of columns: a chat
// client wraps what is pasted as text, while a table, a topo -m matrix, a
// dmon or CSV row and indented -q or XML text are pasted in a code block,
// which GitHub, GitLab, Slack and Discord scroll instead of wrapping; and a
// row cut in two is two rows each short of columns, which no reader can
// tell from a row the paste itself cut (docs/corpus-copies.md).
func wrapProse(l string, n int, wrap func(string, int) string) string {
	if columnar(l) {
		return l
	}
	return wrap(l, n)
}

// columnar: a box or a rule, indentation, XML, a CSV row, or spaces aligning
// columns after a log line's stamp ("[  218.250408]", "Dec  2").
func columnar(l string) bool {
	if l == "" || l[0] == ' ' || l[0] == '\t' || strings.ContainsRune("<+=", rune(l[0])) || strings.ContainsAny(l, "|\t") || strings.Contains(l, "--") || strings.Count(l, ",") >= 4 && !strings.Contains(l, ". ") {
		return true
	}
	if k := strings.LastIndex(l[:min(len(l), 64)], "]"); k >= 0 {
		l = l[k:]
	}
	return strings.Contains(l, "  ")
}

// wrapAt breaks a line longer than n characters at its last space within
// n, as a chat or mail client of that width does; a word longer than the
// line is cut.
func wrapAt(l string, n int) string {
	r := []rune(l)
	var parts []string
	for len(r) > n {
		cut := n
		for cut > 0 && r[cut] != ' ' {
			cut--
		}
		if cut == 0 {
			cut = n
		}
		parts = append(parts, strings.TrimRight(string(r[:cut]), " "))
		r = r[cut:]
		for len(r) > 0 && r[0] == ' ' {
			r = r[1:]
		}
	}
	return strings.Join(append(parts, string(r)), "\n")
}

// hardWrap cuts a line longer than n characters into lines of n, as a
// terminal of n columns does when its screen is copied.
func hardWrap(l string, n int) string {
	r := []rune(l)
	if len(r) <= n {
		return l
	}
	var parts []string
	for len(r) > n {
		parts = append(parts, string(r[:n]))
		r = r[n:]
	}
	return strings.Join(append(parts, string(r)), "\n")
}

// asciiBox draws box-drawing characters in ASCII, as a terminal or font
// without them shows a table.
func asciiBox(s string) string {
	return strings.NewReplacer("─", "-", "━", "-", "═", "=", "│", "|", "┃", "|", "║", "|",
		"┌", "+", "┐", "+", "└", "+", "┘", "+", "├", "+", "┤", "+", "┬", "+", "┴", "+", "┼", "+",
		"╒", "+", "╕", "+", "╘", "+", "╛", "+", "╞", "+", "╡", "+", "╪", "+", "╤", "+", "╧", "+").Replace(s)
}

// readCopied reads text as report reads a file of that name.
func readCopied(path, text string) corpusRow {
	row := corpusRow{file: filepath.Base(path), findings: "-"}
	f, err := importer.OpenSnapshots(io.NopCloser(strings.NewReader(text)), path)
	if err != nil {
		row.format, row.readErr = "unread", err.Error()
		return row
	}
	defer f.Close()
	r, err := BuildFrom(f, Options{})
	if err != nil {
		row.format, row.readErr = "unread", err.Error()
		return row
	}
	row.format, row.gpus = r.Format, len(r.GPUs)
	var fs []string
	for _, x := range r.Findings {
		fs = append(fs, fmt.Sprintf("%s:%d", x.Rule, x.GPU))
	}
	sort.Strings(fs)
	if len(fs) > 0 {
		row.findings = strings.Join(fs, " ")
	}
	return row
}

func TestCorpusCopied(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(corpusDir, "*"))
	changed, reread, applied := map[string][]string{}, map[string][]string{}, map[string]int{}
	held, gained, heldChanged := loadHeldAside(t), map[string]int{}, map[string]int{}
	for _, p := range paths {
		if filepath.Base(p) == "INDEX.md" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		base := readCopied(p, text)
		for _, c := range copyForms {
			ct := c.apply(text)
			if ct == text {
				continue
			}
			applied[c.name]++
			got := readCopied(p, ct)
			if got.findings != base.findings {
				if base.findings == "-" {
					gained[c.name]++
				}
				if _, ok := held[base.file]; ok {
					heldChanged[c.name]++
				}
				changed[c.name] = append(changed[c.name], fmt.Sprintf("%s: %s -> %s (%s -> %s) %s", base.file, base.findings, got.findings, base.format, got.format, got.readErr))
			} else if (got.format == "unread") != (base.format == "unread") || got.gpus != base.gpus {
				reread[c.name] = append(reread[c.name], fmt.Sprintf("%s: %s, %d GPUs -> %s, %d GPUs %s", base.file, base.format, base.gpus, got.format, got.gpus, got.readErr))
			}
		}
	}
	for _, c := range copyForms {
		if *robustTable {
			t.Logf("| %s | %d | %d (%d held aside, %d gained a finding) | %d |", c.name, applied[c.name],
				len(changed[c.name]), heldChanged[c.name], gained[c.name], len(reread[c.name]))
		}
		for _, l := range changed[c.name] {
			t.Errorf("%s: findings changed: %s", c.name, l)
		}
		for _, l := range reread[c.name] {
			t.Errorf("%s: read differently: %s", c.name, l)
		}
	}
}
