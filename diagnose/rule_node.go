package diagnose

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/stat"
)

// Thresholds of the multi-GPU rules; docs/references.md lists the keys.
const (
	// imbalanceBusy: the loaded GPU of a job is busy (docs/scenarios.md: ≥ 80).
	imbalanceBusy = 80.0
	// crowdedBusy: a GPU shared by several processes is loaded: two idle
	// notebooks on one card are not an imbalance.
	crowdedBusy = 50.0
	// stragglerRatio: one GPU ≥ 1.3× the median of the others ([pytorch-hta]
	// straggler analysis compares ranks with their median the same way).
	stragglerRatio = 1.3
	// stragglerGap: and at least 10 points above: ratios of small numbers
	// are noise.
	stragglerGap = 10.0
	// waitSMMax: the others show SM < 30% while util ≥ 80%: waiting in
	// collectives ([gpu-idle-handbook] §3.3: one card works, the rest
	// watch; their NCCL kernels resident, their SMs idle).
	waitSMMax = 30.0
	// commCorrMin: GPUs of one job dip together: pairwise util correlation ≥ 0.7
	// (a strong correlation: the dips are the job's own, e.g. all-reduce).
	commCorrMin = 0.7
	// commUtilMax: dips cost time only if the job's mean util is below 85%
	// (healthy DDP on NVLink sits at 95-100%: [pytorch-ddp] overlaps
	// communication with the backward pass).
	commUtilMax = 85.0
	// nvlinkBusyPct: NVLink above 10% of peak while SM < 30%
	// ([torch-tb-profiler] distributed view; [pytorch-hta] communication analysis).
	nvlinkBusyPct = 10.0
	// nvlinkFrac: in ≥ 30% of samples, so that communication overlapped in
	// a healthy job does not fire.
	nvlinkFrac = 0.3
	// nvlinkLinkBytes: one NVLink 4 link per direction, 900 GB/s over 18 links
	// both ways (NVIDIA's H100/H200 product specifications).
	nvlinkLinkBytes = 25e9
)

// The straggler thresholds, for the same rule across the nodes of one job
// (diagnose/fleetdiag): a node's GPUs stand to its job's other nodes as
// one GPU to the others here.
const (
	StragglerRatio = stragglerRatio
	StragglerGap   = stragglerGap
	WaitSMMax      = waitSMMax
	WaitUtilMin    = imbalanceBusy
)

// ruleLoadImbalance: work piled on one GPU while others sit empty: several
// processes on one card ([gpu-idle-handbook] §3.3: "one card works, the rest watch" when
// CUDA_VISIBLE_DEVICES / set_device is forgotten), or a job whose other GPUs
// idle. It is the node's view; gpu_contention may report the same card's
// time-slicing as that GPU's view.
func (c *ctx) ruleLoadImbalance() (Finding, bool) {
	if len(c.gpus) < 2 {
		return Finding{}, false
	}
	empty := c.emptyGPUs()
	for gi := range c.gpus {
		g := &c.gpus[gi]
		if !g.workload() || g.util.mean < crowdedBusy {
			continue
		}
		procs, users := c.independentProcs(g)
		if procs < 2 || empty*2 < len(c.gpus)-1 {
			continue
		}
		ev := append(Text{say("imbalance.procs", "GPU {{.GPU}} runs {{.Procs}} processes", "GPU", g.idx, "Procs", procs)}, users...)
		ev = append(ev, then("imbalance.empty", " at GPU-Util mean {{.Util}} while {{.Empty}} of {{.GPUs}} GPUs have no process and idle",
			"Util", pct(g.util.mean), "Empty", empty, "GPUs", len(c.gpus)))
		return c.nodeFinding(RuleLoadImbalance, Warning, 0,
			say("imbalance.title", "{{.Procs}} processes on GPU {{.GPU}}, {{.Empty}} {{plural .Empty \"GPU\" \"GPUs\"}} empty", "Procs", procs, "GPU", g.idx, "Empty", empty),
			ev, hintLoadImbalance, nil, g.from), true
	}
	for ji := range c.jobs {
		j := &c.jobs[ji]
		if len(j.gpus) < 2 {
			continue
		}
		busiest, idle := -1, 0
		for _, gi := range j.gpus {
			g := &c.gpus[gi]
			if !g.workload() {
				return Finding{}, false
			}
			if busiest < 0 || g.util.mean > c.gpus[busiest].util.mean {
				busiest = gi
			}
			if g.util.mean < idleUtil {
				idle++
			}
		}
		b := &c.gpus[busiest]
		if b.util.mean < imbalanceBusy || idle*2 < len(j.gpus)-1 {
			continue
		}
		ev := Text{say("imbalance.job", "job {{.Job}} spans {{.GPUs}} GPUs: GPU {{.GPU}} at GPU-Util mean {{.Util}}, {{.Idle}} of the others below {{.Limit}}",
			"Job", j.key, "GPUs", len(j.gpus), "GPU", b.idx, "Util", pct(b.util.mean), "Idle", idle, "Limit", pct(idleUtil))}
		return c.nodeFinding(RuleLoadImbalance, Warning, 0,
			say("imbalance.title_job", "GPU {{.GPU}} works while {{.Idle}} {{plural .Idle \"GPU\" \"GPUs\"}} of its job idle", "GPU", b.idx, "Idle", idle),
			ev, hintLoadImbalance, nil, b.from), true
	}
	return Finding{}, false
}

