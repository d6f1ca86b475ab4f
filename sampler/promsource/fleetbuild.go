package promsource

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

// gpuLabels place a series on one GPU (or one MIG instance, which the
// fleet leaves out).
const gpuLabels = "job, instance, gpu, GPU_I_ID"

// perGPU keeps, server side, only the labels that place a series on a GPU:
// an exporter's other labels (bus id, driver version, pod …) would be
// decoded for each of 8,000 series of each figure and dropped. The
// inventory query brings them once.
func perGPU(q string) string { return "max by (" + gpuLabels + ") (" + q + ")" }

// figure is one figure in every spelling, each scaled to the snapshot's
// unit server side and trimmed to gpuLabels; `or` keeps a GPU's first
// spelling (its right side adds only label sets the left lacks), so a
// gpuscope exporter serving both name sets answers once per GPU. over
// wraps each series selector (latest reading: latest).
func (s *Source) figure(names []string, over func(sel string) string) string {
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = perGPU(fmt.Sprintf("%g * %s", scaleOf(name), over(s.sel(name))))
	}
	return strings.Join(parts, " or ")
}

func latest(sel string) string { return sel }

// inventory keeps the labels the fleet reads from a GPU's series: where
// it is (job, instance, gpu, MIG instance), what it is (UUID, model), whose
// it is (host name, pod, namespace, the job label), in both exporters'
// spellings.
func (s *Source) inventory(q string) string {
	by := "job, instance, gpu, GPU_I_ID, Hostname, hostname, UUID, uuid, modelName, pod, namespace, exported_pod, exported_namespace"
	if s.jobLabel != "" {
		by += ", " + string(s.jobLabel) + ", exported_" + string(s.jobLabel)
	}
	return "max by (" + by + ") (" + q + ")"
}

// fleetBuilder gathers series into nodes and GPUs.
type fleetBuilder struct {
	jobLabel string
	nodes    map[fleetsnap.NodeKey]*fleetsnap.Node
	gpus     map[gpuRef]*fleetsnap.GPU
	order    map[fleetsnap.NodeKey][]int
}

func newFleetBuilder() *fleetBuilder {
	return &fleetBuilder{nodes: map[fleetsnap.NodeKey]*fleetsnap.Node{}, gpus: map[gpuRef]*fleetsnap.GPU{}, order: map[fleetsnap.NodeKey][]int{}}
}

// gpu returns the GPU a series belongs to, creating it (and its node) on
// first sight; nil for a series that is not one physical GPU's.
func (b *fleetBuilder) gpu(m metric) *fleetsnap.GPU {
	ref, ok := refOf(m)
	if !ok {
		return nil
	}
	n := b.nodes[ref.node]
	if n == nil {
		n = &fleetsnap.Node{Key: ref.node, Name: hostOf(m)}
		b.nodes[ref.node] = n
	}
	g := b.gpus[ref]
	if g == nil {
		g = &fleetsnap.GPU{Index: ref.gpu}
		b.gpus[ref] = g
		b.order[ref.node] = append(b.order[ref.node], ref.gpu)
	}
	if g.UUID == "" {
		g.UUID = string(m["UUID"])
		if g.UUID == "" {
			g.UUID = string(m["uuid"])
		}
	}
	if g.Model == "" {
		g.Model = string(m["modelName"])
	}
	if ns, pod := podOf(m); pod != "" && g.Pod == "" {
		g.Namespace, g.Pod = ns, pod
	}
	if b.jobLabel != "" && g.Job == "" {
		// With honor_labels false a label the target also has is exported_*.
		g.Job = cmp.Or(string(m["exported_"+b.jobLabel]), string(m[b.jobLabel]))
	}
	return g
}

// neverUp lists the down targets that never sent a GPU series, in the
// scrape jobs that have GPU nodes: an exporter that never came up (a wrong
// port, a firewall) is a node down, not a node missing ("3 up, 0 down"
// while Prometheus said up == 0). Down targets of other jobs (a
// node_exporter) are not GPU nodes and stay out.
func (b *fleetBuilder) neverUp(keys []fleetsnap.NodeKey) {
	gpuJobs := map[string]bool{}
	for k := range b.nodes {
		gpuJobs[k.Job] = true
	}
	for _, k := range keys {
		if gpuJobs[k.Job] && b.nodes[k] == nil {
			b.nodes[k] = &fleetsnap.Node{Key: k, Name: k.Instance}
		}
	}
}

// finish orders GPUs by index and nodes by waste (most first), then name.
func (b *fleetBuilder) finish() []fleetsnap.Node {
	out := make([]fleetsnap.Node, 0, len(b.nodes))
	for key, n := range b.nodes {
		idx := b.order[key]
		slices.Sort(idx)
		n.GPUs = make([]fleetsnap.GPU, 0, len(idx))
		for _, i := range idx {
			g := b.gpus[gpuRef{key, i}]
			// Copied: the builder's own is dropped at once, so 8,000 GPUs
			// are not held twice while the fleet is assembled.
			delete(b.gpus, gpuRef{key, i})
			n.GPUs = append(n.GPUs, *g)
			n.WasteGPUHours += g.IdleHeldHours
			n.EnergyKWh += g.EnergyKWh.Or(0)
		}
		order := func(a, b *fleetsnap.Finding) int {
			if ra, rb := severityRank(a.Severity), severityRank(b.Severity); ra != rb {
				return rb - ra
			}
			return strings.Compare(a.Rule, b.Rule)
		}
		sort.Slice(n.Findings, func(i, j int) bool { return order(&n.Findings[i], &n.Findings[j]) < 0 })
		out = append(out, *n)
	}
	names := map[string]int{}
	for _, n := range out {
		names[n.Name]++
	}
	for i := range out { // same host name on two targets: still two nodes
		if names[out[i].Name] > 1 {
			out[i].Name += " (" + out[i].Key.Instance + ")"
		}
	}
	order := func(a, b *fleetsnap.Node) int {
		if a.WasteGPUHours != b.WasteGPUHours {
			if a.WasteGPUHours > b.WasteGPUHours {
				return -1
			}
			return 1
		}
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Key.Instance, b.Key.Instance)
	}
	sort.Slice(out, func(i, j int) bool { return order(&out[i], &out[j]) < 0 })
	return out
}

func severityRank(s string) int {
	switch s {
	case "critical":
		return 2
	case "warning":
		return 1
	}
	return 0
}
