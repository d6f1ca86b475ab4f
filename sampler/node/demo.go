// Package node assembles the sources of a whole node: the live one (NVML and
// /proc) and the simulated one behind `--demo`. In the demo the scenario
// engine (sampler/sim) produces the truth, a fake NVML (sampler/fakenvml)
// answers every NVML call from it, and the production NVML reader
// (sampler/nvmlsource) reads it back. So the demo runs the same code path as
// a real node, and its tests cover production code.
package node

import (
	"fmt"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
	"github.com/gpuscope/gpuscope/sampler/nvmlsource"
	"github.com/gpuscope/gpuscope/sampler/sim"
)

// GPUs is the size of the simulated node (a DGX H200-like box).
const GPUs = 8

// Demo is a sampler.GPUSource over the simulated node. Sample advances the
// simulated clock to now before reading, so the simulated world moves with
// whatever clock drives the sampler (wall time live, a fast clock in record).
type Demo struct {
	node   *sim.Node
	nvml   *nvmlsource.Source
	fake   *fakenvml.Fake
	cfg    fakenvml.Config // the fake's, for a driver fault that rebuilds it
	start  time.Time
	faults map[string]bool // --demo-fault (faults.go)
}

// NewDemo builds the demo node for a scenario id (see sim.Scenarios).
func NewDemo(scenario string, seed int64, start time.Time) (*Demo, error) {
	return NewDemoWithOptions(scenario, seed, start, sim.Options{})
}

// NewDemoWithOptions is NewDemo over a node varied by opts (noise sweeps).
func NewDemoWithOptions(scenario string, seed int64, start time.Time, opts sim.Options) (*Demo, error) {
	node, err := sim.NewWithOptions(scenario, seed, start, opts)
	if err != nil {
		return nil, err
	}
	d := &Demo{node: node, start: start, faults: map[string]bool{}}
	// Truth, not GPUs: the fake answers ~200 NVML calls a tick from it, and
	// Truth shares one read-only copy until the clock moves.
	d.cfg = fakenvml.Config{GPUs: GPUs, Truth: node.Truth, Topology: node.Topology()}
	if err := d.open(nil); err != nil {
		return nil, err
	}
	return d, nil
}

// open builds the fake driver from s.cfg and starts the reader on it;
// before, if set, injects faults the reader meets while it starts.
func (s *Demo) open(before func(*fakenvml.Fake)) error {
	if s.nvml != nil {
		s.nvml.Close()
	}
	s.fake = fakenvml.New(s.cfg)
	if before != nil {
		before(s.fake)
	}
	var lib nvmlsource.Library = s.fake.Interface()
	if len(s.cfg.Missing) > 0 { // a driver lacking functions: guarded as on a node
		lib = nvmlsource.Guarded(s.fake.Interface())
	}
	var err error
	if s.nvml, err = nvmlsource.New(lib, nvmlsource.Options{}); err != nil {
		return fmt.Errorf("demo: start the NVML reader on the simulated node: %w", err)
	}
	return nil
}

// Sampler returns a sampler wired to the simulated GPUs and host.
func (s *Demo) Sampler(scenario string) *sampler.Sampler {
	host := s.node.HostSource()
	if s.faults["hostile"] {
		host = hostileHost{host}
	}
	if s.faults["foreign-pids"] {
		host = foreignHost{host}
	}
	return &sampler.Sampler{
		GPU:      s,
		Host:     host,
		Hostname: s.node.Hostname(),
		Source:   "demo:" + scenario,
		PodOf:    s.node.PodOf, // the kubelet's answer, for scenarios served from Kubernetes
		Jobs:     s.node,       // the Slurm jobs of scenarios run under Slurm
	}
}

// Node implements sampler.GPUSource.
func (s *Demo) Node() sampler.Node { return s.nvml.Node() }

// Sample implements sampler.GPUSource.
func (s *Demo) Sample(now time.Time) ([]sampler.GPU, []string) {
	s.node.AdvanceTo(now)
	s.applySchedule(now)
	return s.nvml.Sample(now)
}

// Topology implements sampler.GPUSource.
func (s *Demo) Topology() *sampler.Topology { return s.nvml.Topology() }

// Close implements sampler.GPUSource.
func (s *Demo) Close() error { return s.nvml.Close() }
