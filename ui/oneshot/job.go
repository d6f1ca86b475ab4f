package oneshot

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/sampler/units"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// JobVerdict is `check --job`'s verdict on one job's GPUs.
type JobVerdict struct {
	Job, User, Host string
	GPUs            []int
	Held, Used      float64 // GPU-hours over the span
	Span            time.Duration
	// Findings are those of the job's GPUs, most important first
	// (diagnose.Rank).
	Findings  []diagnose.Finding
	NotJudged []string // rules the span was too short for
}

// WriteJobLang writes the verdict as one paragraph, for a Slurm
// epilogue's log: GPU-hours held and used, the main cause with its
// evidence and the first fix (docs/jobs.md).
func WriteJobLang(w io.Writer, v JobVerdict, tr *i18n.Tr) error {
	t := words{tr}
	gpus := make([]string, len(v.GPUs))
	for i, g := range v.GPUs {
		gpus[i] = fmt.Sprint(g)
	}
	share := sampler.NA
	if v.Held > 0 {
		share = sampler.Some(100 * v.Used / v.Held)
	}
	user := v.User
	if user == "" {
		user = "n/a"
	}
	var b strings.Builder
	b.WriteString(t.check("job_hours", map[string]any{"Job": safe.String(v.Job), "User": safe.String(user), "Host": safe.String(v.Host),
		"GPUs": strings.Join(gpus, ", "), "Held": units.Number(sampler.Some(v.Held), 3), "Used": units.Number(sampler.Some(v.Used), 3),
		"Share": units.Percent(share, 0), "Span": v.Span.Round(time.Second).String()}))
	sep := " " // between English sentences; Chinese ones run on
	if i18n.Match(tr.Lang()) == "zh" {
		sep = ""
	}
	fs := safe.Clean(v.Findings)
	switch {
	case len(fs) > 0:
		f := fs[0]
		title, evidence, _ := tr.Finding(f)
		b.WriteString(sep + t.check("job_cause", map[string]any{"Title": title, "Rule": f.Rule, "Evidence": evidence,
			"Fix": strings.ReplaceAll(tr.Fix(f.FixID, f.Hint), " JOB", " "+safe.String(v.Job))})) // the fix's placeholder, this job
		if len(fs) > 1 {
			b.WriteString(sep + t.tr.N("check.job_more", len(fs)-1, map[string]any{"Job": safe.String(v.Job)}))
		}
	case len(v.NotJudged) > 0:
		b.WriteString(sep + t.check("job_not_judged", map[string]any{"Span": v.Span.Round(time.Second).String(), "Rules": strings.Join(v.NotJudged, ", ")}))
	default:
		b.WriteString(sep + t.check("job_none", nil))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}
