package promexport

import "github.com/prometheus/client_golang/prometheus"

// Collector is the prometheus.Collector view of the same series, so the
// tests can hold the exposition against client_golang's own encoder and
// lint (testutil, promlint). It lives in a test file so the binary does not
// link client_golang (docs/benchmarks.md "What each dependency costs").
type Collector struct {
	state *State
	set   *metricSet
	descs []*prometheus.Desc // by family index
}

// NewCollector returns a collector of the chosen name sets over state.
func NewCollector(state *State, opts Options) *Collector {
	c := &Collector{state: state, set: newMetricSet(opts)}
	for _, f := range c.set.families {
		c.descs = append(c.descs, prometheus.NewDesc(f.name, f.help, f.labels, nil))
	}
	return c
}

// Describe implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	sc := c.set.build(c.state)
	if sc == nil {
		return
	}
	defer c.set.release(sc)
	for i := range sc.batches {
		b := &sc.batches[i]
		kind := prometheus.GaugeValue
		if b.fam.counter {
			kind = prometheus.CounterValue
		}
		for _, s := range b.sorted {
			ch <- prometheus.MustNewConstMetric(c.descs[i], kind, b.vals[s], b.sets[s].values...)
		}
	}
}
