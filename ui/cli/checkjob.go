package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"
	"unicode"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/ui/oneshot"
)

// checkJobJSON is check --job --json's job section.
type checkJobJSON struct {
	ID       string  `json:"id"`
	User     string  `json:"user,omitempty"`
	GPUs     []int   `json:"gpus"`
	HeldGPUh float64 `json:"held_gpu_hours"`
	UsedGPUh float64 `json:"used_gpu_hours"`
}

// checkJobFlag refuses a --job that cannot name a job: Slurm's ids are
// digits (an array task 123_4), a pod is NAMESPACE/NAME.
func checkJobFlag(job string) error {
	if job == "" {
		return nil
	}
	if len(job) > 128 || !allPrintable(job) {
		return usagef("job_bad", "--job %q is not a Slurm job id or a pod's NAMESPACE/NAME; in an epilogue pass $SLURM_JOB_ID", job)
	}
	return nil
}

func allPrintable(s string) bool {
	for _, r := range s {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// printJob is check --job's verdict: the findings of the GPUs the job held
// during the span, its GPU-hours held and used, one paragraph (or JSON),
// and the exit status by the worst of those findings.
func printJob(fr diagnose.Frame, interval time.Duration, h *summary.GPUHours, f checkFlags, stdout io.Writer) error {
	v := oneshot.JobVerdict{Job: f.job, Host: fr.Snapshot.Node.Hostname}
	if h != nil {
		for _, j := range h.Jobs {
			if j.Job != f.job || j.Kind == summary.HeldByProcess {
				continue
			}
			v.Held += j.Held
			v.Used += j.Used
			if v.User == "" {
				v.User = j.User
			}
			for _, g := range j.GPUs {
				if !slices.Contains(v.GPUs, g) {
					v.GPUs = append(v.GPUs, g)
				}
			}
		}
	}
	d := fr.Diagnosis
	span := d.Span(interval)
	if len(v.GPUs) == 0 {
		return fmt.Errorf("job %s held no GPU in the %s checked: gpuscope names a GPU's job from its processes' SLURM_JOB_ID or cgroup, or from scontrol (docs/jobs.md); run it on the job's node while the job runs, or with --from a recording of that time",
			f.job, span.Round(time.Second))
	}
	slices.Sort(v.GPUs)
	v.Span = span
	if d != nil {
		for _, x := range d.Findings {
			if slices.Contains(v.GPUs, x.GPU) {
				v.Findings = append(v.Findings, x)
			}
		}
	}
	diagnose.Rank(v.Findings)
	status, name, notJudged := checkStatus(v.Findings, span)
	v.NotJudged = notJudged
	var err error
	if f.json {
		doc := checkJSON{Worst: name, Exit: status, NotJudged: notJudged, SpanS: span.Seconds(), Findings: v.Findings, Snapshot: fr.Snapshot,
			Job: &checkJobJSON{ID: v.Job, User: v.User, GPUs: v.GPUs, HeldGPUh: v.Held, UsedGPUh: v.Used}}
		if doc.Findings == nil {
			doc.Findings = []diagnose.Finding{}
		}
		if d != nil {
			doc.Samples = d.Samples
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(doc)
	} else {
		err = oneshot.WriteJobLang(stdout, v, f.tr)
	}
	if err != nil {
		return err
	}
	if status != 0 {
		return exitCode(status)
	}
	return nil
}
