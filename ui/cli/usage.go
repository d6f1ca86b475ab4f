package cli

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// errorLang is the language of cmd's error line: its --lang when it has
// one and the value is good, else config.toml's language, else the
// locale; English without an environment.
func errorLang(cmd *cobra.Command) string {
	r := runOf(cmd)
	if r == nil {
		return "en"
	}
	getenv := r.getenv
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
	tr := words(cmd, errorLang(cmd))
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
	tr := words(cmd, errorLang(cmd))
	var ref *importer.Refusal
	if errors.As(err, &ref) && msg == safe.Text(ref.Error()) {
		return refusalLine(tr, ref)
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

// refusalLine is a refused non-NVML text's one line in the reader's
// language: what it is ("refuse.<kind>"), what gpuscope reads, and what to
// pass instead ("refuse.<kind>_todo"); the formats' names stay commands.
func refusalLine(tr *i18n.Tr, r *importer.Refusal) string {
	args := map[string]any{"Name": safe.Text(r.Name), "What": tr.T("refuse." + r.Kind), "Formats": r.Formats()}
	if r.Todo == "" {
		return tr.T("refuse.line", args)
	}
	args["Todo"] = tr.T("refuse." + r.Kind + "_todo")
	return tr.T("refuse.line_todo", args)
}
