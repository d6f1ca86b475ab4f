package diagnose

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// Ranks of one job holding contexts on a GPU they were not given: each
// rank works on its own GPU and also opened a CUDA context on another
// (usually GPU 0, where CUDA starts when no device is set), so that GPU
// carries every rank's context beside its own rank's work. nvidia-smi's
// process list shows it directly: one PID on two GPUs, a few hundred MB
// to ~1.5 GB on the one beside tens of GB on the other (corpus:
// b24-smi-procs-rows-three-ranks-*, accelerate's ranks each holding
// 1405 MiB on the fourth rank's GPU). The fix is the rank's device set
// before its first CUDA call ([pytorch-ddp]).

var hintStrayRanks = fix{"stray_ranks", "Each rank opened a CUDA context on a GPU it was not given: set its device before any " +
	"CUDA call (torch.cuda.set_device(local_rank) first thing in the rank, or device=f\"cuda:{local_rank}\" everywhere; no bare " +
	".cuda(), torch.load(..., map_location=...) to the rank's device, dist.barrier(device_ids=[local_rank])), or give each " +
	"rank only its GPU with CUDA_VISIBLE_DEVICES; the extra contexts cost that GPU memory and time slices ([pytorch-ddp])"}

// strayShare: a process's memory on a GPU at most this share of what it
// holds on another is a context opened there, not work placed there (our
// choice: a bare context is 0.3-1.5 GB where a rank's work is tens of GB;
// a model split unevenly over GPUs by one process keeps more than a
// quarter of its largest part on each).
const strayShare = 0.25

// stray is one process's context on a GPU beside its work on another.
type stray struct {
	pid       int
	here      float64 // bytes on the GPU judged
	home      int     // the GPU of its work
	homeBytes float64
}

// strays lists g's processes whose work runs on another GPU of snap.
func strays(snap *sampler.Snapshot, g *sampler.GPU) []stray {
	var out []stray
	for i := range g.Procs {
		p := &g.Procs[i]
		if p.PID <= 0 || !strings.Contains(p.Type, "C") || !p.MemUsed.OK || mpsServer(p) {
			continue
		}
		best := stray{pid: p.PID, here: p.MemUsed.V, home: -1}
		for j := range snap.GPUs {
			o := &snap.GPUs[j]
			if o.Index == g.Index {
				continue
			}
			for k := range o.Procs {
				if q := &o.Procs[k]; q.PID == p.PID && q.MemUsed.OK && q.MemUsed.V > best.homeBytes {
					best.home, best.homeBytes = o.Index, q.MemUsed.V
				}
			}
		}
		if best.home >= 0 && best.here <= strayShare*best.homeBytes {
			out = append(out, best)
		}
	}
	return out
}

// strayRanks reports g when ranks working elsewhere hold contexts on it:
// beside another process there (the GPU's own job), or two or more of them
// (a GPU every rank touched). One process over two GPUs alone is a model
// split by one program, not this.
func (e *evCtx) strayRanks(g *sampler.GPU) bool {
	s := strays(e.last, g)
	if len(s) == 0 || len(s) == 1 && len(g.Procs) < 2 {
		return false
	}
	who := make([]string, len(s))
	for i, x := range s {
		who[i] = fmt.Sprintf("pid %d %s here, %s on GPU %d", x.pid, gbytes(x.here), gbytes(x.homeBytes), x.home)
	}
	e.add(RuleGPUContention, Warning, g.Index,
		say("contention.title_strays", "{{.N}} {{plural .N \"rank\" \"ranks\"}} working on other GPUs {{plural .N \"holds a context\" \"hold contexts\"}} on GPU {{.GPU}}", "N", len(s), "GPU", g.Index),
		Text{say("evidence.strays", "{{.Who}}: each holds a CUDA context here and its work on another GPU", "Who", strings.Join(who, "; "))},
		hintStrayRanks,
		e.oneShot(say("evidence.strays_est", "the process list is a fact of that instant; the same PID on two GPUs is one process, so the "+
			"smaller part is a context its code opened there (a tensor or call without the rank's device), not a second job")),
		Use{g.Index, "procs"})
	return true
}
