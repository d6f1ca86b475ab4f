package docs

import "github.com/gpuscope/gpuscope/diagnose"

// canonicalRules is diagnose.Rules' ids: every rule has a page, in both
// languages, and the pages name no rule the diagnosis lacks.
func canonicalRules() []string {
	var out []string
	for _, r := range diagnose.Rules {
		out = append(out, r.ID)
	}
	return out
}
