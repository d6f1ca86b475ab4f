package summary

import "github.com/gpuscope/gpuscope/diagnose"

// evidenceLines names the input lines behind the uses (an evidence
// finding's readings), each once.
func evidenceLines(uses []diagnose.Use, where func(int, string) string) []string {
	if where == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, u := range uses {
		add(where(u.GPU, u.Field))
	}
	if len(out) == 0 {
		for _, u := range uses {
			add(where(u.GPU, ""))
		}
	}
	return out
}
