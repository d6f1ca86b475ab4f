package summary

// absent lists what the input lacks, and what that leaves unjudged.
func absent(r *Report) []string {
	var out []string
	if !r.Environment.HostData {
		out = append(out, "host data: absent (an imported log); input_starved / io_bound / sync_stall are not measured: a GPU-Util pattern that points at them names the candidates and the command that tells them apart")
	}
	if !r.Environment.Processes {
		out = append(out, "processes: absent (the input lists none); memory_idle_held / gpu_contention cannot be judged")
	}
	sm := false
	for _, g := range r.GPUs {
		sm = sm || g.SMActive != nil
	}
	if !sm {
		out = append(out, "SM activity: absent (no GPM metrics: needs Hopper or newer, or dcgmi profiling fields); GPU-Util alone cannot tell busy from full")
	}
	return out
}
