package diagnose

import (
	"math"

	"github.com/gpuscope/gpuscope/sampler"
)

const (
	// evPeerIdleUtil: a peer rank waiting outside any kernel reads 0 %; a
	// few percent allows the sampling edge of a kernel.
	evPeerIdleUtil = 5.0
	// evRankMemSpread / evRankMemShare: ranks of one job shard the same
	// model, so each holds about the same memory (within a tenth) and a
	// real share of the card (a quarter); empty or unevenly used GPUs are
	// several users' or nobody's.
	evRankMemSpread = 0.10
	evRankMemShare  = 0.25
	// evSpinOverIdle: a rank spinning in a collective does no arithmetic,
	// so it draws about what its idle peers draw: at most this share of
	// the limit above the busiest idle peer.
	evSpinOverIdle = 0.10
)

// waitingRanks: some GPUs of one job spin at 100 % GPU-Util on idle power
// while the job's other GPUs sit at 0 %. A rank that entered a collective
// spins in its NCCL kernel until every peer arrives; peers that crashed,
// never launched it, or wait in another collective leave it there
// ([nccl-troubleshooting]; [gpu-idle-handbook] §3.3). The spinning GPU's
// "small kernels" (launch_bound) are then the wrong cause.
//
// One snapshot ties the GPUs to one job only when it shows it: the same
// program on every GPU, or, with no process list, every GPU of the same
// model holding about the same large share of memory (a job's shards);
// and the spinning GPUs draw no more than their idle peers. One busy GPU
// on a shared server, beside empty or unevenly used ones, is not named.
// A GPU whose row the paste cut before any reading is left out and said
// so (GLM-130B's cut table: b24-smi-table-v100-sxm2-*-glm-130b-issue-32).
// It returns the spinning GPUs it covered.
func (e *evCtx) waitingRanks(skip map[int]bool) []int {
	var spin, idle, cut []int
	var gpus []*sampler.GPU
	for i := range e.last.GPUs {
		g := &e.last.GPUs[i]
		switch {
		case g.MIG || g.VGPUHost() || skip[g.Index]:
			return nil
		case unread(g):
			cut = append(cut, g.Index)
			continue
		case spins(g):
			spin = append(spin, g.Index)
		case g.Util.OK && g.Util.V <= evPeerIdleUtil:
			idle = append(idle, g.Index)
		default:
			return nil // a GPU working or unread: not a job stopped in a collective
		}
		gpus = append(gpus, g)
	}
	if len(spin) == 0 || len(idle) == 0 || !oneJob(gpus, listsProcs(e.last)) {
		return nil
	}
	idleMax, idleLo := 0.0, math.Inf(1)
	for _, i := range idle {
		g := gpuIn(e.last, i)
		if !g.Power.OK {
			return nil
		}
		idleMax, idleLo = max(idleMax, g.Power.V), min(idleLo, g.Power.V)
	}
	uses := make([]Use, 0, 3*len(gpus))
	var lo, hi float64 = 100, 0
	for _, i := range spin {
		g := gpuIn(e.last, i)
		if g.Power.V > idleMax+evSpinOverIdle*g.PowerLimit.V {
			return nil // it works harder than a waiting rank
		}
		share := 100 * g.Power.V / g.PowerLimit.V
		lo, hi = min(lo, share), max(hi, share)
		uses = append(uses, Use{i, "util"}, Use{i, "power"})
	}
	for _, i := range idle {
		uses = append(uses, Use{i, "util"}, Use{i, "power"}, Use{i, "mem_used"})
	}
	ev := Text{
		say("evidence.ranks_spin", "GPU {{.GPUs}} at ≥ {{.Util}}% GPU-Util drawing {{.Share}}% of the power limit, no more than the idle peers ({{.Idle}} W)",
			"GPUs", joinInts(spin), "Util", f0(evSpinUtil), "Share", span0(lo, hi), "Idle", span0(idleLo, idleMax)),
		say("evidence.ranks_idle_job", "GPUs {{.GPUs}} of the same job ({{.Job}}) at 0% GPU-Util: ranks that have not joined the collective",
			"GPUs", joinInts(idle), "Job", jobKey(gpus[0])),
	}
	if !listsProcs(e.last) {
		ev[1] = say("evidence.ranks_idle_mem", "GPUs {{.GPUs}} at 0% GPU-Util hold the same memory as the spinning ones (about {{.Mem}} each; no process list): ranks of one job that have not joined the collective",
			"GPUs", joinInts(idle), "Mem", gbytes(gpus[0].MemUsed.V))
	}
	if len(cut) > 0 {
		ev = append(ev, say("evidence.ranks_unread", "GPU {{.GPUs}} named without a reading (the input stops in its row): not judged", "GPUs", joinInts(cut)))
	}
	e.add(RuleCommBound, Warning, -1, say("evidence.ranks_title", "{{.N}} of {{.Of}} GPUs of one job spin at 100% GPU-Util on idle power while the others wait: a rank stuck in a collective (or hung)",
		"N", len(spin), "Of", len(gpus)),
		ev, hintHang,
		e.oneShot(say("evidence.hang_est", "one instant cannot tell a slow collective from a hang: a hang keeps every rank there for minutes (nvidia-smi dmon -s pu -c 60) and its log stops")),
		uses...)
	return spin
}

