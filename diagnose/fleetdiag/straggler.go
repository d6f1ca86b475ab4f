package fleetdiag

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
	"github.com/gpuscope/gpuscope/sampler/stat"
)

// minJobNodes is the smallest job the straggler rule judges: with two
// nodes there is no "others" to take a median of (diagnose's own rule
// wants three GPUs for the same reason).
const minJobNodes = 3

// podRoles are the replica-type words training operators put in pod names
// (Kubeflow's PyTorchJob/TFJob: master, worker, chief, ps, evaluator;
// MPIJob: launcher, worker; LeaderWorkerSet: leader), dropped with the
// replica numbers so every pod of a job has one name.
var podRoles = map[string]bool{"master": true, "worker": true, "workers": true, "launcher": true,
	"chief": true, "ps": true, "evaluator": true, "leader": true}

// podJob is a pod's job: its name without replica numbers and role words,
// "llama-pretrain-worker-3" → "llama-pretrain", "bert-0" → "bert". A
// Deployment's pod (a hash suffix) keeps its name: a job of one.
func podJob(pod string) string {
	for {
		i := strings.LastIndexByte(pod, '-')
		if i <= 0 {
			return pod
		}
		tail := pod[i+1:]
		if !podRoles[tail] && strings.Trim(tail, "0123456789") != "" {
			return pod
		}
		pod = pod[:i]
	}
}

// jobOf is the job a GPU works for: its --job-label value, else its
// pod's job within its namespace; "" when neither is known.
func jobOf(g *fleetsnap.GPU) string {
	switch {
	case g.Job != "":
		return g.Job
	case g.Pod != "":
		return g.Namespace + "/" + podJob(g.Pod)
	}
	return ""
}

// jobNode is one node's GPUs in one job, their means over
// fleetsnap.MeanWindow averaged.
type jobNode struct {
	name         string
	util, sm     float64
	gpus, smGPUs int
}

// Stragglers finds, in each job that spans nodes, a node the others wait
// for: diagnose's straggler rule with nodes for GPUs and the same
// thresholds ([gpu-idle-handbook] §3.3: the fast ranks show high GPU-Util
// with few SMs active, blocked in collectives). Two shapes: the node
// computes much longer (SM active ≥ StragglerRatio × the others' median
// and StragglerGap points above), or it is markedly less busy (GPU-Util
// that far below: it waits on its own input) — in both, more than half of
// the other nodes wait (GPU-Util ≥ WaitUtilMin, SM active < WaitSMMax).
// Without SM activity on every node waiting cannot be told from working,
// and nothing is said.
func Stragglers(f fleetsnap.Fleet) []Finding {
	jobs := map[string]map[fleetsnap.NodeKey]*jobNode{}
	for _, n := range f.Nodes {
		if !n.Up {
			continue
		}
		for i := range n.GPUs {
			g := &n.GPUs[i]
			j := jobOf(g)
			if j == "" || !g.UtilMean.OK {
				continue
			}
			if jobs[j] == nil {
				jobs[j] = map[fleetsnap.NodeKey]*jobNode{}
			}
			jn := jobs[j][n.Key]
			if jn == nil {
				jn = &jobNode{name: n.Name}
				jobs[j][n.Key] = jn
			}
			jn.gpus++
			jn.util += g.UtilMean.V
			if g.SMActiveMean.OK {
				jn.smGPUs++
				jn.sm += g.SMActiveMean.V
			}
		}
	}
	var out []Finding
	for _, j := range slices.Sorted(maps.Keys(jobs)) {
		if len(jobs[j]) < minJobNodes {
			continue
		}
		var nodes []jobNode
		for _, jn := range jobs[j] {
			if jn.smGPUs < jn.gpus {
				nodes = nil // SM activity missing somewhere: cannot tell waits
				break
			}
			nodes = append(nodes, jobNode{name: jn.name, util: jn.util / float64(jn.gpus), sm: jn.sm / float64(jn.gpus), gpus: jn.gpus})
		}
		if len(nodes) < minJobNodes {
			continue
		}
		sort.Slice(nodes, func(i, j int) bool { return cmp.Compare(nodes[i].name, nodes[j].name) < 0 })
		if fd, ok := straggler(j, nodes); ok {
			out = append(out, fd)
		}
	}
	return out
}

// straggler judges one job's nodes (sorted by name, so ties pick the same
// node every refresh).
func straggler(job string, nodes []jobNode) (Finding, bool) {
	top, low := 0, 0
	for i := range nodes {
		if nodes[i].sm > nodes[top].sm {
			top = i
		}
		if nodes[i].util < nodes[low].util {
			low = i
		}
	}
	for _, c := range []struct {
		cand int
		what string
		// far says the candidate stands apart from the others' medians.
		far func(n jobNode, sm, util float64) bool
	}{
		// Less busy first: a starved node also shows more SM activity
		// than peers that barely run anything but collectives.
		{low, "GPU-Util", func(n jobNode, _, util float64) bool {
			return n.util*diagnose.StragglerRatio <= util && util-n.util >= diagnose.StragglerGap
		}},
		{top, "SM active", func(n jobNode, sm, _ float64) bool {
			return n.sm >= diagnose.StragglerRatio*sm && n.sm-sm >= diagnose.StragglerGap
		}},
	} {
		var sms, utils []float64
		waiting := 0
		for i, n := range nodes {
			if i == c.cand {
				continue
			}
			sms, utils = append(sms, n.sm), append(utils, n.util)
			if n.util >= diagnose.WaitUtilMin && n.sm < diagnose.WaitSMMax {
				waiting++
			}
		}
		// The medians as diagnose takes them (nearest rank: sampler/stat).
		sm, util := stat.Percentile(sms, 50), stat.Percentile(utils, 50)
		n := nodes[c.cand]
		if waiting*2 <= len(nodes)-1 || util < diagnose.WaitUtilMin || !c.far(n, sm, util) {
			continue
		}
		mine, theirs := n.sm, sm
		if c.what == "GPU-Util" {
			mine, theirs = n.util, util
		}
		what := diagnose.Say("word.sm_active", "SM active")
		if c.what == "GPU-Util" {
			what = diagnose.Say("word.gpu_util", "GPU-Util")
		}
		pct := func(v float64) string { return fmt.Sprintf("%.0f%%", v) }
		return finding(diagnose.Warning, diagnose.Say("fleet.straggler",
			"straggler in job {{.Job}}: {{.Node}}'s {{.What}} at {{.Mine}} vs {{.Theirs}} on the job's {{.Others}} other {{plural .Others \"node\" \"nodes\"}}, {{.Waiting}} of which wait in collectives (GPU-Util ≥ {{.Util}}, SM active < {{.SM}}) (gpuscope explain straggler)",
			"Job", job, "Node", n.name, "What", what, "Mine", pct(mine), "Theirs", pct(theirs), "Others", len(nodes)-1, "Waiting", waiting,
			"Util", pct(diagnose.WaitUtilMin), "SM", pct(diagnose.WaitSMMax)), []string{n.name}), true
	}
	return Finding{}, false
}
