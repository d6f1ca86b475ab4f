package diagnose

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// Causes one snapshot proves beyond the health and busy readings: several
// jobs on one GPU, every GPU of a job spinning in a collective, and an
// NVSwitch fabric that was never set up.

var (
	hintHang = fix{"hang", "Every rank sits in an NCCL kernel: check that the job advances (step counter, loss; a hang shows " +
		"none for minutes); py-spy dump --pid <PID> on every rank shows the collective each waits in, NCCL_DEBUG=INFO " +
		"names the last one per rank; nvidia-smi nvlink -s and nvidia-smi -q | grep -A3 Fabric check the links; the " +
		"rank that is missing, slower or crashed is the cause ([nccl-troubleshooting]; [gpu-idle-handbook] §3.3)"}
	hintFabric = fix{"fabric", "Start the fabric manager: systemctl status nvidia-fabricmanager, then systemctl enable --now " +
		"nvidia-fabricmanager; its version must match the driver's (nv-fabricmanager --version vs nvidia-smi); read " +
		"/var/log/fabricmanager.log if it fails; in a VM given one GPU of an NVSwitch board the host must set the " +
		"fabric up ([fabric-manager]; [cuda-runtime-errors])"}
	hintFabricFailed = fix{"fabric_failed", "The fabric manager started and failed: read its error (journalctl -u nvidia-fabricmanager, " +
		"/var/log/fabricmanager.log); a version mismatch needs the nvidia-fabricmanager package of the driver's exact version " +
		"(nv-fabricmanager --version vs nvidia-smi); a rejected option or configuration value is fixed in " +
		"/usr/share/nvidia/nvswitch/fabricmanager.cfg or the service's start arguments (NVLink 5 systems also need NVLSM); " +
		"then systemctl restart nvidia-fabricmanager and check nvidia-smi -q | grep -A2 Fabric shows Completed ([fabric-manager])"}
	hintContentionSnapshot = fix{"contention_snapshot", "Several jobs share this GPU: nvidia-smi pmon -c 10 shows each one's share; end the stale " +
		"one or move a job to a free GPU (CUDA_VISIBLE_DEVICES), or partition with MIG/MPS ([gpu-idle-handbook] §8.1 §5.1)"}
)

// mpsServer is the MPS control daemon's process: it holds a CUDA context
// on behalf of its clients and competes with none of them.
func mpsServer(p *sampler.GPUProc) bool {
	return p.Host != nil && strings.Contains(p.Host.Name, "nvidia-cuda-mps-server")
}

// evOtherJobMem: a process of another program holding a CUDA context is
// another job on the card (our choice: 0.2 GB, the smallest context seen
// in the corpus, 238 MiB with lazy module loading; rule_sharing.go's
// ~0.5 GB is an eagerly loaded one); one of the same program must hold
// contentionMem, as a job's DataLoader workers touching CUDA hold a
// context each.
const evOtherJobMem = 0.2e9