// independentProcs counts g's processes past their grace period that are not
// children of another process on g (a DataLoader worker touching CUDA), and
// names their users for the evidence.
func (c *ctx) independentProcs(g *gpuCtx) (n int, users Text) {
	var names []string
	for i := range g.last.Procs {
		p := &g.last.Procs[i]
		hp := hostProc(c.last, p, p.PID)
		if hp != nil && findProc(g.last, hp.PPID) != nil {
			continue
		}
		if c.last.Time.Sub(c.processStart(g.idx, p.PID, hp)) < graceNewProcess {
			continue
		}
		n++
		if hp != nil && hp.User != "" && !containsString(names, hp.User) {
			names = append(names, hp.User)
		}
	}
	switch len(names) {
	case 0:
	case 1:
		users = Text{then("imbalance.user", " of user {{.User}}", "User", names[0])}
	default:
		users = Text{then("imbalance.users", " of users {{.Users}}", "Users", strings.Join(names, ", "))}
	}
	return n, users
}

// ruleStraggler: in one job, one GPU works much harder while the others are
// "busy" with few SMs active: they wait for it in collectives ([gpu-idle-handbook] §3.3).
func (c *ctx) ruleStraggler(j *job) (Finding, int, bool) {
	if len(j.gpus) < 3 {
		return Finding{}, -1, false
	}
	useSM := true
	for _, gi := range j.gpus {
		g := &c.gpus[gi]
		if !g.workload() {
			return Finding{}, -1, false
		}
		useSM = useSM && g.sm.ok(g.samples)
	}
	level := func(g *gpuCtx) float64 {
		if useSM {
			return g.sm.mean
		}
		return g.power.mean
	}
	cand := j.gpus[0]
	for _, gi := range j.gpus {
		if level(&c.gpus[gi]) > level(&c.gpus[cand]) {
			cand = gi
		}
	}
	c.buf, c.buf2 = c.buf[:0], c.buf2[:0]
	waiting := 0
	for _, gi := range j.gpus {
		if gi == cand {
			continue
		}
		g := &c.gpus[gi]
		c.buf = append(c.buf, level(g))
		c.buf2 = append(c.buf2, g.util.mean)
		if g.util.mean >= imbalanceBusy && (!useSM || g.sm.mean < waitSMMax) {
			waiting++
		}
	}
	others, othersUtil := stat.Percentile(c.buf, 50), stat.Percentile(c.buf2, 50)
	cg := &c.gpus[cand]
	top := level(cg)
	if waiting*2 <= len(j.gpus)-1 || othersUtil < imbalanceBusy || top < stragglerRatio*others || top-others < stragglerGap {
		return Finding{}, -1, false
	}
	what := say("word.sm_active", "SM active")
	var est Text
	if !useSM {
		what = say("word.power_of_limit", "power (% of limit)")
		est = Text{say("est.no_gpm_sm_any", "no GPM SM activity on every GPU: estimated from power draw")}
	}
	ev := Text{say("straggler.ev", "GPU {{.GPU}} {{.What}} mean {{.Top}} vs median {{.Others}} on the job's {{.N}} other {{plural .N \"GPU\" \"GPUs\"}}, which show GPU-Util {{.Util}}",
		"GPU", cg.idx, "What", what, "Top", pct(top), "Others", pct(others), "N", len(j.gpus)-1, "Util", pct(othersUtil))}
	if useSM {
		ev = append(ev, then("straggler.waiting", " with SM active < {{.SM}} (waiting in collectives)", "SM", pct(waitSMMax)))
	}
	ev = append(ev, say("ev.who", "{{.Who}}", "Who", procWho(cg.main.PID, cg.mainHost)))
	return c.nodeFinding(RuleStraggler, Warning, cg.main.PID,
		say("straggler.title", "GPU {{.GPU}} is the straggler; {{.Waiting}} {{plural .Waiting \"GPU waits\" \"GPUs wait\"}} for it", "GPU", cg.idx, "Waiting", waiting),
		ev, hintStraggler, est, c.jobFrom(j)), cand, true
}

