package summary

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
		unjudged := "memory_idle_held / gpu_contention"
		if found(r, "gpu_contention") {
			unjudged = "memory_idle_held"
		}
		out = append(out, "processes: absent (the input lists none); "+unjudged+" cannot be judged")
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

// found says whether r has a finding of rule.
func found(r *Report, rule string) bool {
	for _, f := range r.Findings {
		if f.Rule == rule {
			return true
		}
	}
	return false
}
