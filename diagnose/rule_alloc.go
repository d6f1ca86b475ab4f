package diagnose

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// allocIdleSpan: a GPU allocated with no process for 90 s, the span
// memory_idle_held waits too, so a live 120 s window can answer; a job's
// batch script that stages data for a minute before its first step does
// not count (docs/playbook/allocated_idle.md).
const allocIdleSpan = idleHeldSpan

// ruleAllocatedIdle: a scheduler allocated this GPU to a job or pod, and no
// process has run on it for allocIdleSpan: the GPU is held and idle, and
// no tool that starts from processes sees it ([gpu-idle-handbook] §8.1
// other users' jobs; §6.1 held is not used).
func (c *ctx) ruleAllocatedIdle(g *gpuCtx) (Finding, bool) {
	h, ok := HolderOf(g.last)
	if !ok || hasProcess(g.last) {
		return Finding{}, false
	}
	// Walk back while the same holder kept the GPU with no process and no
	// kernel running: the finding starts where that began.
	from, maxUtil := len(c.w), 0.0
	for i := len(c.w) - 1; i >= 0; i-- {
		x := g.col[i].x
		if x == nil || x.Lost {
			break
		}
		if hx, ok := HolderOf(x); !ok || hx != h || hasProcess(x) || x.Util.OK && !idleSample(x) {
			break
		}
		from, maxUtil = i, max(maxUtil, x.Util.Or(0))
	}
	if from >= len(c.w) {
		return Finding{}, false
	}
	held := c.last.Time.Sub(c.w[from].Time)
	if held < allocIdleSpan {
		return Finding{}, false
	}
	ev := Text{say("allocated_idle.ev", "{{.Holder}} holds GPU {{.GPU}}: no process on it for {{.Span}} ({{.Hours}} GPU-hours held unused so far)",
		"Holder", h.words(), "GPU", g.idx, "Span", heldFor(held), "Hours", gpuHours(held)),
		say("allocated_idle.readings", "GPU-Util max {{.Max}}, memory used {{.Mem}}, power {{.Power}}",
			"Max", pct(maxUtil), "Mem", gbytes(g.last.MemUsed.Or(0)), "Power", units.Spaced.Watts(g.last.Power))}
	return c.make(RuleAllocatedIdle, Warning, g.idx, 0,
		say("allocated_idle.title", "GPU {{.GPU}} held by {{.Holder}} with no process for {{.Span}}",
			"GPU", g.idx, "Holder", h.words(), "Span", heldFor(held)), ev, hintAllocIdle, nil, from), true
}

// heldFor is a span in minutes past ten minutes, "95 s" below.
func heldFor(d time.Duration) string {
	if d < 10*time.Minute {
		return secs(d)
	}
	return d.Round(time.Minute).String()
}

func gpuHours(d time.Duration) string { return units.Number(sampler.Some(d.Hours()), 2) }
