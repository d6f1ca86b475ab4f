package report

import (
	"strconv"
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
		lines = append(lines, l.t("energy_job", "KWh", kwh(sampler.Some(j.KWh)), "Job", job, "User", orNA(j.User), "GPUs", gpuList(j.GPUs)))
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

// gpuList is a job's GPUs by index: "0, 1, 5".
func gpuList(gpus []int) string {
	parts := make([]string, len(gpus))
	for i, g := range gpus {
		parts[i] = strconv.Itoa(g)
	}
	return strings.Join(parts, ", ")
}
