package summary

import (
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// addEvidence adds what the evidence path proves on the last diagnosis
// window of an imported log (no host data): one-snapshot facts and
// short-series patterns the live rules, which need a sustained window,
// stay silent on. A finding the live rules also made keeps its timing;
// for health findings it takes the evidence's texts, which cite the Xid
// catalogue and the input's words rather than NVML's. where locates the
// readings in the input (nil: unknown).
func addEvidence(found []Finding, window []sampler.Snapshot, where func(gpu int, field string) string) []Finding {
	if len(window) == 0 || window[len(window)-1].Host != nil {
		return found // a live recording: the live rules saw everything
	}
	for _, ef := range diagnose.Evidence(window) {
		lines := evidenceLines(ef.Uses, where)
		i := indexFinding(found, ef.Rule, ef.GPU)
		if i >= 0 {
			f := &found[i]
			if ef.Rule == diagnose.RuleXidError || ef.Rule == diagnose.RuleECCErrors {
				f.Title, f.Evidence, f.Hint, f.I18n = ef.Title, ef.Evidence, ef.Hint, ef.I18n
			}
			f.Lines = lines
			continue
		}
		found = append(found, Finding{
			Rule: ef.Rule, Severity: ef.Severity, GPU: ef.GPU, PID: ef.PID, Title: ef.Title,
			Evidence: ef.Evidence, Hint: ef.Hint, Estimated: ef.Estimated, I18n: ef.I18n,
			FirstSeen: ef.Since, LastSeen: ef.LastSeen, Episodes: 1,
			OpenSeconds: ef.LastSeen.Sub(ef.Since).Round(time.Second).Seconds(), Lines: lines,
		})
	}
	return found
}

func indexFinding(fs []Finding, rule string, gpu int) int {
	for i := range fs {
		if fs[i].Rule == rule && fs[i].GPU == gpu {
			return i
		}
	}
	return -1
}

// evidenceLines names the input lines behind the uses, each once.
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
