package replay

import "github.com/gpuscope/gpuscope/ui/i18n"

// The replay's own lines (the timeline, the warning and loading lines) in
// the dashboard's language, Options.UI.Lang.

// words is the catalogue of lang; nil (ids shown as they are) only on a
// broken build, as the dashboard's.
func words(lang string) *i18n.Tr {
	tr, err := i18n.New(lang)
	if err != nil {
		return nil
	}
	return tr
}

// say is message id with its {{.Fields}} filled from data.
func (m Model) say(id string, data map[string]any) string {
	if m.tr == nil {
		return id
	}
	return m.tr.T(id, data)
}
