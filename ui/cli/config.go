package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/config"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// the user gave wins, else the file's value, else the default. A bad file
// is one line on stderr and the dashboard starts with the defaults.
func applyConfig(fl *pflag.FlagSet, f *dashFlags, getenv func(string) string, stderr io.Writer) {
	path, err := config.Path(getenv)
	if err != nil {
		return // no HOME: nowhere to look, nothing to say
	}
	c, _, err := config.Load(path, ui.CheckKeys)
	if err != nil {
		fmt.Fprintf(stderr, "gpuscope: %v\n", err)
	}
	if !fl.Changed("interval") {
		f.interval = c.Interval
	}
	if !fl.Changed("theme") {
		f.theme = c.Theme
	}
	if !fl.Changed("no-color") {
		f.noColor = c.NoColor
	}
	if !fl.Changed("readonly") {
		f.readonly = c.Readonly
	}
	f.keys = c.Keys
	f.sort, f.sortReverse, f.tree = c.Sort, c.SortReverse, c.Tree
	f.hide, f.computeOnly = c.Hide, c.ComputeOnly
	if !fl.Changed("lang") {
		f.lang = c.Language
	}
}

// configLanguage is config.toml's language ("" when unset or unreadable;
// a bad file is reported where the dashboard reads it).
func configLanguage(getenv func(string) string) string {
	path, err := config.Path(getenv)
	if err != nil {
		return ""
	}
	c, _, _ := config.Load(path, nil)
	return c.Language
}

func newConfigCmd(stdout io.Writer, getenv func(string) string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config path|show|init",
		Short: "Where the settings file is, what it sets, or write one with every key",
		Long: `The settings file is $XDG_CONFIG_HOME/gpuscope/config.toml, else
~/.config/gpuscope/config.toml. Flags win over it, and it wins over the
defaults. path prints where it is read; show prints every setting in effect and
where it came from (default, file, environment or flag); init writes the file with every key commented
out at its default, and never overwrites one.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	path := func() (string, error) {
		p, err := config.Path(getenv)
		if err != nil {
			return "", err
		}
		return p, nil
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "path",
		Short: "Print where the settings file is read",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			p, err := path()
			if err == nil {
				fmt.Fprintln(stdout, p)
			}
			return err
		},
	}, newConfigShowCmd(stdout, getenv), &cobra.Command{
		Use:   "init",
		Short: "Write the settings file with every key at its default (never overwrites)",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			p, err := path()
			if err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if errors.Is(err, fs.ErrExist) {
				return usagef("config_exists", "%s exists; edit it, or remove it first", p)
			} else if err != nil {
				return err
			}
			if _, err := io.WriteString(fh, config.Template); err != nil {
				fh.Close()
				return err
			}
			if err := fh.Close(); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "wrote %s\n", p)
			return nil
		},
	})
	return cmd
}
