package diagnose

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

const (
	// contentionSM: a process taking ≥ 20% of SM time is a real competitor
	// (a fifth of the SMs' time: a neighbour that takes that much slows
	// the job measurably; [gpu-idle-handbook] §5: give every card a
	// definite job).
	contentionSM = 20.0
	// contentionMem: without per-process util, a process holding ≥ 1 GB is
	// counted as a competitor (a bare CUDA context is ~0.5 GB).
	contentionMem = 1e9
)

// ruleGPUContention: several independent processes compete for one GPU
// ([gpu-idle-handbook] §8.1: "is another process using the GPU?").
func (c *ctx) ruleGPUContention(g *gpuCtx) (Finding, bool) {
	if !g.workload() || len(g.last.Procs) < 2 {
		return Finding{}, false
	}
	if s := strays(c.last, g.last); strayCase(s, g.last) { // ranks' contexts, not jobs to end: evidence_strays.go
		title, ev := strayWords(s, g.idx)
		return c.finding(g, RuleGPUContention, Warning, 0, title, ev, hintStrayRanks, nil), true
	}
	var who []string
	heavy, perProcKnown, big := 0, 0, 0
	var users []string
	for i := range g.last.Procs {
		p := &g.last.Procs[i]
		hp := hostProc(c.last, p, p.PID)
		if hp != nil && findProc(g.last, hp.PPID) != nil {
			continue // a child of another process here: same job
		}
		if c.last.Time.Sub(c.processStart(g.idx, p.PID, hp)) < graceNewProcess {
			continue
		}
		if hp != nil && hp.User != "" {
			if !containsString(users, hp.User) {
				users = append(users, hp.User)
			}
		}
		sm, ok := c.procSM(g, p.PID)
		if ok {
			perProcKnown++
			if sm >= contentionSM {
				heavy++
				who = append(who, fmt.Sprintf("%s %s SM", procLabelUser(p.PID, hp), pct(sm)))
			}
		} else if p.MemUsed.Or(0) >= contentionMem {
			big++
			who = append(who, fmt.Sprintf("%s %s", procLabelUser(p.PID, hp), gbytes(p.MemUsed.V)))
		}
	}
	var userNote, free Text
	if len(users) > 1 {
		userNote = Text{then("contention.users", " ({{.N}} users)", "N", len(users))}
	}
	if n := c.emptyGPUs(); n > 0 {
		free = Text{say("contention.free", "{{.N}} {{plural .N \"GPU has\" \"GPUs have\"}} no process", "N", n)}
	}
	// on is the rest of the first clause: the GPU's load and who competes
	// (command lines and figures, the same in any language).
	on := then("contention.on", " on GPU-Util mean {{.Util}} over {{.Span}}: {{.Who}}", "Util", pct(g.util.mean), "Span", secs(g.span), "Who", strings.Join(who, "; "))
	switch {
	case perProcKnown >= 2 && heavy >= 2:
		ev := append(Text{say("contention.heavy", "{{.N}} processes each ≥ {{.SM}} of SM time", "N", heavy, "SM", pct(contentionSM))}, userNote...)
		ev = append(append(ev, on), free...)
		return c.finding(g, RuleGPUContention, Warning, 0,
			say("contention.title", "{{.N}} processes compete for GPU {{.GPU}}", "N", heavy, "GPU", g.idx), ev, hintContention, nil), true
	case perProcKnown == 0 && big >= 2:
		ev := append(Text{say("contention.memory", "{{.N}} processes hold memory", "N", big)}, userNote...)
		ev = append(append(ev, on), free...)
		return c.finding(g, RuleGPUContention, Warning, 0,
			say("contention.title_memory", "{{.N}} processes share GPU {{.GPU}}", "N", big, "GPU", g.idx), ev, hintContention,
			Text{say("est.no_proc_sm", "per-process SM utilisation n/a: competitors counted by memory held")}), true
	}
	return Finding{}, false
}

// procSM is pid's mean per-process SM utilisation on g over its window.
func (c *ctx) procSM(g *gpuCtx, pid int) (float64, bool) {
	sum, n := 0.0, 0
	for i := g.from; i < len(c.w); i++ {
		if x := g.col[i].x; x != nil {
			if p := findProc(x, pid); p != nil && p.SMUtil.OK {
				sum += p.SMUtil.V
				n++
			}
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

func procLabelUser(pid int, hp *sampler.Proc) string {
	l := procLabel(pid, hp)
	if hp != nil && hp.User != "" {
		l += " (" + hp.User + ")"
	}
	return l
}

// emptyGPUs counts GPUs with no process that idle (util mean < idleUtil).
func (c *ctx) emptyGPUs() int {
	n := 0
	for gi := range c.gpus {
		if g := &c.gpus[gi]; g.main == nil && g.util.n > 0 && g.util.mean < idleUtil {
			n++
		}
	}
	return n
}