// contention: two or more compute jobs on one GPU that is working (or
// whose load the input does not show): a stale benchmark beside a new job
// ([gpu-idle-handbook] §8.1: "is another process using the GPU?"). Jobs are
// told apart by their command (a different program) or by the memory each
// holds (the same program's DataLoader workers hold a context). One
// process list is the fact; how much each takes needs per-process
// utilisation.
func (e *evCtx) contention(g *sampler.GPU) bool {
	drawing := g.Power.OK && g.PowerLimit.OK && g.PowerLimit.V > 0 && g.Power.V >= 0.5*g.PowerLimit.V
	if g.MIG || g.Util.OK && g.Util.V < evBusyUtil && !drawing {
		return false
	}
	names := map[string]int{}
	for i := range g.Procs {
		if p := &g.Procs[i]; p.Host != nil {
			names[p.Host.Name]++
		}
	}
	var who []string
	for i := range g.Procs {
		p := &g.Procs[i]
		need := contentionMem
		if p.Host != nil && len(names) > 1 && names[p.Host.Name] == 1 {
			need = evOtherJobMem
		}
		if !strings.Contains(p.Type, "C") || mpsServer(p) || !p.MemUsed.OK || p.MemUsed.V < need {
			continue
		}
		name := fmt.Sprint("pid ", p.PID)
		if p.Host != nil && p.Host.Name != "" {
			name += " " + p.Host.Name
		}
		who = append(who, name+" "+gbytes(p.MemUsed.V))
	}
	if len(who) < 2 {
		return false
	}
	ev := say("evidence.contention", "{{.N}} compute processes each hold more than a CUDA context at {{.Util}}% GPU-Util: {{.Who}}",
		"N", len(who), "Util", m0(g.Util), "Who", strings.Join(who, "; "))
	if !g.Util.OK {
		ev = say("evidence.contention_noload", "{{.N}} compute processes each hold more than a CUDA context (the input shows no GPU-Util): {{.Who}}",
			"N", len(who), "Who", strings.Join(who, "; "))
	}
	e.add(RuleGPUContention, Warning, g.Index, say("contention.title_memory", "{{.N}} processes share GPU {{.GPU}}", "N", len(who), "GPU", g.Index),
		Text{ev}, hintContentionSnapshot,
		e.oneShot(say("evidence.contention_est", "the process list is a fact of that instant; each one's share of the GPU needs nvidia-smi pmon")),
		Use{g.Index, "procs"}, Use{g.Index, "util"})
	return true
}

// spins: 100 % GPU-Util at a small share of the power limit (the busy
// rule's spin test).
func spins(g *sampler.GPU) bool {
	return g.Util.OK && g.Util.V >= evSpinUtil && g.Power.OK && g.PowerLimit.OK && g.PowerLimit.V > 0 && g.Power.V <= evSpinPower*g.PowerLimit.V
}

// jobKey names the job on a GPU of one snapshot: its first compute
// process's name (torchrun ranks share it), "" when no process is listed.
func jobKey(g *sampler.GPU) string {
	for _, p := range g.Procs {
		if strings.Contains(p.Type, "C") && p.Host != nil && p.Host.Name != "" {
			return p.Host.Name
		}
	}
	return ""
}

