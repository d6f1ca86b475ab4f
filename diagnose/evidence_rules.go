package diagnose

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

var (
	hintSpin = fix{"spin", "GPU-Util counts time a kernel ran, not work done ([gpu-idle-pipeline] §1): at this power the kernels are " +
		"spinning or use a few SMs. Check that the job advances (step counter, loss); py-spy dump --pid <PID> " +
		"shows where the host waits; in a multi-GPU job NCCL_DEBUG=INFO and a stack dump of every rank find a hung collective"}
	hintSwing = fix{"swing", "Tell input from sync apart: while GPU-Util dips, is a DataLoader worker at 100 % CPU " +
		"(top -H -p <PID>; gpuscope live shows it) — then input ([gpu-idle-pipeline] §3.1 §4.1) — or only the main thread " +
		"— then a host sync (.item(), logging) ([gpu-idle-pipeline] §2.4 §4.5); one profiled step (torch.profiler or " +
		"nsys profile --trace=cuda,osrt) shows which"}
	hintIdleSnapshot = fix{"idle_snapshot", "Check whether the GPU stays idle: nvidia-smi dmon -s um -c 30 (30 s); if it does, the job " +
		"holds more GPUs than it uses (CUDA_VISIBLE_DEVICES) or an idle process keeps its memory ([gpu-idle-handbook] §6.1 §8.1)"}
)

// memory: nearly full memory; memory held while the GPU is idle.
func (e *evCtx) memory(g *sampler.GPU) {
	e.memoryFull(g)
	if len(e.snaps) >= evSeriesMin || !idleHolding(g) {
		return // a series is judged by series(), which sees every sample
	}
	if !listsProcs(e.last) {
		// One table with no process listed cannot tell memory left behind
		// from a served model between requests: vLLM, sglang and TRT-LLM
		// preallocate ~90 % and read 0 % while they wait (corpus:
		// smi-table-2x3090-610-kmd-loaded-idle-*, smi-table-2xb200-580-trtllm-*);
		// the report says processes are absent and the rule is not judged.
		return
	}
	ev := Text{say("evidence.idle_held", "GPU-Util 0% while {{.Held}} of memory is held", "Held", gbytes(g.MemUsed.V))}
	if n := len(g.Procs); n > 0 {
		ev = append(ev, then("evidence.by_procs", " by {{.N}} {{plural .N \"process\" \"processes\"}}", "N", n))
	}
	if busy := busyOthers(e.last, g.Index); busy != "" {
		ev = append(ev, say("evidence.busy_others", "{{.GPUs}} busy at the same time", "GPUs", busy))
	}
	e.add(RuleMemoryIdleHeld, Info, g.Index, say("evidence.idle_held_title", "GPU {{.GPU}} idle while holding {{.Held}}", "GPU", g.Index, "Held", gbytes(g.MemUsed.V)),
		ev, hintIdleSnapshot, e.oneShot(say("evidence.util_period", "GPU-Util covers the last sample period only (1/6 s to 1 s): a pause "+
			"between steps also reads 0 %; 30 s of dmon would confirm")), Use{g.Index, "util"}, Use{g.Index, "mem_used"})
}

// idleHolding: 0 % GPU-Util with more than evHeldBytes of memory, not an
// encoder/decoder load (NVENC/NVDEC work leaves GPU-Util at 0), not MIG,
// and not drawing half its power limit or more: a board at its power
// limit is working whatever GPU-Util says (a mining rig in the corpus,
// smi-table-4xgtx1070-..., reads 0 % at 100 W of 100 W).
//
// When processes are listed, compute processes must hold that much: a
// desktop's compositor, browser and editor (graphics processes) hold
// memory on an idle display GPU by design (corpus: smi-q-x-rtx4000sffada-...).
func idleHolding(g *sampler.GPU) bool {
	drawing := g.Power.OK && g.PowerLimit.OK && g.PowerLimit.V > 0 && g.Power.V >= 0.5*g.PowerLimit.V
	held := g.MemUsed.OK && g.MemUsed.V >= evHeldBytes
	if len(g.Procs) > 0 {
		compute := 0.0
		for _, p := range g.Procs {
			if strings.Contains(p.Type, "C") {
				compute += p.MemUsed.Or(evHeldBytes) // unknown: count it as holding
			}
		}
		held = held && compute >= evHeldBytes
	}
	return g.Util.OK && g.Util.V == 0 && held && !g.MIG && !codecBusy(g) && !drawing
}

