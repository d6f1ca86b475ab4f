package ui

import (
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/docs"
	"github.com/gpuscope/gpuscope/themes"
)

// DefaultOptions are the dashboard's settings shared by the live view and
// replay: the playbook pages and the labels. The caller adds the collector's frames.
func DefaultOptions(styles themes.Styles, badge string, interval time.Duration) Options {
	return Options{
		Styles:   styles,
		Playbook: playbookPage,
		Interval: interval,
		Badge:    badge,
		Rules:    len(diagnose.Rules),
	}
}

func playbookPage(rule, lang string, gpu, pid int) string {
	page, ok := docs.PlaybookLang(rule, lang)
	if !ok {
		return ""
	}
	return docs.Render(page, gpu, pid)
}
