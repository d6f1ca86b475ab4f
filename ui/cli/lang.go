package cli

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpuscope/gpuscope/ui/i18n"
)

// langFlag adds --lang to a command that prints words (check, report,
// doctor): the same choice as the dashboard's, in the same order.
func langFlag(fl *pflag.FlagSet, lang *string, what string) {
	fl.StringVar(lang, "lang", "", what+" language: en or zh (default: config.toml's language, else LANGUAGE, LC_ALL, LC_MESSAGES, LANG)")
}

// resolveLang is --lang, else config.toml's language, else the locale:
// "en" or "zh", or a usage error for another value.
func resolveLang(flag string, getenv func(string) string) (string, error) {
	if flag == "" {
		flag = configLanguage(getenv)
	}
	return chooseLang(flag, getenv)
}

// commandWords is the translator of cmd's language (--lang, else
// config.toml's, else the locale), or the usage error of a bad --lang.
func commandWords(cmd *cobra.Command, flag string, getenv func(string) string) (*i18n.Tr, error) {
	lang, err := resolveLang(flag, getenv)
	if err != nil {
		return nil, err
	}
	return words(cmd, lang), nil
}

// run is what one run of the command tree shares through the root's
// context: the environment (a usage error is printed by ExitStatus, after
// the command, in the language the command would have spoken) and the
// run's one translator, built by whichever needs it first.
type run struct {
	getenv func(string) string
	tr     *i18n.Tr
}

type runKey struct{}

// runOf is cmd's run; nil for a command executed outside NewRoot's tree.
func runOf(cmd *cobra.Command) *run {
	if cmd == nil || cmd.Context() == nil {
		return nil
	}
	r, _ := cmd.Context().Value(runKey{}).(*run)
	return r
}

// words is the run's translator in lang ("en" or "zh"): parsing the
// catalogue costs milliseconds, so a run builds it once and hands it to
// every face, its error line included.
func words(cmd *cobra.Command, lang string) *i18n.Tr {
	r := runOf(cmd)
	if r == nil {
		return i18n.For(lang)
	}
	if r.tr == nil || r.tr.Lang() != i18n.Match(lang) {
		r.tr = i18n.For(lang)
	}
	return r.tr
}

// Execute runs the command tree under ctx, main's: the one context every
// command derives its own from (cmd.Context()), carrying the run.
func Execute(ctx context.Context, root *cobra.Command) (*cobra.Command, error) {
	if r := runOf(root); r != nil {
		ctx = context.WithValue(ctx, runKey{}, r)
	}
	return root.ExecuteContextC(ctx)
}

func setRun(root *cobra.Command, getenv func(string) string) {
	if getenv != nil {
		root.SetContext(context.WithValue(context.Background(), runKey{}, &run{getenv: getenv}))
	}
}