// ruleCommBound: a job's GPUs dip in lockstep over a PCIe path, or NVLink is
// busy while SMs idle ([gpu-idle-pipeline] §2.4; [gpu-idle-handbook] §3.3 and §7.1 step 6).
func (c *ctx) ruleCommBound(j *job) (Finding, bool) {
	if len(j.gpus) < 2 {
		return Finding{}, false
	}
	from := c.jobFrom(j)
	for _, gi := range j.gpus {
		if !c.gpus[gi].workload() {
			return Finding{}, false
		}
	}
	if f, ok := c.ruleCollectiveHang(j, from); ok {
		return f, true
	}
	link := c.jobLinks(j)
	meanUtil, corr := c.jobCorrelation(j, from)
	if corr >= commCorrMin && meanUtil < commUtilMax && link != "nvlink" {
		var est Text
		path := say("comm.over_pcie", "over PCIe ({{.Link}})", "Link", link)
		if link == "" {
			est = Text{say("est.no_topology", "topology unknown: link type not checked")}
			path = say("comm.link_unknown", "(link type unknown)")
		}
		ev := Text{say("comm.dips", "{{.GPUs}} GPUs of job {{.Job}} dip together: mean pairwise GPU-Util correlation {{.Corr}}, mean util {{.Util}}, peers linked {{.Path}}",
			"GPUs", len(j.gpus), "Job", j.key, "Corr", fmt.Sprintf("%.2f", corr), "Util", pct(meanUtil), "Path", path)}
		return c.nodeFinding(RuleCommBound, Warning, 0,
			say("comm.title", "{{.GPUs}}-GPU job waits on communication {{.Path}}", "GPUs", len(j.gpus), "Path", path), ev, hintCommPCIe, est, from), true
	}
	busy := 0
	var fsum float64
	for _, gi := range j.gpus {
		g := &c.gpus[gi]
		peak := 0.0
		for _, l := range g.last.NVLinks {
			if l.Active {
				peak += 2 * nvlinkLinkBytes
			}
		}
		if peak == 0 || !g.sm.ok(g.samples) {
			return Finding{}, false
		}
		f, _ := c.fracGPU(g, func(x *sampler.GPU) (bool, bool) {
			if !x.SMActive.OK || (!x.NVLinkRx.OK && !x.NVLinkTx.OK) {
				return false, false
			}
			return (x.NVLinkRx.Or(0)+x.NVLinkTx.Or(0))/peak*100 > nvlinkBusyPct && x.SMActive.V < waitSMMax, true
		})
		fsum += f
		if f >= nvlinkFrac {
			busy++
		}
	}
	if busy*2 <= len(j.gpus) {
		return Finding{}, false
	}
	ev := Text{say("comm.nvlink", "{{.Busy}} of {{.GPUs}} GPUs of job {{.Job}} move > {{.Peak}} of NVLink peak with SM active < {{.SM}} in {{.Share}} of samples on average",
		"Busy", busy, "GPUs", len(j.gpus), "Job", j.key, "Peak", pct(nvlinkBusyPct), "SM", pct(waitSMMax), "Share", pct(fsum/float64(len(j.gpus))*100))}
	return c.nodeFinding(RuleCommBound, Warning, 0,
		say("comm.title_nvlink", "{{.GPUs}}-GPU job dominated by NVLink communication", "GPUs", len(j.gpus)), ev, hintCommNVLink, nil, from), true
}
