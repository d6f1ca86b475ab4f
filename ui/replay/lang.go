package replay

// The replay's own lines (the timeline, the warning and loading lines) in
// the dashboard's language, Options.UI.Tr.

// say is message id with its {{.Fields}} filled from data.
func (m Model) say(id string, data map[string]any) string {
	if m.tr == nil {
		return id
	}
	return m.tr.T(id, data)
}
