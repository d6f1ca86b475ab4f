package diagnose

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Step is one step of [gpu-idle-handbook] §7.1's troubleshooting order, checked live.
type Step struct {
	N      int
	Title  string
	Status string // "ok", "warn", "bad" or "n/a"
	Detail string
}

// minObserve: "observe at least 60 seconds" [src: [gpu-idle-handbook] §7.1 step 2].
const minObserve = 60 * time.Second

// stepTitles are [gpu-idle-handbook] §7.1's seven steps, in order.
var stepTitles = [7]string{
	"Is the process really on the GPU?",
	"Utilisation curve over ≥ 60 s",
	"CPU usage",
	"Disk and network I/O",
	"Power and temperature",
	"Multi-GPU topology",
	"Kernel timeline (Nsight Systems / PyTorch Profiler)",
}

// stepsOf maps a rule to the checklist steps (1-based) where it shows.
func stepsOf(rule string) []int {
	switch rule {
	case RuleLoadImbalance, RuleGPUContention, RuleMemoryIdleHeld, RuleXidError, RuleECCErrors:
		return []int{1}
	case RuleServingUnderfilled:
		return []int{2}
	case RuleInputStarved:
		return []int{3}
	case RuleIOBound:
		return []int{4}
	case RulePowerCapped, RuleThermalThrottle:
		return []int{5}
	case RuleLaunchBound: // [gpu-idle-handbook] §7.1 step 5: power far below TDP = no heavy compute
		return []int{5, 7}
	case RuleStraggler, RuleCommBound, RulePCIeLinkDegraded, RulePCIeErrors:
		return []int{6}
	}
	return []int{7}
}

// Checklist walks [gpu-idle-handbook] §7.1's seven steps over the window, marking each
// with the findings that belong to it.
func Checklist(window []sampler.Snapshot, findings []Finding) []Step {
	if len(window) == 0 {
		return baseSteps(window)
	}
	return markSteps(baseSteps(window), findings)
}

// Checklists is Checklist for each of gpus GPU positions (at least one, and
// one for every GPU a finding names), each marked with that GPU's findings
// and the node-wide ones. The steps' own readings are node-wide, so they
// are read once.
func Checklists(window []sampler.Snapshot, findings []Finding, gpus int) [][]Step {
	base := baseSteps(window)
	n := max(gpus, 1)
	for _, f := range findings {
		n = max(n, f.GPU+1)
	}
	out := make([][]Step, n)
	for g := range out {
		out[g] = slices.Clone(base)
		if len(window) > 0 {
			out[g] = markSteps(out[g], ForGPU(findings, g))
		}
	}
	return out
}

// ForGPU keeps the findings about GPU gpu and the node-wide ones.
func ForGPU(fs []Finding, gpu int) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.GPU == gpu || f.GPU < 0 {
			out = append(out, f)
		}
	}
	return out
}

// baseSteps are the seven steps read from the window, before findings.
func baseSteps(window []sampler.Snapshot) []Step {
	steps := make([]Step, len(stepTitles))
	for i := range steps {
		steps[i] = Step{N: i + 1, Title: stepTitles[i], Status: "n/a"}
	}
	if len(window) == 0 {
		return steps
	}
	c := newCtx(window)
	steps[0].Status, steps[0].Detail = c.stepProcesses()
	steps[1].Status, steps[1].Detail = c.stepUtil()
	steps[2].Status, steps[2].Detail = c.stepCPU()
	steps[3].Status, steps[3].Detail = c.stepIO()
	steps[4].Status, steps[4].Detail = c.stepPower()
	steps[5].Status, steps[5].Detail = c.stepTopology()
	steps[6].Status, steps[6].Detail = "ok", "no kernel-level pattern seen"
	if !c.anyProcess() {
		steps[6].Status, steps[6].Detail = "n/a", "no process to profile"
	}
	return steps
}

// markSteps raises each step's status to its findings' severity and names them.
func markSteps(steps []Step, findings []Finding) []Step {
	var titles [7][]string
	for _, f := range findings {
		for _, n := range stepsOf(f.Rule) {
			s := &steps[n-1]
			titles[n-1] = append(titles[n-1], f.Title)
			switch {
			case f.Severity == Critical:
				s.Status = "bad"
			case f.Severity == Warning && s.Status != "bad":
				s.Status = "warn"
			case s.Status == "n/a":
				s.Status = "ok"
			}
		}
	}
	for i := range steps {
		if len(titles[i]) > 0 {
			if i == 6 {
				steps[i].Detail = "profile it: " + strings.Join(titles[i], "; ")
			} else {
				steps[i].Detail += " — " + strings.Join(titles[i], "; ")
			}
		}
	}
	return steps
}

