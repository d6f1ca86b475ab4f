package summary

import (
	"slices"
	"strings"
)

// absent lists what the input lacks, and what that leaves unjudged.
func absent(r *Report) []string {
	var out []string
	if !r.Environment.HostData {
		out = append(out, "host data: absent (an imported log); input_starved / io_bound / sync_stall are not measured: a GPU-Util pattern that points at them names the candidates and the command that tells them apart")
	}
	if !r.Environment.Processes {
		// A rule that found something from other evidence (CUDA's "all
		// devices busy" line is gpu_contention without a process list)
		// was judged: the note names only the rules left unjudged.
		note := "processes: absent (the input lists none)"
		if rules := unjudged(r, "memory_idle_held", "gpu_contention"); len(rules) > 0 {
			note += "; " + strings.Join(rules, " / ") + " cannot be judged"
		}
		out = append(out, note)
	}
	sm := false
	for _, g := range r.GPUs {
		sm = sm || g.SMActive != nil
	}
	if !sm {
		out = append(out, "SM activity: absent (no GPM metrics: needs Hopper or newer, or dcgmi profiling fields); GPU-Util alone cannot tell busy from full")
	}
	if r.NoReading() {
		out = append(out, "GPU readings: absent (the input names the GPUs, as nvidia-smi -L does, but gives none a reading); no rule could judge them: pass nvidia-smi's table, -q or a recording")
	}
	return out
}

// NoReading: the input names GPUs but gives none of them a reading
// (nvidia-smi -L, a list of names and ids), so the rules had nothing to
// judge and no finding is not a clean bill: the faces say so where they
// would say "none".
func (r *Report) NoReading() bool {
	for i := range r.GPUs {
		g := &r.GPUs[i]
		if g.Lost || g.Util != nil || g.SMActive != nil || g.TensorActive != nil || g.MemPeak.OK || g.MemTotal.OK ||
			g.PowerMean.OK || g.PowerLimit.OK || g.TempMax.OK || g.EnergyKWh.OK || g.ThrottledSeconds.OK ||
			g.Virtualization != "" || g.License != "" || len(g.VGPUs) > 0 {
			return false
		}
	}
	return len(r.GPUs) > 0 && len(r.Findings) == 0
}

// unjudged is rules less those r has a finding of.
func unjudged(r *Report, rules ...string) []string {
	return slices.DeleteFunc(rules, func(rule string) bool {
		return slices.ContainsFunc(r.Findings, func(f Finding) bool { return f.Rule == rule })
	})
}
