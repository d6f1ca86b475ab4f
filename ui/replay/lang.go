package replay

// The replay's own lines (the timeline, the warning and loading lines) in
// the dashboard's language, Options.UI.Tr.

// say is message id with its {{.Fields}} filled from data.
//
// Not inlined: a copy at each call site cost the binary (docs/benchmarks.md,
// "Recordings: the report read from the footer").
//
//go:noinline
func (m Model) say(id string, data map[string]any) string {
	if m.tr == nil {
		return id
	}
	return m.tr.T(id, data)
}