// listsProcs: the snapshot lists a process on some GPU.
func listsProcs(s *sampler.Snapshot) bool {
	for i := range s.GPUs {
		if len(s.GPUs[i].Procs) > 0 {
			return true
		}
	}
	return false
}

func codecBusy(g *sampler.GPU) bool {
	return g.EncUtil.OK && g.EncUtil.V > 0 || g.DecUtil.OK && g.DecUtil.V > 0
}

// busyOthers lists the other GPUs above evBusyUtil ("GPU 0, 1").
func busyOthers(s *sampler.Snapshot, self int) string {
	var ids []string
	for i := range s.GPUs {
		o := &s.GPUs[i]
		if o.Index != self && o.Util.OK && o.Util.V >= evBusyUtil {
			ids = append(ids, fmt.Sprint(o.Index))
		}
	}
	if len(ids) == 0 {
		return ""
	}
	return "GPU " + strings.Join(ids, ", ")
}

// busy: what a loaded GPU's snapshot proves — clocks held down now, a link
// trained below its capability, 100 % GPU-Util at a small share of power.
func (e *evCtx) busy(g *sampler.GPU) {
	ce := g.ClockEvents
	switch {
	case ce.Has(sampler.ClockHwSlowdown | sampler.ClockHwThermal | sampler.ClockSwThermal):
		sev, hint := Warning, hintThermal
		if ce.Has(sampler.ClockHwSlowdown | sampler.ClockHwThermal) {
			sev, hint = Critical, hintThermalHW
		}
		e.add(RuleThermalThrottle, sev, g.Index, say("evidence.clocks_title", "GPU {{.GPU}} clocks held down now: {{.Reasons}}", "GPU", g.Index,
			"Reasons", strings.Join(ce.Names(), ", ")), append(Text{say("evidence.reasons_now", "clock event reasons active at this instant")}, tempNote(g)...), hint,
			e.oneShot(say("evidence.instant", "an active reason is a fact of that instant; how long it lasts needs a series")), Use{g.Index, "clock_events"})
	case powerHeld(g) && (g.Util.OK && g.Util.V > 0 || !g.Util.OK):
		e.add(RulePowerCapped, Warning, g.Index, say("evidence.power_title", "GPU {{.GPU}} clocks held down by the power limit now", "GPU", g.Index),
			append(Text{say("evidence.reasons", "clock event reasons active: {{.Reasons}}", "Reasons", strings.Join(ce.Names(), ", "))}, powerNote(g)...), hintPowerCap,
			e.oneShot(say("evidence.instant", "an active reason is a fact of that instant; how long it lasts needs a series")), Use{g.Index, "clock_events"})
	}
	lanes := g.PCIeWidth.OK && g.PCIeWidthMax.OK && g.PCIeWidth.V < g.PCIeWidthMax.V
	if lanes && (!g.Util.OK || g.Util.V < evBusyUtil || g.MIG) {
		// The lane count does not drop to save power the way the
		// generation does ([nvml-api]: an idle GPU lowers its link speed;
		// the width it trained to stays): fewer lanes at idle are a fault.
		e.add(RulePCIeLinkDegraded, Warning, g.Index, say("evidence.lanes_title", "GPU {{.GPU}} PCIe link trained to x{{.Width}} of x{{.WidthMax}}", "GPU", g.Index,
			"Width", m0(g.PCIeWidth), "WidthMax", m0(g.PCIeWidthMax)),
			Text{say("evidence.lanes", "x{{.Width}} of x{{.WidthMax}} lanes at {{.Util}}% GPU-Util: a link keeps the lanes it trained to at any load, so idle is no excuse",
				"Width", m0(g.PCIeWidth), "WidthMax", m0(g.PCIeWidthMax), "Util", m0(g.Util))}, hintPCIeLink,
			e.oneShot(say("evidence.pcie_fair", "the link retrains only on reset, so one busy reading is fair evidence; Max is the GPU's, a host slot may allow less")),
			Use{g.Index, "pcie_width"}, Use{g.Index, "util"})
	}
	if !g.Util.OK || g.Util.V < evBusyUtil || g.MIG {
		return // idle: a slower generation is power saving; MIG: no device GPU-Util
	}
	if g.PCIeGen.OK && g.PCIeGenMax.OK && g.PCIeGen.V < g.PCIeGenMax.V || lanes {
		e.add(RulePCIeLinkDegraded, Warning, g.Index, say("evidence.pcie_title", "GPU {{.GPU}} PCIe link below its capability while busy", "GPU", g.Index),
			Text{say("evidence.pcie", "Gen {{.Gen}} x{{.Width}} of Gen {{.GenMax}} x{{.WidthMax}} at {{.Util}}% GPU-Util", "Gen", m0(g.PCIeGen), "Width", m0(g.PCIeWidth),
				"GenMax", m0(g.PCIeGenMax), "WidthMax", m0(g.PCIeWidthMax), "Util", f0(g.Util.V))}, hintPCIeLink,
			e.oneShot(say("evidence.pcie_fair", "the link retrains only on reset, so one busy reading is fair evidence; Max is the GPU's, a host slot may allow less")),
			Use{g.Index, "pcie_gen"}, Use{g.Index, "util"})
	}
	if spins(g) && !e.noSpin[g.Index] && !e.spinUnjudged() {
		ev := Text{say("evidence.spin", "GPU-Util {{.Util}}% at {{.Power}} W of a {{.Limit}} W limit ({{.Pct}}%)", "Util", f0(g.Util.V),
			"Power", f0(g.Power.V), "Limit", f0(g.PowerLimit.V), "Pct", f0(100*g.Power.V/g.PowerLimit.V))}
		if n := e.spinning(); n > 1 {
			ev = append(ev, say("evidence.spin_many", "{{.N}} GPUs look the same: in a multi-GPU job, often a collective waiting on a rank", "N", n))
		}
		e.add(RuleLaunchBound, Warning, g.Index, say("evidence.spin_title", "GPU {{.GPU}} at 100% GPU-Util but drawing little power", "GPU", g.Index),
			ev, hintSpin, e.oneShot(say("evidence.spin_series", "a series (nvidia-smi dmon -s pu -c 30) would show whether it persists")),
			Use{g.Index, "util"}, Use{g.Index, "power"})
	}
}

