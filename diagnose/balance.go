package diagnose

import (
	"slices"

	"github.com/gpuscope/gpuscope/sampler"
)

// Balance thresholds: a GPU averaging ≥ 50% busy over the window is doing
// real work (the low-use line of [nsight-systems]); < 5% is idle: a kernel
// ran in less than a twentieth of the time.
const (
	BalanceBusyPct = 50.0
	BalanceIdlePct = 5.0
)

// Per-GPU values of a Balance that are not a percentage.
const (
	BalanceLost       = -1.0 // fell off the bus, or no reading at all
	BalanceUnmeasured = -2.0 // there, but no busy figure (a MIG GPU without GPM)
)

// Balance is the multi-card picture the GPU pane's title draws: each GPU's
// mean busy share and memory share over the diagnosis window, and which
// GPUs have a job. Busy is GPU-Util; on a MIG GPU, where NVML has no
// GPU-Util, it is SM activity from GPM, so a MIG GPU at work counts busy
// instead of being drawn lost ([mig-guide]: utilisation is per instance).
type Balance struct {
	Busy, Mem []float64 // percent per GPU position, or BalanceLost / BalanceUnmeasured
	HasJob    []bool
}

// NodeBalance computes the Balance of window's GPUs.
func NodeBalance(window []sampler.Snapshot) Balance {
	if len(window) == 0 {
		return Balance{}
	}
	last := &window[len(window)-1]
	s := NewBalanceSums(len(last.GPUs))
	for wi := range window[:len(window)-1] {
		s.Add(&window[wi])
	}
	return s.With(last)
}

// BalanceSums are NodeBalance's per-GPU sums over the snapshots before
// the newest, added in order: the dashboard draws the balance on every
// frame (ten a second at --interval 100ms) over a window whose older
// snapshots change once a second, so it adds those once and each newest
// snapshot over them, the same sums in the same order.
type BalanceSums struct{ util, sm []meanOf }

// NewBalanceSums is empty sums for n GPU positions (the newest snapshot's).
func NewBalanceSums(n int) *BalanceSums {
	return &BalanceSums{util: make([]meanOf, n), sm: make([]meanOf, n)}
}

// Add adds one snapshot older than the newest.
func (s *BalanceSums) Add(snap *sampler.Snapshot) {
	for i := range snap.GPUs {
		if i >= len(s.util) {
			break
		}
		g := &snap.GPUs[i]
		if g.Util.OK {
			s.util[i].add(g.Util.V)
		}
		if g.SMActive.OK {
			s.sm[i].add(g.SMActive.V)
		}
	}
}

// With is NodeBalance of the snapshots added and last, the newest, whose
// GPU positions s was made for; s is unchanged.
func (s *BalanceSums) With(last *sampler.Snapshot) Balance {
	util, sm := slices.Clone(s.util), slices.Clone(s.sm)
	(&BalanceSums{util, sm}).Add(last)
	n := len(last.GPUs)
	b := Balance{Busy: make([]float64, n), Mem: make([]float64, n), HasJob: make([]bool, n)}
	for i := range last.GPUs {
		g := &last.GPUs[i]
		switch {
		case g.Lost:
			b.Busy[i], b.Mem[i] = BalanceLost, BalanceLost
			continue
		case util[i].n > 0:
			b.Busy[i] = util[i].mean()
		case g.MIG && sm[i].n > 0:
			b.Busy[i] = sm[i].mean()
		case g.MIG:
			b.Busy[i] = BalanceUnmeasured
		default:
			b.Busy[i], b.Mem[i] = BalanceLost, BalanceLost
			continue
		}
		if g.MemUsed.OK && g.MemTotal.V > 0 {
			b.Mem[i] = 100 * g.MemUsed.V / g.MemTotal.V
		}
		b.HasJob[i] = len(g.Procs) > 0 || len(g.MIGDevices) > 0 && migHasProcs(g)
	}
	return b
}

// BusyShare is one reading's busy share as NodeBalance measures it:
// GPU-Util, or SM activity on a MIG GPU (which has no GPU-Util); false
// when the reading has neither. GPU-hours "used" weigh held time by it
// (diagnose/summary), so the report and the GPU pane agree on busy.
func BusyShare(g *sampler.GPU) (float64, bool) {
	switch {
	case g.Lost:
		return 0, false
	case g.Util.OK:
		return g.Util.V, true
	case g.MIG && g.SMActive.OK:
		return g.SMActive.V, true
	}
	return 0, false
}

func migHasProcs(g *sampler.GPU) bool {
	for _, m := range g.MIGDevices {
		if len(m.Procs) > 0 {
			return true
		}
	}
	return false
}

type meanOf struct {
	sum float64
	n   int
}

func (s *meanOf) add(v float64) { s.sum += v; s.n++ }
func (s meanOf) mean() float64  { return s.sum / float64(s.n) }

// Spread is the busiest minus the idlest busy share among GPUs with a job;
// ok is false with fewer than two such GPUs.
func (b Balance) Spread() (pts float64, busiest, idlest int, ok bool) {
	busiest, idlest = -1, -1
	for i, u := range b.Busy {
		if !b.HasJob[i] || u < 0 {
			continue
		}
		if busiest < 0 || u > b.Busy[busiest] {
			busiest = i
		}
		if idlest < 0 || u < b.Busy[idlest] {
			idlest = i
		}
	}
	if busiest < 0 || busiest == idlest {
		return 0, busiest, idlest, false
	}
	return b.Busy[busiest] - b.Busy[idlest], busiest, idlest, true
}

// Counts is how many GPUs are busy and how many idle (the rest are in
// between, lost or unmeasured).
func (b Balance) Counts() (busy, idle int) {
	for _, u := range b.Busy {
		switch {
		case u < 0:
		case u >= BalanceBusyPct:
			busy++
		case u < BalanceIdlePct:
			idle++
		}
	}
	return busy, idle
}
