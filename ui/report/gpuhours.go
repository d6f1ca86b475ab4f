package report

import (
	"strings"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// gpuHours are the lines of the GPU-hours section: the totals, one line
// per job and one per user; nil when no GPU was held.
func (l words) gpuHours(r *summary.Report) (total string, lines []string) {
	h := r.GPUHours
	if h == nil {
		return "", nil
	}
	share := sampler.NA
	if h.Held > 0 {
		share = sampler.Some(100 * h.Used / h.Held)
	}
	total = l.t("gpu_hours_total", "Held", hours(h.Held), "Used", hours(h.Used), "Share", units.Percent(share, 0))
	for _, j := range h.Jobs {
		lines = append(lines, l.t("gpu_hours_job", "Held", hours(j.Held), "Used", hours(j.Used),
			"Kind", l.t("held_by."+j.Kind), "Job", j.Job, "User", orNA(j.User), "GPUs", gpuList(j.GPUs)))
	}
	if len(h.Users) > 0 {
		users := make([]string, len(h.Users))
		for i, u := range h.Users {
			users[i] = u.User + " " + hours(u.Held) + "/" + hours(u.Used)
		}
		lines = append(lines, l.t("gpu_hours_users", "Users", strings.Join(users, ", ")))
	}
	return total, lines
}

// hours is GPU-hours to three decimals (3.6 s), so a short recording
// still shows what it held.
func hours(h float64) string { return units.Number(sampler.Some(h), 3) }
