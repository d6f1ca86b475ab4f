package cli

import (
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

// cliWord is message id in lang, for a command's own lines on stderr; the
// id itself where the catalogue cannot be read (embedded: a broken build).
func cliWord(lang, id string, data map[string]any) string {
	tr, err := i18n.New(lang)
	if err != nil {
		return id
	}
	if data == nil {
		return tr.T(id)
	}
	return tr.T(id, data)
}
