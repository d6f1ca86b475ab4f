// Package fleetsnap holds what a fleet source (sampler/promsource) says
// about many nodes at one instant, as plain values: the fleet's diagnosis
// (diagnose/fleetdiag) and view (ui/fleet) read them without linking the
// HTTP client that fetched them.
package fleetsnap

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Fleet is every GPU node the server knows, at one instant.
type Fleet struct {
	At    time.Time
	Nodes []Node // sorted by waste, most first, then name
	// Problems are queries that failed; the rest of the fleet is still shown.
	Problems []string
	// Span is how far back the figures over a window (the last hour,
	// MeanWindow, the idle span) reach when the source holds less than
	// they ask: `--nodes` has only the scrapes since it started. 0: all
	// of it (a server's storage).
	Span time.Duration
}

// Node is one scrape target that exported GPU series in the last hour.
type Node struct {
	Key  NodeKey
	Name string // host name label, else the instance
	Up   bool   // the target's last scrape succeeded
	// DownReason is why a target scraped directly (`--nodes`) did not
	// answer; "" from a server, which says only up == 0.
	DownReason string
	// Gpuscope is true when the target is a gpuscope exporter: its findings
	// are the node's own diagnosis, with host data.
	Gpuscope bool
	GPUs     []GPU
	Findings []Finding // from gpuscope_finding
	// WasteGPUHours: GPU-hours idle while memory was held, last hour.
	WasteGPUHours float64
	// EnergyKWh: what the GPUs with an energy counter used in the last hour.
	EnergyKWh float64
}

// GPU is one GPU's latest figures and its last hour.
type GPU struct {
	Index          int
	UUID, Model    string
	Namespace, Pod string         // where the labels give them
	Util           sampler.Metric // percent
	MemUsed        sampler.Metric // bytes
	MemTotal       sampler.Metric // bytes
	Power          sampler.Metric // W
	// EnergyKWh is the energy counter's rise over the last hour (n/a
	// without the counter: before Volta, or an exporter without it).
	EnergyKWh sampler.Metric
	// IdleHeldHours is the time idle while holding memory in the last hour.
	IdleHeldHours float64
	// IdleHeldLong: idle while holding memory for all of Options.IdleFor.
	IdleHeldLong bool
	Xid          bool // an Xid in the last hour
	ECC          bool // uncorrected ECC errors rose in the last hour
	// UtilMean and SMActiveMean are the means over the last MeanWindow,
	// percent: what the cross-node straggler rule compares.
	UtilMean, SMActiveMean sampler.Metric
	// Job is the value of promsource.Config.JobLabel on the GPU's series.
	Job string
}

// MeanWindow is the span of GPU.UtilMean and SMActiveMean: ten samples
// at dcgm-exporter's default 30 s interval ([dcgm-exporter]), so training
// steps and evaluation phases average out; the node's own diagnosis judges
// 120 s of 1 s samples, which a 30 s series would give four points of.
const MeanWindow = 5 * time.Minute

// Finding is one open gpuscope_finding series.
type Finding struct {
	Rule, Severity string
	GPU, PID       int
	Since          time.Time
}

// NodeKey is a scrape target. Nodes are told apart by target, not by host
// name: two exporters that report the same host name are two nodes.
type NodeKey struct {
	Job, Instance string
}
