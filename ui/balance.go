package ui

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// bars is one cell per GPU: its level, × for a lost GPU, ? for one without
// a busy figure.
func balanceBars(vals []float64) string {
	var s strings.Builder
	for _, v := range vals {
		switch v {
		case diagnose.BalanceLost:
			s.WriteString("×")
			continue
		case diagnose.BalanceUnmeasured:
			s.WriteString("?")
			continue
		}
		s.WriteRune(sparkBlocks[max(1, sparkLevel(v, 100))]) // ▁ even when idle: a GPU is there
	}
	return s.String()
}

// balanceSummary is the one-line verdict: spread, and how many GPUs are
// busy and idle (diagnose.Balance decides both); short drops the names for
// narrow screens. The words are said once per verdict (balanceVerdict):
// the GPU pane draws them on every frame, and each is a template that
// go-i18n executes anew (docs/benchmarks.md, "The dashboard at 100 ms,
// again").
func balanceSummary(b diagnose.Balance, c *common) (full, short string) {
	v := verdictOf(b)
	if d := &c.balanceSaid; d.full == "" || d.v != v {
		d.v = v
		d.full, d.short = v.say(c)
	}
	return c.balanceSaid.full, c.balanceSaid.short
}

// balanceVerdict is what balanceSummary's words say: the same verdict, the
// same words.
type balanceVerdict struct {
	busy, idle, oneBusy int // oneBusy: the busy GPU when one is, else -1
	spread              bool
	pts                 string
	hi, lo, allOn       int // allOn: the GPU every job is on, else -1
}

func verdictOf(b diagnose.Balance) balanceVerdict {
	v := balanceVerdict{oneBusy: -1, allOn: -1}
	v.busy, v.idle = b.Counts()
	jobs := 0
	for i, u := range b.Busy {
		if u >= 0 && b.HasJob[i] {
			jobs++
		}
	}
	if v.busy == 1 {
		for i, u := range b.Busy {
			if u >= diagnose.BalanceBusyPct {
				v.oneBusy = i
			}
		}
	}
	if pts, hi, lo, ok := b.Spread(); ok {
		v.spread, v.pts, v.hi, v.lo = true, fmt.Sprintf("%.0f", pts), hi, lo
		return v
	}
	if jobs == 1 && len(b.Busy) > 1 {
		for i := range b.Busy {
			if b.HasJob[i] {
				v.allOn = i
				break
			}
		}
	}
	return v
}

// say is the verdict in the dashboard's language.
func (v balanceVerdict) say(c *common) (full, short string) {
	counts := c.say("balance.counts", map[string]any{"Busy": v.busy, "Idle": v.idle})
	if v.oneBusy >= 0 {
		counts = c.say("balance.one_busy", map[string]any{"GPU": v.oneBusy, "Idle": v.idle})
	}
	brief := c.say("balance.brief", map[string]any{"Busy": v.busy, "Idle": v.idle})
	switch {
	case v.spread:
		return c.say("balance.spread", map[string]any{"Pts": v.pts, "Hi": v.hi, "Lo": v.lo}) + " · " + counts,
			c.say("balance.spread_short", map[string]any{"Pts": v.pts}) + " · " + brief
	case v.allOn >= 0:
		return c.say("balance.all_on", map[string]any{"GPU": v.allOn}) + " · " + counts,
			c.say("balance.all_on_short", map[string]any{"GPU": v.allOn}) + " · " + brief
	}
	return counts, brief
}

// balanceInfo is the GPU pane title's balance text, fitted to room cells:
// util bars and the verdict first, the memory bars when there is room.
func balanceInfo(c *common, window []sampler.Snapshot, room int) string {
	b := c.balanceSums.of(window)
	if len(b.Busy) < 2 {
		return "" // one GPU has nothing to balance against
	}
	util := c.word("gpu.util") + " " + balanceBars(b.Busy)
	mem := c.word("gpu.mem") + " " + balanceBars(b.Mem)
	sum, short := balanceSummary(b, c)
	for _, s := range []string{util + " " + mem + " " + sum, util + " " + sum, util + " " + short, util} {
		if widthOf(s) <= room {
			return s
		}
	}
	return ""
}

// balanceSums are diagnose.BalanceSums over a window's snapshots before
// its newest, kept while those are the same (they change once a second:
// ui/history.go keeps a point a second and replaces only the newest), so
// a frame at --interval 100ms adds one snapshot, not the window's 120.
type balanceSums struct {
	first, prev snapKey // the window's oldest and its second newest
	n, k        int     // GPU positions; snapshots added
	sums        *diagnose.BalanceSums
}

// snapKey tells a snapshot of the history from another.
type snapKey struct {
	unix int64
	seq  uint64
}

func keyOf(s *sampler.Snapshot) snapKey { return snapKey{s.Time.UnixNano(), s.Seq} }

// of is diagnose.NodeBalance(window).
func (b *balanceSums) of(window []sampler.Snapshot) diagnose.Balance {
	if len(window) < 2 {
		return diagnose.NodeBalance(window)
	}
	k, last := len(window)-1, &window[len(window)-1]
	if first, prev := keyOf(&window[0]), keyOf(&window[k-1]); b.sums == nil || b.n != len(last.GPUs) || b.k != k || b.first != first || b.prev != prev {
		*b = balanceSums{first: first, prev: prev, n: len(last.GPUs), k: k, sums: diagnose.NewBalanceSums(len(last.GPUs))}
		for i := range window[:k] {
			b.sums.Add(&window[i])
		}
	}
	return b.sums.With(last)
}
