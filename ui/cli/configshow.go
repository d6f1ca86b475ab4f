package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/config"
	"github.com/gpuscope/gpuscope/ui/i18n"
	"github.com/spf13/cobra"
)

// showFlags are the dashboard's flags that override config.toml's keys,
// accepted by `config show` so it prints what `gpuscope` with the same
// flags would use.
var showFlags = map[string]string{"interval": "interval", "theme": "theme", "no_color": "no-color", "readonly": "readonly", "language": "lang"}

func newConfigShowCmd(stdout io.Writer, getenv func(string) string) *cobra.Command {
	var f dashFlags
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Print every setting in effect and where it came from (default, file, env or flag)",
		Long: `show prints every key config.toml accepts, [keys] included, with the value
in effect and where it came from: the default, the file, the environment
(NO_COLOR, the locale for language) or a flag. Give it the dashboard's
flags (--interval, --theme, --no-color, --readonly, --lang) to see what
gpuscope run with them would use.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := config.Path(getenv)
			if err != nil {
				return err
			}
			c, found, err := config.Load(p, ui.CheckKeys)
			if err != nil {
				return err
			}
			tr, err := commandWords(cmd, f.lang, getenv)
			if err != nil {
				return err
			}
			inFile := config.DefinedIn(p)
			fl := cmd.Flags()
			if fl.Changed("interval") {
				c.Interval = f.interval
			}
			if fl.Changed("theme") {
				c.Theme = f.theme
			}
			if fl.Changed("no-color") {
				c.NoColor = f.noColor
			}
			if fl.Changed("readonly") {
				c.Readonly = f.readonly
			}
			langBy := ""
			switch {
			case fl.Changed("lang"):
				c.Language = tr.Lang()
			case c.Language == "":
				c.Language, langBy = tr.Lang(), localeVar(getenv)
			}
			// A flag's value is held to the file's rules (the range of
			// interval, the themes) as the dashboard holds it.
			if _, err := config.Parse([]byte(config.Encode(c)), nil); err != nil {
				_, why, _ := strings.Cut(err.Error(), ": ") // "line N: " is the encoded text's
				return usagef("config_show_flag", "config show: %s", why)
			}
			if !fl.Changed("no-color") && getenv("NO_COLOR") != "" {
				c.NoColor = true
			}
			from := func(key string) (string, string) {
				switch {
				case fl.Changed(showFlags[key]) && showFlags[key] != "":
					return config.FromFlag, "--" + showFlags[key]
				case key == "no_color" && getenv("NO_COLOR") != "":
					return config.FromEnv, "NO_COLOR"
				case inFile[key]:
					return config.FromFile, ""
				case key == "language" && langBy != "":
					return config.FromEnv, langBy
				}
				return config.FromDefault, ""
			}
			head := "config.show_defaults"
			if found {
				head = "config.show_file"
			}
			fmt.Fprintln(stdout, tr.T(head, map[string]any{"Path": p}))
			_, err = io.WriteString(stdout, showSettings(config.Settings(c, ui.DefaultKeys(), from), tr))
			return err
		},
	}
	fl := cmd.Flags()
	fl.DurationVar(&f.interval, "interval", time.Second, "as the dashboard's --interval")
	fl.StringVar(&f.theme, "theme", "dark", "as the dashboard's --theme")
	fl.BoolVar(&f.noColor, "no-color", false, "as the dashboard's --no-color")
	fl.BoolVar(&f.readonly, "readonly", false, "as the dashboard's --readonly")
	fl.StringVar(&f.lang, "lang", "", "as the dashboard's --lang: en or zh (also the language of the source comments)")
	return cmd
}

// localeVar is the locale variable the language follows ("" for none:
// English by default).
func localeVar(getenv func(string) string) string {
	for _, v := range []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if getenv(v) != "" {
			return v
		}
	}
	return ""
}

// showSettings writes the settings as TOML, each with a comment saying
// where its value came from, [keys] last.
func showSettings(ss []config.Setting, tr *i18n.Tr) string {
	w := 0
	for _, s := range ss {
		w = max(w, len(strings.TrimPrefix(s.Key, "keys."))+3+len(s.Value))
	}
	return config.Format(ss, func(s config.Setting, line string) string {
		return i18n.Pad(line, w) + "  # " + tr.T("config.from."+s.From, map[string]any{"By": s.By})
	})
}
