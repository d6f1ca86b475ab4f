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
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

// Finding is one fleet-level finding.
type Finding struct {
	Severity diagnose.Severity `json:"severity"`
	Title    string            `json:"title"`
	Nodes    []string          `json:"nodes"`
	// I18n is Title as a message (see diagnose.Finding's).
	I18n *diagnose.Msg `json:"i18n,omitempty"`
}

// finding builds a fleet finding worded by title.
func finding(sev diagnose.Severity, title diagnose.Msg, nodes []string) Finding {
	return Finding{sev, title.English(), nodes, &title}
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
func Count(f fleetsnap.Fleet) Counts {
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
func Fleet(f fleetsnap.Fleet, idleFor time.Duration) []Finding {
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
		out = append(out, finding(diagnose.Critical, diagnose.Say("fleet.xid", "Xid errors in the last hour on {{.Nodes}} (gpuscope explain xid_error)",
			"Nodes", nodes(len(xid))), xid))
	}
	if len(ecc) > 0 {
		out = append(out, finding(diagnose.Critical, diagnose.Say("fleet.ecc", "uncorrected ECC errors in the last hour on {{.Nodes}} (gpuscope explain ecc_errors)",
			"Nodes", nodes(len(ecc))), ecc))
	}
	out = append(out, Stragglers(f)...)
	if len(down) > 0 {
		exporters := diagnose.Say("fleet.exporters", "{{.N}} exporters", "N", len(down))
		if len(down) == 1 {
			exporters = diagnose.Say("fleet.exporter", "1 exporter")
		}
		out = append(out, finding(diagnose.Warning, diagnose.Say("fleet.down", "{{.Exporters}} down: their GPUs are unknown, not idle",
			"Exporters", exporters), down))
	}
	if idleGPUs > 0 {
		gpus := diagnose.Say("fleet.gpus", "{{.N}} GPUs", "N", idleGPUs)
		if idleGPUs == 1 {
			gpus = diagnose.Say("fleet.gpu", "1 GPU")
		}
		out = append(out, finding(diagnose.Warning, diagnose.Say("fleet.idle_held",
			"{{.GPUs}} on {{.Nodes}} idle while holding memory for > {{.For}} (gpuscope explain memory_idle_held)",
			"GPUs", gpus, "Nodes", nodes(len(idleNodes)), "For", span(idleFor)), idleNodes))
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

// nodes is "1 node" or "N nodes" as words.
func nodes(n int) diagnose.Msg {
	if n == 1 {
		return diagnose.Say("fleet.node", "1 node")
	}
	return diagnose.Say("fleet.nodes", "{{.N}} nodes", "N", n)
}

// hostRules are the rules that need the host or the process list, which
// dcgm-exporter does not export (RuleInfo.NeedsHost, NeedsProcesses), in
// canonical order.
func hostRules() []string {
	var out []string
	for _, r := range diagnose.Rules {
		if r.NeedsHost || r.NeedsProcesses {
			out = append(out, r.ID)
		}
	}
	return out
}

// Where a node's findings come from (NodeResult.From).
const (
	FromExporter = "the node's gpuscope exporter"
	FromDCGM     = "rules over its dcgm-exporter series"
)

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
func Node(n fleetsnap.Node, history []sampler.Snapshot) NodeResult {
	if n.Gpuscope {
		r := NodeResult{From: FromExporter}
		for _, f := range n.Findings {
			sev := diagnose.Info
			_ = sev.UnmarshalJSON([]byte(`"` + f.Severity + `"`))
			r.Findings = append(r.Findings, diagnose.Finding{Rule: f.Rule, Severity: sev, GPU: f.GPU, PID: f.PID,
				Title: f.Rule, Since: f.Since})
		}
		return r
	}
	r := NodeResult{From: FromDCGM, NeedsHost: hostRules()}
	tracker := diagnose.NewTracker(diagnose.Options{})
	var last []diagnose.Finding
	for _, s := range history {
		last = tracker.Push(s)
	}
	// A rule that needs the host judged a node without it (no process, no
	// CPU): what it says rests on missing data, and NeedsHost says so.
	for _, f := range last {
		if !slices.Contains(r.NeedsHost, f.Rule) {
			r.Findings = append(r.Findings, f)
		}
	}
	return r
}
