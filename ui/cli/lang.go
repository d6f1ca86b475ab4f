package cli

import "github.com/spf13/pflag"

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
