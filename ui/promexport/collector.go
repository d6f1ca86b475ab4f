package promexport

import (
	"slices"
	"strconv"
	"sync"

	"github.com/gpuscope/gpuscope/sampler"
)

// Options choose the name sets. Both are on by default in `gpuscope serve`.
type Options struct {
	// DCGM exports dcgm-exporter's names, units and labels (DCGM_FI_*), so
	// dashboards and alerts written for dcgm-exporter work unchanged.
	DCGM bool
	// Own exports gpuscope_* names: base units, _total counters, per-process
	// series, the open findings and the host figures the rules use.
	Own bool
	// Version goes into gpuscope_build_info.
	Version string
	// Pods adds dcgm-exporter's pod, namespace and container labels and
	// gpuscope_gpu_pod_info, read from the snapshot (sampler.GPU.Pod, which
	// the sampler fills from the kubelet). Off where no kubelet answers.
	Pods bool
	// MaxRequests is how many /metrics answers are built at once; a scrape
	// beyond it gets 503 (--web.max-requests; 0: no limit).
	MaxRequests int
}

// gpuMetric is one per-GPU family and how to read its value.
type gpuMetric struct {
	fam   *family
	value func(g *sampler.GPU, x xidCount) (float64, bool)
	// extra gives the values of labels the family has beyond the GPU's
	// (dcgm-exporter's err_code, err_msg on XID_ERRORS); nil for none.
	extra func(x xidCount) []string
}

// metricSet is every family the options turn on, and builds a scrape's
// series from the latest published tick. It never reads hardware.
type metricSet struct {
	opts     Options
	dcgm     []gpuMetric
	own      ownFamilies
	families []*family // sorted by name: the exposition order
	pool     sync.Pool // *scrape, reused across scrapes
}

// scrape is one scrape's series: one batch per family, in name order.
type scrape struct {
	batches []batch
	body    []byte // the encoded exposition, reused
}

func (sc *scrape) of(f *family) *batch { return &sc.batches[f.idx] }

func newMetricSet(opts Options) *metricSet {
	m := &metricSet{opts: opts}
	if opts.DCGM {
		m.dcgm = dcgmMetrics(opts.Pods)
		for _, g := range m.dcgm {
			m.families = append(m.families, g.fam)
		}
	}
	if opts.Own {
		m.own = newOwnFamilies(opts.Pods)
		m.families = append(m.families, m.own.all()...)
	}
	sortFamilies(m.families)
	for i, f := range m.families {
		f.idx = i
	}
	m.pool.New = func() any {
		sc := &scrape{batches: make([]batch, len(m.families))}
		for i, f := range m.families {
			sc.batches[i].fam = f
		}
		return sc
	}
	return m
}

// build returns the series of the latest tick, sorted; nil before the first
// tick. Give it back with release.
func (m *metricSet) build(st *State) *scrape {
	snap, findings, ok := st.Latest()
	if !ok {
		return nil
	}
	sc := m.pool.Get().(*scrape)
	if m.opts.DCGM {
		for i := range snap.GPUs {
			g := &snap.GPUs[i]
			addGPU(sc, m.dcgm, g, st.xidsOf(g), newLabelSet(dcgmLabels(&snap.Node, g, m.opts.Pods)...))
		}
	}
	if m.opts.Own {
		m.own.collect(sc, st, &snap, findings, m.opts)
	}
	for i := range sc.batches {
		sc.batches[i].sort()
	}
	return sc
}

func (m *metricSet) release(sc *scrape) {
	for i := range sc.batches {
		sc.batches[i].reset()
	}
	m.pool.Put(sc)
}

// addGPU adds every metric of a set the GPU has a reading for: n/a is an
// absent series, never a zero.
func addGPU(sc *scrape, set []gpuMetric, g *sampler.GPU, x xidCount, labels *labelSet) {
	if g.Lost {
		return // a lost GPU answers nothing; its last values would be stale
	}
	for _, m := range set {
		v, ok := m.value(g, x)
		switch {
		case !ok:
		case m.extra != nil:
			sc.of(m.fam).addSet(v, newLabelSet(append(slices.Clone(labels.values), m.extra(x)...)...))
		default:
			sc.of(m.fam).addSet(v, labels)
		}
	}
}

// Readers shared by both sets (raw: noinline, fifty metric tables share one copy).
//
//go:noinline
func raw(f func(*sampler.GPU) sampler.Metric) func(*sampler.GPU, xidCount) (float64, bool) {
	return func(g *sampler.GPU, _ xidCount) (float64, bool) { m := f(g); return m.V, m.OK }
}

func scaled(f func(*sampler.GPU) sampler.Metric, k float64) func(*sampler.GPU, xidCount) (float64, bool) {
	return func(g *sampler.GPU, _ xidCount) (float64, bool) { m := f(g); return m.V * k, m.OK }
}

func flag(f func(*sampler.GPU) bool) func(*sampler.GPU, xidCount) (float64, bool) {
	return func(g *sampler.GPU, _ xidCount) (float64, bool) { return b2f(f(g)), true }
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func itoa(i int) string { return strconv.Itoa(i) }
