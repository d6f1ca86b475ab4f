package ui

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// Balance thresholds: a GPU averaging ≥ 50% GPU-Util over the window is
// doing real work (the low-use line of [nsight-systems]); < 5% is idle: a
// kernel ran in less than a twentieth of the time.
const (
	balanceBusyPct = 50.0
	balanceIdlePct = 5.0
)

// nodeBalance is the multi-card picture: each GPU's mean util and memory
// share over the diagnosis window, and which GPUs have a job.
type nodeBalance struct {
	util, mem []float64 // percent, one per GPU; -1 for a lost GPU
	hasJob    []bool
}

func computeBalance(window []sampler.Snapshot) nodeBalance {
	var b nodeBalance
	if len(window) == 0 {
		return b
	}
	last := &window[len(window)-1]
	n := len(last.GPUs)
	b.util, b.mem, b.hasJob = make([]float64, n), make([]float64, n), make([]bool, n)
	counts := make([]int, n)
	for wi := range window {
		for i := range window[wi].GPUs {
			g := &window[wi].GPUs[i]
			if i >= n || !g.Util.OK {
				continue
			}
			b.util[i] += g.Util.V
			counts[i]++
		}
	}
	for i := range last.GPUs {
		g := &last.GPUs[i]
		if g.Lost || counts[i] == 0 {
			b.util[i], b.mem[i] = -1, -1
			continue
		}
		b.util[i] /= float64(counts[i])
		if g.MemUsed.OK && g.MemTotal.V > 0 {
			b.mem[i] = 100 * g.MemUsed.V / g.MemTotal.V
		}
		b.hasJob[i] = len(g.Procs) > 0
	}
	return b
}

// spread is busiest minus idlest util among GPUs with a job; ok is false
// with fewer than two such GPUs.
func (b nodeBalance) spread() (pts float64, busiest, idlest int, ok bool) {
	busiest, idlest = -1, -1
	for i, u := range b.util {
		if !b.hasJob[i] || u < 0 {
			continue
		}
		if busiest < 0 || u > b.util[busiest] {
			busiest = i
		}
		if idlest < 0 || u < b.util[idlest] {
			idlest = i
		}
	}
	if busiest < 0 || busiest == idlest {
		return 0, busiest, idlest, false
	}
	return b.util[busiest] - b.util[idlest], busiest, idlest, true
}

// bars is one cell per GPU: its level, or × for a lost GPU.
func balanceBars(vals []float64) string {
	var s strings.Builder
	for _, v := range vals {
		if v < 0 {
			s.WriteString("×")
			continue
		}
		s.WriteRune(sparkBlocks[max(1, sparkLevel(v, 100))]) // ▁ even when idle: a GPU is there
	}
	return s.String()
}

// summary is the one-line verdict: spread, and how many GPUs are busy and
// idle; short drops the names for narrow screens.
func (b nodeBalance) summary(c *common) (full, short string) {
	busy, idle, jobs := 0, 0, 0
	for i, u := range b.util {
		switch {
		case u < 0:
			continue
		case u >= balanceBusyPct:
			busy++
		case u < balanceIdlePct:
			idle++
		}
		if b.hasJob[i] {
			jobs++
		}
	}
	counts := c.say("balance.counts", map[string]any{"Busy": busy, "Idle": idle})
	if busy == 1 {
		for i, u := range b.util {
			if u >= balanceBusyPct {
				counts = c.say("balance.one_busy", map[string]any{"GPU": i, "Idle": idle})
			}
		}
	}
	brief := c.say("balance.brief", map[string]any{"Busy": busy, "Idle": idle})
	if pts, hi, lo, ok := b.spread(); ok {
		p := fmt.Sprintf("%.0f", pts)
		return c.say("balance.spread", map[string]any{"Pts": p, "Hi": hi, "Lo": lo}) + " · " + counts,
			c.say("balance.spread_short", map[string]any{"Pts": p}) + " · " + brief
	}
	if jobs == 1 && len(b.util) > 1 {
		for i := range b.util {
			if b.hasJob[i] {
				return c.say("balance.all_on", map[string]any{"GPU": i}) + " · " + counts,
					c.say("balance.all_on_short", map[string]any{"GPU": i}) + " · " + brief
			}
		}
	}
	return counts, brief
}

// balanceInfo is the GPU pane title's balance text, fitted to room cells:
// util bars and the verdict first, the memory bars when there is room.
func balanceInfo(c *common, window []sampler.Snapshot, room int) string {
	b := computeBalance(window)
	if len(b.util) < 2 {
		return "" // one GPU has nothing to balance against
	}
	util := c.word("gpu.util") + " " + balanceBars(b.util)
	mem := c.word("gpu.mem") + " " + balanceBars(b.mem)
	sum, short := b.summary(c)
	for _, s := range []string{util + " " + mem + " " + sum, util + " " + sum, util + " " + short, util} {
		if widthOf(s) <= room {
			return s
		}
	}
	return ""
}
