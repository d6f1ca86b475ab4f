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
		ev := fmt.Sprintf("GPU %d runs %d processes%s at GPU-Util mean %s while %d of %d GPUs have no process and idle",
			g.idx, procs, users, pct(g.util.mean), empty, len(c.gpus))
		return c.nodeFinding(RuleLoadImbalance, Warning, 0,
			fmt.Sprintf("%d processes on GPU %d, %d GPUs empty", procs, g.idx, empty), ev, hintLoadImbalance, "", g.from), true
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
		ev := fmt.Sprintf("job %d spans %d GPUs: GPU %d at GPU-Util mean %s, %d of the others below %s",
			j.key, len(j.gpus), b.idx, pct(b.util.mean), idle, pct(idleUtil))
		return c.nodeFinding(RuleLoadImbalance, Warning, 0,
			fmt.Sprintf("GPU %d works while %d GPUs of its job idle", b.idx, idle), ev, hintLoadImbalance, "", b.from), true
	}
	return Finding{}, false
}

// independentProcs counts g's processes past their grace period that are not
// children of another process on g (a DataLoader worker touching CUDA), and
// names their users for the evidence.
func (c *ctx) independentProcs(g *gpuCtx) (n int, users string) {
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
		users = " of user " + names[0]
	default:
		users = " of users " + strings.Join(names, ", ")
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
	what, est := "SM active", ""
	if !useSM {
		what, est = "power (% of limit)", "no GPM SM activity on every GPU: estimated from power draw"
	}
	ev := fmt.Sprintf("GPU %d %s mean %s vs median %s on the job's %d other GPUs, which show GPU-Util %s",
		cg.idx, what, pct(top), pct(others), len(j.gpus)-1, pct(othersUtil))
	if useSM {
		ev += " with SM active < " + pct(waitSMMax) + " (waiting in collectives)"
	}
	ev += "; " + procLabel(cg.main.PID, cg.mainHost)
	return c.nodeFinding(RuleStraggler, Warning, cg.main.PID,
		fmt.Sprintf("GPU %d is the straggler; %d GPUs wait for it", cg.idx, waiting), ev, hintStraggler, est, c.jobFrom(j)), cand, true
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
	link := c.jobLinks(j)
	meanUtil, corr := c.jobCorrelation(j, from)
	if corr >= commCorrMin && meanUtil < commUtilMax && link != "nvlink" {
		est, path := "", "over PCIe ("+link+")"
		if link == "" {
			est, path = "topology unknown: link type not checked", "(link type unknown)"
		}
		ev := fmt.Sprintf("%d GPUs of job %d dip together: mean pairwise GPU-Util correlation %.2f, mean util %s, peers linked %s",
			len(j.gpus), j.key, corr, pct(meanUtil), path)
		return c.nodeFinding(RuleCommBound, Warning, 0,
			fmt.Sprintf("%d-GPU job waits on communication %s", len(j.gpus), path), ev, hintCommPCIe, est, from), true
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
	ev := fmt.Sprintf("%d of %d GPUs of job %d move > %s of NVLink peak with SM active < %s in %s of samples on average",
		busy, len(j.gpus), j.key, pct(nvlinkBusyPct), pct(waitSMMax), pct(fsum/float64(len(j.gpus))*100))
	return c.nodeFinding(RuleCommBound, Warning, 0,
		fmt.Sprintf("%d-GPU job dominated by NVLink communication", len(j.gpus)), ev, hintCommNVLink, "", from), true
}
