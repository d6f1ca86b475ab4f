package report

import (
	"io"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// The renderers in English, as most tests read them.

func Text(w io.Writer, r *summary.Report) error     { return In(i18n.For("en")).Text(w, r) }
func Markdown(w io.Writer, r *summary.Report) error { return In(i18n.For("en")).Markdown(w, r) }
func HTML(w io.Writer, r *summary.Report) error     { return In(i18n.For("en")).HTML(w, r) }

func CompareText(w io.Writer, c *summary.Comparison) error {
	return In(i18n.For("en")).CompareText(w, c)
}

func CompareMarkdown(w io.Writer, c *summary.Comparison) error {
	return In(i18n.For("en")).CompareMarkdown(w, c)
}