// spinUnjudged: several GPUs spin but not all (no collective over the
// node, see collective) and no process is listed to say whose they are.
// One table cannot then tell one job's ranks waiting on a peer, several
// users' jobs, and small kernels apart, so launch_bound is not named (a
// shared 8x4090 server in the corpus, smi-table-collapsed-8x4090-*; the
// report says processes are absent).
func (e *evCtx) spinUnjudged() bool {
	return e.spinning() > 1 && !listsProcs(e.last)
}

// spinning counts the GPUs of the last snapshot in the 100 %-at-low-power state.
func (e *evCtx) spinning() int {
	n := 0
	for i := range e.last.GPUs {
		g := &e.last.GPUs[i]
		if g.Util.OK && g.Util.V >= evSpinUtil && g.Power.OK && g.PowerLimit.OK && g.Power.V <= evSpinPower*g.PowerLimit.V {
			n++
		}
	}
	return n
}

func tempNote(g *sampler.GPU) Text {
	if g.Temp.OK {
		return Text{say("evidence.temp", "{{.Temp}} °C", "Temp", f0(g.Temp.V))}
	}
	return nil
}

// powerHeld: clocks held by power at this instant. The power brake is the
// board's or the host's signal. The software cap is also what any GPU
// drawing its limit at full load shows (nvidia-smi's documentation: the GPU
// is consuming too much power), so alone, with no power reading beside it,
// it cannot tell a lowered limit from the card's own envelope (a -q
// fragment of a loaded GPU, corpus b11-smi-q-clocks-event-reasons-*).
func powerHeld(g *sampler.GPU) bool {
	ce := g.ClockEvents
	return ce.Has(sampler.ClockHwPowerBrake) || ce.Has(sampler.ClockSwPowerCap) && g.Power.OK && g.PowerLimit.OK
}

