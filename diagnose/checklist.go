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
	N     int
	Title string
	// Status is "ok", "warn", "bad", "n/a" (nothing to check) or "todo"
	// (not judged: the counters cannot see it, and the detail says what
	// would judge it).
	Status string
	Detail string
	// I18n is Detail as messages (Finding.I18n's kind), for a reader in
	// another language; Title is the step's own ("step.N" in ui/i18n).
	I18n Text `json:",omitempty"`
}

// setDetail sets the step's status and its detail, English and messages.
// Not inlined, as gpuIn: 8 call sites.
//
//go:noinline
func (s *Step) setDetail(status string, t Text) {
	s.Status, s.Detail, s.I18n = status, t.String(), t
}

// minObserve: "observe at least 60 seconds" [src: [gpu-idle-handbook] §7.1 step 2].
const minObserve = 60 * time.Second

// stepTitles are [gpu-idle-handbook] §7.1's seven steps, in order.
var stepTitles = [7]string{
	"Is the process really on the GPU?",
	"Utilisation curve over ≥ 60 s",
	"CPU usage",
	"Disk and network I/O",
	"Power, temperature and hardware errors",
	"Multi-GPU topology",
	"Kernel timeline (Nsight Systems / PyTorch Profiler)",
}

// stepsOf is the checklist steps (1-based) where a rule shows
// (RuleInfo.Steps); a rule this build does not know shows at step 7.
func stepsOf(rule string) []int {
	if r, ok := Lookup(rule); ok && len(r.Steps) > 0 {
		return r.Steps
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
	return checklists(window, findings, gpus, nil)
}

// checklists is Checklists with the window's series kept sorted in o
// across evaluations (orders.go); o nil: selected afresh.
func checklists(window []sampler.Snapshot, findings []Finding, gpus int, o *orders) [][]Step {
	base := baseStepsOrders(window, o)
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
func baseSteps(window []sampler.Snapshot) []Step { return baseStepsOrders(window, nil) }

// baseStepsOrders is baseSteps reading the series sorted in o (nil: none).
func baseStepsOrders(window []sampler.Snapshot, o *orders) []Step {
	steps := make([]Step, len(stepTitles))
	for i := range steps {
		steps[i] = Step{N: i + 1, Title: stepTitles[i], Status: "n/a"}
	}
	if len(window) == 0 {
		return steps
	}
	c := newCtxOrders(window, o)
	steps[0].setDetail(c.stepProcesses())
	steps[1].setDetail(c.stepUtil())
	steps[2].setDetail(c.stepCPU())
	steps[3].setDetail(c.stepIO())
	steps[4].setDetail(c.stepPower())
	steps[5].setDetail(c.stepTopology())
	// Counters cannot see kernels: without a kernel-level finding this
	// step is not judged, never "ok" ([gpu-idle-handbook] §7.1 step 7, §3.4).
	steps[6].setDetail("todo", Text{say("step.kernels_not_judged", "not judged: counters cannot see kernels; capture a trace (torch.profiler or nsys) to judge it")})
	if !c.anyProcess() {
		steps[6].setDetail("n/a", Text{say("step.no_process", "no process to profile")})
	}
	return steps
}

// markSteps raises each step's status to its findings' severity and names them.
func markSteps(steps []Step, findings []Finding) []Step {
	var titles [7]Text
	for _, f := range findings {
		title := say("step.finding", "{{.Title}}", "Title", f.Title) // a finding without messages
		if f.I18n != nil {
			title = f.I18n.Title
			title.en, title.raw = f.Title, false
		}
		for _, n := range stepsOf(f.Rule) {
			s := &steps[n-1]
			t := title
			t.Join = Clause
			if len(titles[n-1]) == 0 {
				t.Join = Continue
			}
			titles[n-1] = append(titles[n-1], t)
			switch {
			case f.Severity == Critical:
				s.Status = "bad"
			case f.Severity == Warning && s.Status != "bad":
				s.Status = "warn"
			case s.Status == "n/a" || s.Status == "todo":
				s.Status = "ok"
			}
		}
	}
	for i := range steps {
		if len(titles[i]) == 0 {
			continue
		}
		if i == 6 {
			steps[i].I18n = append(Text{say("step.profile_it", "profile it (torch.profiler), then gpuscope report TRACE: ")}, titles[i]...)
		} else {
			steps[i].I18n = append(append(slices.Clone(steps[i].I18n), then("step.dash", " — ")), titles[i]...)
		}
		steps[i].Detail = steps[i].I18n.String()
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

func (c *ctx) stepProcesses() (string, Text) {
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
		return "n/a", Text{say("step.no_compute", "no compute process on any of {{.GPUs}} {{plural .GPUs \"GPU\" \"GPUs\"}}", "GPUs", len(c.gpus))}
	}
	// Counts first: the side pane cuts long lines, and "GPU 0,1,2…" cut
	// after the first index read as "all on GPU 0".
	detail := Text{say("step.procs", "{{.Procs}} processes on {{.With}} of {{.GPUs}} GPUs", "Procs", pids, "With", with, "GPUs", len(c.gpus))}
	if pids == 1 {
		detail = Text{say("step.proc", "1 process on {{.With}} of {{.GPUs}} {{plural .GPUs \"GPU\" \"GPUs\"}}", "With", with, "GPUs", len(c.gpus))}
	}
	if len(without) > 0 {
		detail = append(detail, say("step.none_on", "none on GPU {{.GPUs}}", "GPUs", strings.Join(without, ",")))
	}
	return "ok", detail
}

func (c *ctx) stepUtil() (string, Text) {
	busiest := -1
	for gi := range c.gpus {
		if g := &c.gpus[gi]; g.util.n > 0 && (busiest < 0 || g.util.mean > c.gpus[busiest].util.mean) {
			busiest = gi
		}
	}
	detail := Text{say("step.data", "{{.Span}} of data", "Span", secs(c.span))}
	if busiest >= 0 {
		g := &c.gpus[busiest]
		detail = append(detail, say("step.busiest_util", "busiest GPU {{.GPU}} util p5 {{.P5}} / p50 {{.P50}} / p95 {{.P95}}",
			"GPU", g.idx, "P5", pct(g.util.p5), "P50", pct(g.util.p50), "P95", pct(g.util.p95)))
	}
	if c.span < minObserve {
		return "warn", append(detail, say("step.watch_60s", "watch at least 60 s before judging"))
	}
	return "ok", detail
}

func (c *ctx) stepCPU() (string, Text) {
	if !c.hostSeen {
		return "n/a", Text{say("step.no_host", "no host data")}
	}
	var detail Text
	if v, ok := c.hostMean(0, func(h *sampler.Host) sampler.Metric { return h.CPU }); ok {
		detail = Text{say("ev.host_cpu", "host CPU {{.CPU}}", "CPU", pct(v))}
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
		detail = append(detail, say("step.busiest_proc", "busiest GPU process {{.Who}} at {{.CPU}} of a core",
			"Who", procWho(g.main.PID, g.mainHost), "CPU", pct(topCPU)))
	}
	return "ok", detail
}

func (c *ctx) stepIO() (string, Text) {
	if !c.hostSeen {
		return "n/a", Text{say("step.no_host", "no host data")}
	}
	var parts Text
	if v, ok := c.hostMean(0, func(h *sampler.Host) sampler.Metric { return h.IOWait }); ok {
		parts = append(parts, item("ev.iowait", "iowait {{.IOWait}}", "IOWait", pct(v)))
	}
	if v, ok := c.hostMean(0, func(h *sampler.Host) sampler.Metric { return h.DiskRead }); ok {
		parts = append(parts, item("step.disk_read", "disk read {{.Rate}}", "Rate", gbps(v)))
	}
	if v, ok := c.hostMean(0, func(h *sampler.Host) sampler.Metric { return h.NetRx }); ok {
		parts = append(parts, item("step.net_rx", "net rx {{.Rate}}", "Rate", gbps(v)))
	}
	return "ok", parts
}

func (c *ctx) stepPower() (string, Text) {
	var parts Text
	gpus := 0
	for gi := range c.gpus {
		g := &c.gpus[gi]
		if g.main == nil || g.power.n == 0 {
			continue
		}
		parts = append(parts, say("step.power", "GPU {{.GPU}} power p50 {{.Power}} of limit", "GPU", g.idx, "Power", pct(g.power.p50)))
		if g.last.Temp.OK {
			parts = append(parts, then("step.temp", ", {{.Temp}} °C", "Temp", f0(g.last.Temp.V)))
		}
		if gpus++; gpus == 4 { // a checklist line, not a table
			break
		}
	}
	if len(parts) == 0 {
		return "n/a", Text{say("step.no_power", "no busy GPU with power readings")}
	}
	return "ok", parts
}

func (c *ctx) stepTopology() (string, Text) {
	for ji := range c.jobs {
		j := &c.jobs[ji]
		if len(j.gpus) < 2 {
			continue
		}
		var link Msg
		switch l := c.jobLinks(j); l {
		case "":
			link = say("step.link_unknown", "link type unknown")
		case "nvlink":
			link = say("step.nvlink", "NVLink")
		default:
			link = say("step.pcie_only", "PCIe only ({{.Link}})", "Link", l)
		}
		return "ok", Text{say("step.job", "job {{.Job}} on {{.GPUs}} GPUs: {{.Link}}", "Job", j.key, "GPUs", len(j.gpus), "Link", link)}
	}
	return "n/a", Text{say("step.no_multi_gpu", "no multi-GPU job")}
}