func (c *ctx) anyProcess() bool {
	for gi := range c.gpus {
		if c.gpus[gi].main != nil {
			return true
		}
	}
	return false
}

func (c *ctx) stepProcesses() (string, string) {
	var without []string
	pids, with := 0, 0
	for gi := range c.gpus {
		if n := len(c.gpus[gi].last.Procs); n > 0 {
			with++
			pids += n
		} else {
			without = append(without, fmt.Sprint(c.gpus[gi].idx))
		}
	}
	if with == 0 {
		return "n/a", fmt.Sprintf("no compute process on any of %d GPUs", len(c.gpus))
	}
	// Counts first: the side pane cuts long lines, and "GPU 0,1,2…" cut
	// after the first index read as "all on GPU 0".
	procs := fmt.Sprintf("%d processes", pids)
	if pids == 1 {
		procs = "1 process"
	}
	detail := fmt.Sprintf("%s on %d of %d GPUs", procs, with, len(c.gpus))
	if len(without) > 0 {
		detail += "; none on GPU " + strings.Join(without, ",")
	}
	return "ok", detail
}

func (c *ctx) stepUtil() (string, string) {
	busiest := -1
	for gi := range c.gpus {
		if g := &c.gpus[gi]; g.util.n > 0 && (busiest < 0 || g.util.mean > c.gpus[busiest].util.mean) {
			busiest = gi
		}
	}
	detail := fmt.Sprintf("%s of data", secs(c.span))
	if busiest >= 0 {
		g := &c.gpus[busiest]
		detail += fmt.Sprintf("; busiest GPU %d util p5 %s / p50 %s / p95 %s", g.idx, pct(g.util.p5), pct(g.util.p50), pct(g.util.p95))
	}
	if c.span < minObserve {
		return "warn", detail + "; watch at least 60 s before judging"
	}
	return "ok", detail
}

func (c *ctx) stepCPU() (string, string) {
	if !c.hostSeen {
		return "n/a", "no host data"
	}
	detail := ""
	if v, ok := c.hostMean(0, func(h *sampler.Host) sampler.Metric { return h.CPU }); ok {
		detail = "host CPU " + pct(v)
	}
	top, topCPU := -1, -1.0
	for gi := range c.gpus {
		if g := &c.gpus[gi]; g.main != nil {
			if v, ok := c.procCPU(g, g.main.PID); ok && v > topCPU {
				top, topCPU = gi, v
			}
		}
	}
	if top >= 0 {
		g := &c.gpus[top]
		detail = joinNonEmpty(detail, fmt.Sprintf("busiest GPU process %s at %s of a core", procLabel(g.main.PID, g.mainHost), pct(topCPU)))
	}
	return "ok", detail
}

func (c *ctx) stepIO() (string, string) {
	if !c.hostSeen {
		return "n/a", "no host data"
	}
	var parts []string
	if v, ok := c.hostMean(0, func(h *sampler.Host) sampler.Metric { return h.IOWait }); ok {
		parts = append(parts, "iowait "+pct(v))
	}
	if v, ok := c.hostMean(0, func(h *sampler.Host) sampler.Metric { return h.DiskRead }); ok {
		parts = append(parts, "disk read "+gbps(v))
	}
	if v, ok := c.hostMean(0, func(h *sampler.Host) sampler.Metric { return h.NetRx }); ok {
		parts = append(parts, "net rx "+gbps(v))
	}
	return "ok", strings.Join(parts, ", ")
}

func (c *ctx) stepPower() (string, string) {
	var parts []string
	for gi := range c.gpus {
		g := &c.gpus[gi]
		if g.main == nil || g.power.n == 0 {
			continue
		}
		temp := ""
		if g.last.Temp.OK {
			temp = fmt.Sprintf(", %.0f °C", g.last.Temp.V)
		}
		parts = append(parts, fmt.Sprintf("GPU %d power p50 %s of limit%s", g.idx, pct(g.power.p50), temp))
		if len(parts) == 4 { // a checklist line, not a table
			break
		}
	}
	if len(parts) == 0 {
		return "n/a", "no busy GPU with power readings"
	}
	return "ok", strings.Join(parts, "; ")
}

func (c *ctx) stepTopology() (string, string) {
	for ji := range c.jobs {
		j := &c.jobs[ji]
		if len(j.gpus) < 2 {
			continue
		}
		link := c.jobLinks(j)
		switch link {
		case "":
			link = "link type unknown"
		case "nvlink":
			link = "NVLink"
		default:
			link = "PCIe only (" + link + ")"
		}
		return "ok", fmt.Sprintf("job %d on %d GPUs: %s", j.key, len(j.gpus), link)
	}
	return "n/a", "no multi-GPU job"
}
