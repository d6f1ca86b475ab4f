package fleetdiag

import (
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

// Policy is what one fleet refresh diagnoses, and from how much history.
type Policy struct {
	// IdleFor is how long a GPU must sit idle holding memory to be a fleet
	// finding.
	IdleFor time.Duration
	// MaxFromSeries bounds how many dcgm-exporter-only nodes a refresh
	// diagnoses from their series, most wasteful first; the others are
	// diagnosed when opened. Rebuilding every node's history costs memory
	// in proportion: 1,000 nodes took ~220 MB at peak in
	// BenchmarkFleet1000NodesOverPrometheus, which a cap of 50 keeps near
	// the fleet's own size. Nodes running gpuscope serve bring their
	// findings and cost nothing here.
	MaxFromSeries int
	// Window is how much of a node's series the rules read: the diagnosis
	// window and a minute for the first samples to settle.
	Window time.Duration
}

// DefaultPolicy is the fleet view's and `--once`'s.
func DefaultPolicy() Policy {
	return Policy{IdleFor: 30 * time.Minute, MaxFromSeries: 50, Window: diagnose.DefaultWindow + time.Minute}
}

// Plan is one refresh's split of the fleet: the nodes whose series the
// rules read (most waste first, as the fleet is ordered), and how many
// more would need it and wait until opened. Nodes down are not diagnosed;
// nodes with their own gpuscope exporter need no history.
type Plan struct {
	FromSeries []fleetsnap.Node
	Skipped    int
}

// Plan splits f by p.
func (p Policy) Plan(f fleetsnap.Fleet) Plan {
	var plan Plan
	for _, n := range f.Nodes {
		switch {
		case n.Gpuscope, !n.Up:
		case len(plan.FromSeries) < p.MaxFromSeries:
			plan.FromSeries = append(plan.FromSeries, n)
		default:
			plan.Skipped++
		}
	}
	return plan
}

// Diagnose gives each node it can its result: a gpuscope exporter's own
// findings, or the rules over the history read for the plan (hist by node).
func (p Policy) Diagnose(f fleetsnap.Fleet, hist map[fleetsnap.NodeKey][]sampler.Snapshot) map[fleetsnap.NodeKey]NodeResult {
	out := map[fleetsnap.NodeKey]NodeResult{}
	for _, n := range f.Nodes {
		if n.Gpuscope {
			out[n.Key] = Node(n, nil)
		} else if h, ok := hist[n.Key]; ok {
			out[n.Key] = Node(n, h)
		}
	}
	return out
}
