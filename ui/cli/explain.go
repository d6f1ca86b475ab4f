package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/docs"
	"github.com/gpuscope/gpuscope/ui/markdown"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func newExplainCmd(d Deps, stdout io.Writer) *cobra.Command {
	var lang, theme string
	var raw, noColor bool
	var width int
	cmd := &cobra.Command{
		Use:   "explain [RULE]",
		Short: "Print the playbook page of a diagnosis rule, or list the rules",
		Long: `explain prints a rule's playbook page: what it means, how gpuscope detects it,
how to confirm it with other tools and the fixes in priority order. On a
terminal the page is rendered (headings, lists, code, wrapped to the width);
piped, or with --raw, it is the Markdown source. --lang zh (or a zh_* locale in
LANGUAGE, LC_ALL, LC_MESSAGES or LANG) gives the Chinese page.`,
		Example: `  gpuscope explain                 list the rules
  gpuscope explain input_starved   what it means, how it is detected, how to confirm and fix it
  gpuscope explain input_starved --lang zh
  gpuscope explain input_starved --raw > input_starved.md`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			if lang == "" {
				lang = configLanguage(d.Getenv) // flag > config.toml > locale
			}
			lang, err := chooseLang(lang, d.Getenv)
			if err != nil {
				return err
			}
			if len(args) == 0 {
				for _, r := range diagnose.Rules {
					fmt.Fprintf(stdout, "%-24s %s\n", r.ID, docs.SummaryLang(r.ID, lang))
				}
				return nil
			}
			page, ok := docs.PlaybookLang(args[0], lang)
			if !ok {
				return usagef("unknown_rule", "unknown rule %q; `gpuscope explain` lists the %d rules", args[0], len(diagnose.Rules))
			}
			tty, cols := terminalWidth(stdout)
			if raw || (!tty && width == 0) {
				fmt.Fprint(stdout, page)
				return nil
			}
			if width == 0 {
				width = min(cols, 100)
			}
			style := markdown.ForTheme(theme, noColor || d.Getenv("NO_COLOR") != "" || !tty)
			fmt.Fprint(stdout, markdown.Render(page, width, style))
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&lang, "lang", "", "page language: en or zh (default: from LANGUAGE, LC_ALL, LC_MESSAGES, LANG)")
	fl.BoolVar(&raw, "raw", false, "print the Markdown source instead of rendering it")
	fl.IntVar(&width, "width", 0, "render to this many columns (default: the terminal's, at most 100)")
	fl.StringVar(&theme, "theme", "dark", "colour theme: dark, light or mono")
	fl.BoolVar(&noColor, "no-color", false, "no colours (also when NO_COLOR is set)")
	return cmd
}

// chooseLang picks the language: the flag when given (en or zh), else the
// first locale variable set, in gettext's order, with zh_* meaning Chinese.
func chooseLang(flag string, getenv func(string) string) (string, error) {
	switch flag {
	case "en", "zh":
		return flag, nil
	case "":
	default:
		return "", usagef("lang", "--lang %q: use en or zh", flag)
	}
	for _, v := range []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if val := getenv(v); val != "" {
			first, _, _ := strings.Cut(val, ":") // LANGUAGE is a list
			if docs.IsChinese(first) {
				return "zh", nil
			}
			return "en", nil
		}
	}
	return "en", nil
}

// terminalWidth says whether w is a terminal and, if so, its width.
func terminalWidth(w io.Writer) (bool, int) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return false, 0
	}
	cols, _, err := term.GetSize(int(f.Fd()))
	if err != nil || cols <= 0 {
		return true, 80
	}
	return true, cols
}
