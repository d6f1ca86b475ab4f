// Package sim is gpuscope's simulated node, the truth behind `--demo`: an
// 8 × H200 machine whose GPUs, processes and host behave like a real node
// under one of the diagnosable failure modes. It steps a deterministic model
// (math/rand/v2 seeded from the seed and the scenario, never the wall clock)
// in fixed 100 ms steps, so the same sequence of times always gives the same
// readings, and ticking at 100 ms or at 1 s walks the same curves.
package sim

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

const (
	numGPUs  = 8
	stepDur  = 100 * time.Millisecond
	stepSecs = 0.1
	// warmupSteps run before the start so that temperatures, load averages
	// and memory have settled: the demo opens on a node that has been busy.
	// 150 s is five thermal time constants: the temperatures have settled.
	warmupSteps = 1500
)

// ScenarioInfo names one scenario for `--demo` help and listings.
type ScenarioInfo struct{ ID, Summary string }

// Scenarios lists the simulator's scenarios: healthy, mixed, then one per
// diagnosis rule, in the order of docs/scenarios.md.
func Scenarios() []ScenarioInfo {
	table := scenarioTable()
	out := make([]ScenarioInfo, len(table))
	for i, s := range table {
		out[i] = ScenarioInfo{ID: s.id, Summary: s.summary}
	}
	return out
}

// Node is one simulated machine. Its methods may be called from several
// goroutines (the GPU source and the host source of a demo).
type Node struct {
	mu       sync.Mutex
	scenario string
	hostname string
	uuids    [numGPUs]string
	start    time.Time
	now      time.Time
	prevNow  time.Time // Xids in (prevNow, now] are reported
	steps    int64     // steps taken since start
	cycles   []*cycle
	gpus     []*gpuSim
	host     *hostSim
	pcieOnly bool
	// fixedNA, fixedLinks: the parts of every GPU's truth that never
	// change (fixedParts), made at the first truth for pcieOnly as
	// fixedPCIe.
	fixedNA    map[string]string
	fixedLinks []sampler.NVLink
	fixedPCIe  bool
	pods       map[int]sampler.Pod   // by GPU index: the pod the kubelet allocated it to (pods.go)
	jobs       map[int]sampler.Alloc // by GPU index: the Slurm job holding it (slurm.go)
	truth      []sampler.GPU         // readings at the current clock, built on demand
	// truths are the two arrays the truth is built in, in turn (Truth).
	truths [2][]sampler.GPU
	turn   int
}

// Options vary a simulated node for sweeps (the accuracy harness).
type Options struct {
	// NoiseScale multiplies every GPU's per-step jitter (relNoiseMin..Max);
	// 0 or 1 leaves it as drawn.
	NoiseScale float64
}

// New builds the node for scenario at start. An unknown scenario is an error
// that lists the valid ids.
func New(scenario string, seed int64, start time.Time) (*Node, error) {
	return NewWithOptions(scenario, seed, start, Options{})
}

// NewWithOptions is New with the node varied by opts.
func NewWithOptions(scenario string, seed int64, start time.Time, opts Options) (*Node, error) {
	spec, ok := findScenario(scenario)
	if !ok {
		table := scenarioTable()
		ids := make([]string, len(table))
		for i, s := range table {
			ids[i] = s.id
		}
		return nil, fmt.Errorf("sim: unknown scenario %q; valid: %s", scenario, strings.Join(ids, ", "))
	}
	h := fnv.New64a()
	h.Write([]byte(scenario))
	rng := rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
	// Identity depends on the seed only, so one seed is one machine whatever
	// the scenario.
	idRng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	n := &Node{scenario: scenario, start: start, now: start, prevNow: start}
	n.hostname = fmt.Sprintf("gpu-node-%02d", 1+idRng.IntN(64))
	for i := range n.uuids {
		n.uuids[i] = uuid(idRng)
	}
	b := newBuilder(n, rng)
	spec.build(b)
	if opts.NoiseScale > 0 {
		for _, g := range n.gpus {
			g.work.noise *= opts.NoiseScale
		}
	}
	b.finish()
	for i := -warmupSteps + 1; i <= 0; i++ {
		n.step(float64(i) * stepSecs)
	}
	return n, nil
}

func uuid(r *rand.Rand) string {
	a, b := r.Uint64(), r.Uint64()
	return fmt.Sprintf("GPU-%08x-%04x-%04x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xffff, b>>48, b&0xffffffffffff)
}

// AdvanceTo moves the simulated clock to now in 100 ms steps. Earlier or
// equal times change nothing.
func (n *Node) AdvanceTo(now time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !now.After(n.now) {
		return
	}
	target := int64(now.Sub(n.start) / stepDur)
	for n.steps < target {
		n.steps++
		n.step(float64(n.steps) * stepSecs)
	}
	n.prevNow, n.now = n.now, now
	n.truth = nil
}

func (n *Node) step(t float64) {
	for _, c := range n.cycles {
		c.step(stepSecs)
	}
	for _, g := range n.gpus {
		g.step(t, stepSecs)
	}
	n.host.step(t, stepSecs)
}

func (n *Node) t() float64 { return float64(n.steps) * stepSecs }

// GPUs is the truth at the current clock, a fresh deep copy each call that
// the caller may keep and change. Xids holds the events in (previous
// AdvanceTo time, current time].
func (n *Node) GPUs() []sampler.GPU {
	n.mu.Lock()
	defer n.mu.Unlock()
	shared := n.truthLocked()
	out := make([]sampler.GPU, len(shared))
	for i := range shared {
		out[i] = cloneGPU(shared[i])
	}
	return out
}

// Truth is GPUs without the copy, for fakenvml's Config.Truth, which asks on
// every NVML call: the same slice until the clock moves, then the other of
// two, written anew. Callers must not modify it, nor keep it past the next
// move of the clock (a tick's reads end before the next tick's; GPUs gives
// a copy to keep).
func (n *Node) Truth() []sampler.GPU {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.truthLocked()
}

func (n *Node) truthLocked() []sampler.GPU {
	if n.truth == nil {
		// The other array of the two: eight GPU values (~11 KB) were
		// allocated on every tick, ten a second at --interval 100ms, 15 %
		// of the demo dashboard's allocation (docs/benchmarks.md, "The
		// dashboard at 100 ms, again").
		n.turn ^= 1
		if len(n.truths[n.turn]) != len(n.gpus) {
			n.truths[n.turn] = make([]sampler.GPU, len(n.gpus))
		}
		n.truth = n.truths[n.turn]
		for i, g := range n.gpus {
			n.truth[i] = g.report(n, n.t())
			if g.cfg.mig.n > 0 {
				splitMIG(&n.truth[i], g.cfg.mig)
			}
		}
	}
	return n.truth
}

// Host is the host truth at the current clock, a fresh copy each call. Procs
// holds every GPU process, its children (DataLoader workers) and its
// launcher (torchrun, jupyter-lab).
func (n *Node) Host() *sampler.Host {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.host.report()
}

// Hostname is the node's name, fixed by the seed.
func (n *Node) Hostname() string { return n.hostname }

// HostSource adapts the node to sampler.HostSource.
func (n *Node) HostSource() sampler.HostSource { return hostSource{n} }

type hostSource struct{ n *Node }

// Sample advances the node to now and returns its host; gpuPIDs are ignored
// because the simulator already knows every process.
func (h hostSource) Sample(now time.Time, _ []int) (*sampler.Host, error) {
	h.n.AdvanceTo(now)
	return h.n.Host(), nil
}