// collective: two or more GPUs of one job spin at once. Ranks that wait
// for a peer sit in NCCL kernels that keep GPU-Util at 100 % while the
// SMs do nothing ([nccl-troubleshooting]; [gpu-idle-handbook] §3.3): the
// node's view, a collective waiting or hung, explains it better than each
// GPU's "kernels too small". It returns the GPUs it covered.
//
// That the GPUs are one job needs evidence: one program's processes on
// them, or, with no process list, every GPU the input shows spinning, as
// a job holding the whole node does when it hangs. On a shared server a
// few GPUs at 100 % beside idle or half-busy ones are as likely several
// users' jobs, each with its own reason ([gpu-idle-handbook] §5.1). A job
// on part of the node is named only when the GPUs in use are exactly the
// spinning ones, holding the same memory as ranks do, and every other GPU
// shown is empty (no user there) or cut from the input (sameShard, empty).
func (e *evCtx) collective(skip map[int]bool) []int {
	jobs := map[string][]int{}
	whole, alone := true, true // every GPU of the snapshot spins; every GPU in use does
	for i := range e.last.GPUs {
		g := &e.last.GPUs[i]
		if g.MIG {
			continue
		}
		if !spins(g) {
			whole, alone = false, alone && (empty(g) || unread(g))
			continue
		}
		if !skip[g.Index] {
			k := jobKey(g)
			jobs[k] = append(jobs[k], g.Index)
		}
	}
	alone = alone && !whole && e.sameShard(jobs[""])
	if !whole && !alone {
		delete(jobs, "") // GPUs nothing ties together
	}
	keys := make([]string, 0, len(jobs))
	for k := range jobs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var covered []int
	for _, k := range keys {
		gpus := jobs[k]
		if len(gpus) < 2 {
			continue
		}
		lo, hi := 100.0, 0.0
		uses := make([]Use, 0, 2*len(gpus))
		for _, i := range gpus {
			g := gpuIn(e.last, i)
			share := 100 * g.Power.V / g.PowerLimit.V
			lo, hi = min(lo, share), max(hi, share)
			uses = append(uses, Use{i, "util"}, Use{i, "power"})
		}
		ev := say("evidence.hang", "GPUs {{.GPUs}} ({{.Job}}) at ≥ {{.Util}}% GPU-Util drawing {{.Lo}}-{{.Hi}}% of their power limit",
			"GPUs", joinInts(gpus), "Job", k, "Util", f0(evSpinUtil), "Lo", f0(lo), "Hi", f0(hi))
		switch {
		case k == "" && alone:
			ev = say("evidence.hang_alone", "GPUs {{.GPUs}} at ≥ {{.Util}}% GPU-Util drawing {{.Share}}% of their power limit, each holding about {{.Mem}} (no process list: the only GPUs in use, the others empty or cut, taken as one job)",
				"GPUs", joinInts(gpus), "Util", f0(evSpinUtil), "Share", span0(lo, hi), "Mem", gbytes(gpuIn(e.last, gpus[0]).MemUsed.V))
		case k == "": // no process list: every GPU of the node spins, so they stand for the job
			ev = say("evidence.hang_noprocs", "GPUs {{.GPUs}} at ≥ {{.Util}}% GPU-Util drawing {{.Lo}}-{{.Hi}}% of their power limit (no process list: every GPU shown spins, taken as one job)",
				"GPUs", joinInts(gpus), "Util", f0(evSpinUtil), "Lo", f0(lo), "Hi", f0(hi))
		}
		e.add(RuleCommBound, Warning, -1, say("evidence.hang_title", "{{.N}} GPUs of one job at 100% GPU-Util but drawing little power: waiting in a collective (or hung)",
			"N", len(gpus)),
			Text{ev}, hintHang,
			e.oneShot(say("evidence.hang_est", "one instant cannot tell a slow collective from a hang: a hang keeps every rank there for minutes (nvidia-smi dmon -s pu -c 60) and its log stops")),
			uses...)
		covered = append(covered, gpus...)
	}
	return covered
}

// fabric: an NVSwitch system whose GPUs are not registered with the NVLink
// fabric, or an application's CUDA failing with 802 (system not yet
// initialised): the fabric manager is not running or failed
// ([fabric-manager]; [cuda-runtime-errors]). Nothing runs on such a node,
// however healthy nvidia-smi looks. CUDA failing with 46 instead (every
// GPU it may use busy or unavailable) is another process holding them:
// gpu_contention for the node.
func (e *evCtx) fabric() {
	var ev Text
	var uses []Use
	for i := range e.last.GPUs {
		g := &e.last.GPUs[i]
		state, status := strings.ToLower(g.FabricState), strings.ToLower(g.FabricStatus)
		bad := state == "in progress" || state == "not started" || state == "completed" && status != "" && status != "success"
		if !bad {
			continue
		}
		ev = append(ev, say("evidence.fabric_state", "GPU {{.GPU}} fabric state {{.State}}, status {{.Status}}", "GPU", g.Index,
			"State", g.FabricState, "Status", orNA(g.FabricStatus)))
		uses = append(uses, Use{g.Index, "fabric_state"})
	}
	if f := e.last.Node.FabricError; f != "" && !switchless(e.last) {
		ev = append(ev, say("evidence.fabric_failed", "the fabric manager failed: {{.Line}}", "Line", f))
		uses = append(uses, Use{-1, "fabric_error"})
	}
	if c := e.last.Node.CUDAError; c != "" {
		m := say("evidence.cuda_802", "CUDA initialisation failed: {{.Error}}", "Error", c)
		if cudaBusy(c) {
			e.busyOrUnlicensed(m)
		} else if cudaECC(c) {
			// Error 214: a fault of the card under the program, not the
			// fabric's; the line names no GPU, the ECC counters do.
			e.add(RuleECCErrors, Critical, -1, say("evidence.cuda_ecc_title", "A GPU hit an uncorrectable memory (ECC) error: CUDA stopped the program"),
				Text{say("evidence.cuda_ecc", "CUDA reported: {{.Error}}; the line names no GPU: nvidia-smi -q -d ECC,ROW_REMAPPER shows which", "Error", c)},
				hintECC, nil, Use{-1, "cuda_error"})
		} else if cudaOldDriver(c) {
			e.driverTooOld(m)
		} else if cudaCtxOOM(c) {
			// Error 2 from creating a context: other processes hold the
			// GPU's memory before the program allocated any.
			title := say("evidence.cuda_ctx_oom_title", "No memory left for a CUDA context: other processes hold the GPU's memory")
			e.add(RuleGPUContention, Warning, -1, title, Text{m}, hintGPUBusy, nil, Use{-1, "cuda_error"})
		} else {
			ev = append(ev, m)
			uses = append(uses, Use{-1, "cuda_error"})
		}
	}
	if len(ev) == 0 {
		return
	}
	hint := hintFabric
	if e.last.Node.FabricError != "" {
		hint = hintFabricFailed
	}
	e.add(RuleFabricManager, Critical, -1, say("evidence.fabric_title", "NVSwitch fabric not initialised: CUDA cannot start until the fabric manager runs"),
		ev, hint, nil, uses...)
}