func powerNote(g *sampler.GPU) Text {
	if g.Power.OK && g.PowerLimit.OK {
		return Text{say("evidence.power", "{{.Power}} W of {{.Limit}} W", "Power", f0(g.Power.V), "Limit", f0(g.PowerLimit.V))}
	}
	return nil
}

// m0 is not inlined, as gpuIn: 10 call sites.
//
//go:noinline
func m0(m sampler.Metric) string {
	if !m.OK {
		return "?"
	}
	return fmt.Sprintf("%.0f", m.V)
}

// multiGPU: one job on several GPUs whose links are PCIe (PIX/PXB/PHB/
// NODE/SYS) with no NVLink. A job is told by a PID on several GPUs, or by
// the same process name on several (torchrun ranks).
func (e *evCtx) multiGPU() {
	t := e.last.Topology
	if t == nil || slices.ContainsFunc(e.out, func(f Finding) bool { return f.Rule == RuleCommBound && f.GPU < 0 }) {
		return // no topology; or a collective already names the job's wait
	}
	jobs := map[string][]int{}
	for i := range e.last.GPUs {
		g := &e.last.GPUs[i]
		seen := map[string]bool{}
		for _, p := range g.Procs {
			key := fmt.Sprint("pid ", p.PID)
			if p.Host != nil && p.Host.Name != "" {
				key = p.Host.Name
			}
			if !seen[key] && strings.Contains(p.Type, "C") {
				seen[key] = true
				jobs[key] = append(jobs[key], g.Index)
			}
		}
	}
	keys := make([]string, 0, len(jobs))
	for k := range jobs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		gpus := jobs[k]
		if len(gpus) < 2 {
			continue
		}
		links, nv := pairLinks(t, gpus)
		if nv || links == "" {
			continue
		}
		uses := make([]Use, 0, len(gpus))
		for _, i := range gpus {
			uses = append(uses, Use{i, "topology"}, Use{i, "procs"})
		}
		e.add(RuleCommBound, Info, -1, say("evidence.comm_title", "One job ({{.Job}}) spans GPUs {{.GPUs}} connected over PCIe, no NVLink", "Job", k, "GPUs", joinInts(gpus)),
			Text{say("evidence.links", "links: {{.Links}}", "Links", links)}, hintCommPCIe,
			Text{say("evidence.comm_est", "topology and process list only: the links are a fact; whether communication is the bottleneck needs a series "+
				"(nvidia-smi dmon -s t shows rxpci/txpci while the job runs)")}, uses...)
	}
}

// pairLinks lists the links between every pair of gpus; nv reports any NVLink.
func pairLinks(t *sampler.Topology, gpus []int) (string, bool) {
	var parts []string
	for a := 0; a < len(gpus); a++ {
		for b := a + 1; b < len(gpus); b++ {
			i, j := gpus[a], gpus[b]
			if i >= len(t.Links) || j >= len(t.Links[i]) || t.Links[i][j] == "" {
				return "", false
			}
			l := t.Links[i][j]
			if strings.HasPrefix(l, "NV") {
				return "", true
			}
			parts = append(parts, fmt.Sprintf("GPU%d-GPU%d %s", i, j, l))
		}
	}
	return strings.Join(parts, ", "), false
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}