// span0 writes a range of whole numbers, one number when both ends round alike.
func span0(lo, hi float64) string {
	if f0(lo) == f0(hi) {
		return f0(lo)
	}
	return f0(lo) + "-" + f0(hi)
}

// oneJob: the GPUs show one job. With a process list, one program on
// every GPU; without, the same model on every GPU, each holding about the
// same memory and a real share of its card.
func oneJob(gpus []*sampler.GPU, procs bool) bool {
	if procs {
		k := jobKey(gpus[0])
		for _, g := range gpus {
			if jk := jobKey(g); jk == "" || jk != k {
				return false
			}
		}
		return true
	}
	lo, hi := math.Inf(1), 0.0
	for _, g := range gpus {
		if !g.MemUsed.OK || !g.MemTotal.OK || g.MemTotal.V <= 0 || g.MemUsed.V < evRankMemShare*g.MemTotal.V || g.Name != gpus[0].Name {
			return false
		}
		lo, hi = min(lo, g.MemUsed.V), max(hi, g.MemUsed.V)
	}
	return hi-lo <= evRankMemSpread*hi
}

// unread: a GPU the input names but cut before its GPU-Util and memory
// (a table row that stops after the name and bus id): neither working nor
// waiting, not judged.
func unread(g *sampler.GPU) bool {
	return !g.Util.OK && !g.MemUsed.OK
}

// empty: an idle GPU holding less than a desktop's or a bare CUDA
// context's memory (evHeldBytes): nobody's job is on it.
func empty(g *sampler.GPU) bool {
	return g.Util.OK && g.Util.V <= evPeerIdleUtil && g.MemUsed.OK && g.MemUsed.V < evHeldBytes
}

// sameShard: two or more spinning GPUs with no process list that one
// job's ranks could be: the same model, each holding about the same
// memory (within evRankMemSpread). Two users' jobs seldom hold the same
// bytes; the corpus's shared 8x4090 server spins three GPUs holding 20.6,
// 20.6 and 4.2 GB beside GPUs holding memory at 0-12 % (smi-table-collapsed-8x4090-*).
func (e *evCtx) sameShard(gpus []int) bool {
	if len(gpus) < 2 || listsProcs(e.last) {
		return false
	}
	gs := make([]*sampler.GPU, len(gpus))
	for n, i := range gpus {
		gs[n] = gpuIn(e.last, i)
	}
	lo, hi := math.Inf(1), 0.0
	for _, g := range gs {
		if !g.MemUsed.OK || g.Name != gs[0].Name {
			return false
		}
		lo, hi = min(lo, g.MemUsed.V), max(hi, g.MemUsed.V)
	}
	return hi-lo <= evRankMemSpread*hi
}