// cudaBusy: the application's CUDA error is 46 (cudaErrorDevicesUnavailable),
// as the importer words it.
func cudaBusy(c string) bool { return strings.HasPrefix(c, "46:") }

// cudaECC: CUDA error 214 (cudaErrorECCUncorrectable), as the importer
// words it ([cuda-runtime-errors]).
func cudaECC(c string) bool { return strings.HasPrefix(c, "214:") }

// cudaCtxOOM: CUDA error 2 (out of memory) from creating a context,
// before the program allocated anything (sampler/importer/cudaerr.go).
func cudaCtxOOM(c string) bool { return strings.HasPrefix(c, "2:") }

// busyOrUnlicensed: error 46 is another process holding the GPUs
// (Exclusive Process mode, a job nobody reaped) or, in a vGPU guest, the
// driver disabling CUDA for want of a licence (the batch 8 threads in
// sampler/importer/testdata/real/INDEX.md). An unlicensed guest the input
// shows is vgpu_unlicensed's finding, not contention; a physical GPU or a
// licensed guest leaves contention alone; an application's line alone
// names both, with the check that tells them apart (hintGPUBusy). A GPU
// the input shows lost (fallen off the bus, its firmware silent, a reset
// required) is unavailable for that reason: its own finding says so.
func (e *evCtx) busyOrUnlicensed(m Msg) {
	both := true
	for i := range e.last.GPUs {
		g := &e.last.GPUs[i]
		if g.Lost || strings.HasPrefix(strings.ToLower(g.License), "unlicensed") {
			return
		}
		both = both && g.License == "" && g.VGPUGuest()
	}
	title := say("evidence.cuda_busy_title", "GPUs busy or unavailable: another process holds the GPUs CUDA may use")
	if both {
		title = say("evidence.cuda_busy_or_licence_title", "GPUs busy or unavailable: another process holds the GPUs CUDA may use, or a vGPU guest's missing licence disabled CUDA")
	}
	e.add(RuleGPUContention, Warning, -1, title, Text{m}, hintGPUBusy, nil, Use{-1, "cuda_error"})
}

// switchless: every GPU the input shows is a board no NVSwitch system
// carries (GeForce, TITAN, Quadro, RTX workstation cards; the fabric
// manager guide lists the NVSwitch systems, [fabric-manager]), so a fabric
// manager failing there has nothing to manage and stops nothing.
func switchless(s *sampler.Snapshot) bool {
	for i := range s.GPUs {
		if !consumerBoardRE.MatchString(s.GPUs[i].Name) {
			return false
		}
	}
	return len(s.GPUs) > 0
}

var consumerBoardRE = regexp.MustCompile(`(?i)\b(geforce|titan|quadro|rtx)\b`)

func orNA(s string) string {
	if s == "" {
		return "n/a"
	}
	return s
}
