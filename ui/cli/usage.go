package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// getenvKey holds Deps.Getenv in the root command's context: a usage
// error is printed by ExitStatus, after the command, in the language the
// command would have spoken (--lang, config.toml, the locale).
type getenvKey struct{}

// Execute runs the command tree under ctx, main's: the one context every
// command derives its own from (cmd.Context()), carrying Deps.Getenv.
func Execute(ctx context.Context, root *cobra.Command) (*cobra.Command, error) {
	if rc := root.Context(); rc != nil {
		if getenv, ok := rc.Value(getenvKey{}).(func(string) string); ok {
			ctx = context.WithValue(ctx, getenvKey{}, getenv)
		}
	}
	return root.ExecuteContextC(ctx)
}

func setGetenv(root *cobra.Command, getenv func(string) string) {
	if getenv != nil {
		root.SetContext(context.WithValue(context.Background(), getenvKey{}, getenv))
	}
}

// errorLang is the language of cmd's error line: its --lang when it has
// one and the value is good, else config.toml's language, else the
// locale; English without an environment.
func errorLang(cmd *cobra.Command) string {
	if cmd == nil || cmd.Context() == nil {
		return "en"
	}
	getenv, ok := cmd.Context().Value(getenvKey{}).(func(string) string)
	if !ok {
		return "en"
	}
	flag := ""
	if f := cmd.Flags().Lookup("lang"); f != nil {
		flag = f.Value.String()
	}
	lang, err := resolveLang(flag, getenv)
	if err != nil { // --lang itself is the mistake
		lang, _ = resolveLang("", getenv)
	}
	return lang
}

// usageLine is the one line a usage error prints: "gpuscope: … (see
// gpuscope --help)" in the reader's language. A usagef message is
// translated by its id (cli.*.toml "usage.<id>"); cobra's own (an unknown
// flag) and a wrapped one keep their English inside.
func usageLine(cmd *cobra.Command, err error, ue usageError) string {
	msg := err.Error()
	tr, terr := i18n.New(errorLang(cmd))
	if terr != nil {
		return fmt.Sprintf("gpuscope: %s (see gpuscope --help)", safe.Text(msg))
	}
	if um, ok := ue.error.(usageMsg); ok && msg == ue.Error() {
		if format := tr.T("usage." + um.id); format != "usage."+um.id {
			msg = fmt.Sprintf(format, um.args...)
		}
	}
	return tr.T("usage.line", map[string]any{"Err": safe.Text(msg)})
}

// runtimeLine is the one line any other error prints: "gpuscope: …" with
// the error's own words (a file's path, the system's or a parser's
// message), introduced in the reader's language; a missing or unreadable
// file is said so first.
func runtimeLine(cmd *cobra.Command, err error) string {
	msg := safe.Text(err.Error()) // may quote a file's contents
	tr, terr := i18n.New(errorLang(cmd))
	if terr != nil {
		return "gpuscope: " + msg
	}
	id := "error.line"
	switch {
	case errors.Is(err, fs.ErrNotExist):
		id = "error.not_found"
	case errors.Is(err, fs.ErrPermission):
		id = "error.permission"
	}
	return tr.T(id, map[string]any{"Err": msg})
}
