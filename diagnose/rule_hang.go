package diagnose

import "github.com/gpuscope/gpuscope/sampler"

// ruleCollectiveHang: every GPU of one job at 100 % GPU-Util with its SMs
// idle (or, without GPM, its power low) for most of the window. Ranks
// waiting for a peer spin in NCCL kernels ([nccl-troubleshooting];
// [gpu-idle-handbook] §3.3): a flat 100 % with nothing done is a
// collective that waits or hangs, not kernels that are too small. The
// straggler rule, run first, claims the case where one GPU still works.
func (c *ctx) ruleCollectiveHang(j *job, from int) (Finding, bool) {
	useSM := true
	for _, gi := range j.gpus {
		g := &c.gpus[gi]
		useSM = useSM && g.sm.ok(g.samples)
	}
	for _, gi := range j.gpus {
		f, known := c.fracGPU(&c.gpus[gi], func(x *sampler.GPU) (bool, bool) {
			if !x.Util.OK {
				return false, false
			}
			if useSM {
				return x.Util.V >= evSpinUtil && x.SMActive.OK && x.SMActive.V < waitSMMax, x.SMActive.OK
			}
			p, ok := ratioPct(x.Power, x.PowerLimit)
			return x.Util.V >= evSpinUtil && ok && p < noGPMPower, ok
		})
		if known == 0 || f < mostOfWindow {
			return Finding{}, false
		}
	}
	what, limit := say("word.sm_active", "SM active"), pct(waitSMMax)
	var est Text
	if !useSM {
		what, limit = say("word.power_of_limit", "power (% of limit)"), pct(noGPMPower)
		est = Text{say("est.no_gpm_sm_any", "no GPM SM activity on every GPU: estimated from power draw")}
	}
	ev := Text{say("comm.hang", "all {{.GPUs}} GPUs of job {{.Job}} at GPU-Util ≥ {{.Util}} with {{.What}} below {{.Limit}} in most of {{.Span}}",
		"GPUs", len(j.gpus), "Job", j.key, "Util", pct(evSpinUtil), "What", what, "Limit", limit, "Span", secs(c.gpus[j.gpus[0]].span))}
	return c.nodeFinding(RuleCommBound, Warning, 0,
		say("comm.title_hang", "{{.GPUs}}-GPU job spins in communication: a collective waits or hangs", "GPUs", len(j.gpus)), ev, hintHang, est, from), true
}
