// Package fleetdiag diagnoses a fleet read from Prometheus: fleet-level
// findings (GPUs idle while holding memory for long, nodes with Xid or ECC
// errors, exporters down, stragglers across the nodes of a job) and, per node, the findings of the node's own
// gpuscope exporter or, for a node with dcgm-exporter only, the GPU-side
// rules run over its series.
package fleetdiag

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/promsource"
)

// Finding is one fleet-level finding.
type Finding struct {
	Severity diagnose.Severity `json:"severity"`
	Title    string            `json:"title"`
	Nodes    []string          `json:"nodes"`
}

// BusyUtil is the GPU-Util at or above which a GPU counts as busy: below it
// is idle, diagnose's memory_idle_held threshold ("util < 10%").
const BusyUtil = 10.0

// Counts are the fleet's node and GPU tallies.
type Counts struct {
	Nodes     int `json:"nodes"`
	NodesUp   int `json:"nodes_up"`
	NodesDown int `json:"nodes_down"`
	GPUs      int `json:"gpus"`
	Busy      int `json:"busy"`
	Idle      int `json:"idle"`
	Down      int `json:"down"`
}

// Count tallies the fleet: a down node's GPUs are down, not idle.
func Count(f promsource.Fleet) Counts {
	var c Counts
	for _, n := range f.Nodes {
		c.Nodes++
		c.GPUs += len(n.GPUs)
		if !n.Up {
			c.NodesDown++
			c.Down += len(n.GPUs)
			continue
		}
		c.NodesUp++
		for _, g := range n.GPUs {
			if g.Util.Or(0) >= BusyUtil {
				c.Busy++
			} else {
				c.Idle++
			}
		}
	}
	return c
}

// Fleet returns the fleet-level findings, worst first.
func Fleet(f promsource.Fleet, idleFor time.Duration) []Finding {
	var out []Finding
	var down, xid, ecc, idleNodes []string
	idleGPUs := 0
	for _, n := range f.Nodes {
		if !n.Up {
			down = append(down, n.Name)
			continue
		}
		held, hasXid, hasECC := 0, []string{}, []string{}
		for _, g := range n.GPUs {
			if g.IdleHeldLong {
				held++
			}
			if g.Xid {
				hasXid = append(hasXid, fmt.Sprint(g.Index))
			}
			if g.ECC {
				hasECC = append(hasECC, fmt.Sprint(g.Index))
			}
		}
		if held > 0 {
			idleGPUs += held
			idleNodes = append(idleNodes, n.Name)
		}
		if len(hasXid) > 0 {
			xid = append(xid, n.Name+" (GPU "+strings.Join(hasXid, ",")+")")
		}
		if len(hasECC) > 0 {
			ecc = append(ecc, n.Name+" (GPU "+strings.Join(hasECC, ",")+")")
		}
	}
	if len(xid) > 0 {
		out = append(out, Finding{diagnose.Critical, fmt.Sprintf("Xid errors in the last hour on %s (gpuscope explain xid_error)", plural(len(xid), "node")), xid})
	}
	if len(ecc) > 0 {
		out = append(out, Finding{diagnose.Critical, fmt.Sprintf("uncorrected ECC errors in the last hour on %s (gpuscope explain ecc_errors)", plural(len(ecc), "node")), ecc})
	}
	out = append(out, Stragglers(f)...)
	if len(down) > 0 {
		out = append(out, Finding{diagnose.Warning, fmt.Sprintf("%s down: their GPUs are unknown, not idle", plural(len(down), "exporter")), down})
	}
	if idleGPUs > 0 {
		out = append(out, Finding{diagnose.Warning, fmt.Sprintf("%s on %s idle while holding memory for > %s (gpuscope explain memory_idle_held)",
			plural(idleGPUs, "GPU"), plural(len(idleNodes), "node"), span(idleFor)), idleNodes})
	}
	return out
}

// span writes whole minutes as "30 min", anything else as Go does.
func span(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return fmt.Sprintf("%d min", int(d/time.Minute))
	}
	return d.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// hostRules are the rules that need the host or the process list, which
// dcgm-exporter does not export (diagnose/rule_input.go, rule_sharing.go,
// and the workload rules, which judge a GPU by its main process).
var hostRules = []string{"input_starved", "io_bound", "sync_stall", "gpu_contention", "load_imbalance",
	"launch_bound", "copy_bound", "tensor_cores_idle", "memory_bandwidth_bound", "memory_idle_held", "serving_underfilled"}

// NodeResult is one node's diagnosis and where it came from.
type NodeResult struct {
	Findings []diagnose.Finding
	// From says how: "the node's gpuscope exporter" or "rules over its
	// dcgm-exporter series".
	From string
	// NeedsHost lists the rules that could not run without host data.
	NeedsHost []string
}

// Node diagnoses one node. A gpuscope exporter's findings are its own
// diagnosis over 1 s samples with host data, and are taken as they are; for
// other nodes the rules run over the history rebuilt from Prometheus, and
// the rules that need the host say so.
func Node(n promsource.Node, history []sampler.Snapshot) NodeResult {
	if n.Gpuscope {
		r := NodeResult{From: "the node's gpuscope exporter"}
		for _, f := range n.Findings {
			sev := diagnose.Info
			_ = sev.UnmarshalJSON([]byte(`"` + f.Severity + `"`))
			r.Findings = append(r.Findings, diagnose.Finding{Rule: f.Rule, Severity: sev, GPU: f.GPU, PID: f.PID,
				Title: f.Rule, Since: f.Since})
		}
		return r
	}
	r := NodeResult{From: "rules over its dcgm-exporter series", NeedsHost: slices.Clone(hostRules)}
	tracker := diagnose.NewTracker(diagnose.Options{})
	var last []diagnose.Finding
	for _, s := range history {
		last = tracker.Push(s)
	}
	// A rule that needs the host judged a node without it (no process, no
	// CPU): what it says rests on missing data, and NeedsHost says so.
	for _, f := range last {
		if !slices.Contains(hostRules, f.Rule) {
			r.Findings = append(r.Findings, f)
		}
	}
	return r
}
