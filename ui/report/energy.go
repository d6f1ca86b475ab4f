package report

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler"
)

// energyJobs are the lines of the energy-by-job section, one per job and
// a last one per user; nil when the report shares out no energy.
func (l words) energyJobs(r *summary.Report) (idle string, lines []string) {
	e := r.Energy
	if e == nil || len(e.Jobs) == 0 {
		return "", nil
	}
	for _, j := range e.Jobs {
		job := j.Job
		if j.Command != "" {
			job += " (" + j.Command + ")"
		}
		gpus := make([]string, len(j.GPUs))
		for i, g := range j.GPUs {
			gpus[i] = fmt.Sprint(g)
		}
		lines = append(lines, l.t("energy_job", "KWh", kwh(sampler.Some(j.KWh)), "Job", job, "User", orNA(j.User), "GPUs", strings.Join(gpus, ", ")))
	}
	if len(e.Users) > 0 {
		users := make([]string, len(e.Users))
		for i, u := range e.Users {
			users[i] = u.User + " " + kwh(sampler.Some(u.KWh))
		}
		lines = append(lines, l.t("energy_users", "Users", strings.Join(users, ", ")))
	}
	return l.t("energy_idle", "KWh", kwh(sampler.Some(e.IdleKWh))), lines
}
