package promsource

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

// History rebuilds the snapshots of every node the matchers select (e.g.
// `instance="10.0.0.7:9400"`, or none for the whole selector) from from to
// to at step, with one query_range per field for all those nodes together.
// GPU fields come from either name set; processes and the host from
// gpuscope's own series, where a node has them. A step at which a node has
// no GPU series (the target was down) has no snapshot.
func (s *Source) History(ctx context.Context, from, to time.Time, step time.Duration, matchers ...string) (map[fleetsnap.NodeKey][]sampler.Snapshot, error) {
	h := newHistoryBuilder(from, step)
	var (
		mu       sync.Mutex
		problems []error
		wg       sync.WaitGroup
		sem      = make(chan struct{}, 4) // a few queries at a time; a server handles many
	)
	run := func(q string, each func(*sampleStream)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			err := s.queryRangeEach(ctx, q, from, to, step, func(ss *sampleStream) {
				mu.Lock()
				defer mu.Unlock()
				each(ss)
			})
			if err != nil {
				mu.Lock()
				defer mu.Unlock()
				problems = append(problems, err)
			}
		}()
	}
	for i, fl := range gpuFields {
		run(s.names(fl.names, matchers...), func(ss *sampleStream) { h.gpuSeries(i, ss) })
	}
	for _, pf := range procFields {
		run(s.sel(pf.name, matchers...), func(ss *sampleStream) { h.procSeries(pf, ss) })
	}
	for _, hf := range hostFields {
		run(s.sel(hf.name, matchers...), func(ss *sampleStream) { h.hostSeries(hf, ss) })
	}
	run(s.sel("gpuscope_node_info", matchers...), func(ss *sampleStream) { h.info[keyOf(ss.Metric)] = ss.Metric })
	wg.Wait()
	if len(problems) > 0 && len(h.nodes) == 0 {
		return nil, problems[0]
	}
	return h.snapshots(), nil
}

// historyBuilder files samples by node, step and GPU.
type historyBuilder struct {
	from  time.Time
	step  time.Duration
	nodes map[fleetsnap.NodeKey]map[int]*stepData // by step index
	info  map[fleetsnap.NodeKey]metric
}

type stepData struct {
	gpus  map[int]*gpuAt
	ranks map[*sampler.Metric]int // which name filled a field
	procs map[procKey]*procAt
	host  *sampler.Host
	name  string
}

type procKey struct{ gpu, pid int }

func newHistoryBuilder(from time.Time, step time.Duration) *historyBuilder {
	return &historyBuilder{from: from, step: step, nodes: map[fleetsnap.NodeKey]map[int]*stepData{}, info: map[fleetsnap.NodeKey]metric{}}
}

func (h *historyBuilder) at(m metric, t promTime) *stepData {
	key := keyOf(m)
	steps := h.nodes[key]
	if steps == nil {
		steps = map[int]*stepData{}
		h.nodes[key] = steps
	}
	k := int((t.Time().Sub(h.from) + h.step/2) / h.step)
	d := steps[k]
	if d == nil {
		d = &stepData{gpus: map[int]*gpuAt{}, ranks: map[*sampler.Metric]int{}, procs: map[procKey]*procAt{}}
		steps[k] = d
	}
	if d.name == "" && (m["Hostname"] != "" || m["hostname"] != "") {
		d.name = hostOf(m)
	}
	return d
}

func (h *historyBuilder) gpuSeries(field int, ss *sampleStream) {
	idx, ok := gpuOf(ss.Metric)
	if !ok || isMIG(ss.Metric) {
		return
	}
	name := ss.seriesName()
	fl := gpuFields[field]
	rank, scale := fl.rank(name), scaleOf(name)
	for _, p := range ss.Values {
		d := h.at(ss.Metric, p.Timestamp)
		g := d.gpus[idx]
		if g == nil {
			g = &gpuAt{g: sampler.GPU{Index: idx}}
			d.gpus[idx] = g
		}
		labelGPU(&g.g, ss.Metric)
		dst := fl.field(g)
		if prev, seen := d.ranks[dst]; seen && prev <= rank {
			continue
		}
		d.ranks[dst] = rank
		*dst = sampler.Some(float64(p.Value) * scale)
	}
}

func labelGPU(g *sampler.GPU, m metric) {
	if g.UUID == "" {
		g.UUID = string(m["UUID"])
		if g.UUID == "" {
			g.UUID = string(m["uuid"])
		}
	}
	if g.Name == "" {
		g.Name = string(m["modelName"])
	}
	if g.BusID == "" {
		g.BusID = string(m["pci_bus_id"])
	}
}

// snapshots assembles the filed samples, oldest first per node.
func (h *historyBuilder) snapshots() map[fleetsnap.NodeKey][]sampler.Snapshot {
	out := map[fleetsnap.NodeKey][]sampler.Snapshot{}
	for key, steps := range h.nodes {
		ks := make([]int, 0, len(steps))
		for k := range steps {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		info := h.info[key]
		prevXid, prevTotal := map[int]*sampler.Metric{}, map[int]*sampler.Metric{}
		for _, k := range ks {
			d := steps[k]
			if len(d.gpus) == 0 {
				continue // host series alone: the target's GPUs were not scraped
			}
			snap := sampler.Snapshot{Time: h.from.Add(time.Duration(k) * h.step), Seq: uint64(k + 1),
				Node: sampler.Node{Hostname: d.name, Source: "prometheus"}}
			if snap.Node.Hostname == "" {
				snap.Node.Hostname = key.Instance
			}
			if info != nil {
				snap.Node.Driver, snap.Node.CUDA = string(info["driver"]), string(info["cuda"])
			}
			idx := make([]int, 0, len(d.gpus))
			for i := range d.gpus {
				idx = append(idx, i)
			}
			slices.Sort(idx)
			snap.GPUs = make([]sampler.GPU, 0, len(idx))
			for _, i := range idx {
				g := d.gpus[i]
				if prevXid[i] == nil {
					prevXid[i], prevTotal[i] = &sampler.Metric{}, &sampler.Metric{}
				}
				finishGPU(g, prevXid[i], prevTotal[i], snap.Time)
				snap.GPUs = append(snap.GPUs, g.g)
			}
			snap.Host = d.host
			attachProcs(&snap, d)
			sampler.JoinProcs(&snap)
			out[key] = append(out[key], snap)
		}
	}
	return out
}

// finishGPU turns the side readings into snapshot fields. Xids: a rise of
// gpuscope's counter is that many events (a drop is a restart: the new
// value counts); without it, a change of dcgm-exporter's last-Xid gauge is
// one event with that code.
func finishGPU(g *gpuAt, prevXid, prevTotal *sampler.Metric, at time.Time) {
	if !g.g.MemTotal.OK && g.g.MemUsed.OK && g.memFree.OK {
		g.g.MemTotal = sampler.Some(g.g.MemUsed.V + g.memFree.V + g.g.MemReserved.Or(0))
	}
	// dcgm-exporter has the rows by cause only; their sum is what gpuscope's
	// diagnosis reads.
	if c, u := g.g.RemappedCorrectable, g.g.RemappedUncorrectable; !g.g.RemappedRows.OK && (c.OK || u.OK) {
		g.g.RemappedRows = sampler.Some(c.Or(0) + u.Or(0))
	}
	if g.clockMask.OK {
		g.g.ClockEvents = sampler.ClockEvents{Mask: uint64(g.clockMask.V), OK: true}
	}
	g.g.RemapPending = g.remapPending.V == 1
	code := uint64(g.xidLast.Or(0))
	switch {
	case g.xidTotal.OK && prevTotal.OK:
		n := g.xidTotal.V - prevTotal.V
		if n < 0 {
			n = g.xidTotal.V
		}
		for range int(n) {
			g.g.Xids = append(g.g.Xids, sampler.Xid{Time: at, Code: code})
		}
	case !g.xidTotal.OK && g.xidLast.OK && code != 0 && (!prevXid.OK || prevXid.V != g.xidLast.V):
		g.g.Xids = append(g.g.Xids, sampler.Xid{Time: at, Code: code})
	}
	*prevXid, *prevTotal = g.xidLast, g.xidTotal
}

// NodeMatchers selects one node's series.
func NodeMatchers(k fleetsnap.NodeKey) []string {
	return []string{fmt.Sprintf("job=%s", strconv.Quote(k.Job)), fmt.Sprintf("instance=%s", strconv.Quote(k.Instance))}
}

// Resolve finds the node a person names: its host name label (Hostname or
// hostname) or its instance, among the targets with GPU series in the hour
// before at. Two targets with that host name are ambiguous: name the instance.
func (s *Source) Resolve(ctx context.Context, name string, at time.Time) (fleetsnap.NodeKey, error) {
	found := map[fleetsnap.NodeKey]bool{}
	err := s.queryEach(ctx, fmt.Sprintf("last_over_time(%s[1h])", s.names(utilNames)), at, func(m metric, _ float64) {
		if string(m["instance"]) == name || string(m["Hostname"]) == name || string(m["hostname"]) == name {
			found[keyOf(m)] = true
		}
	})
	if err != nil {
		return fleetsnap.NodeKey{}, err
	}
	switch len(found) {
	case 0:
		return fleetsnap.NodeKey{}, fmt.Errorf("no node %q with fleetsnap.GPU series in the hour before %s: name its host or its instance", name, at.Format(time.RFC3339))
	case 1:
		for k := range found {
			return k, nil
		}
	}
	var keys []string
	for k := range found {
		keys = append(keys, k.Instance)
	}
	slices.Sort(keys)
	return fleetsnap.NodeKey{}, fmt.Errorf("%q names %d targets (%s): name the instance", name, len(keys), strings.Join(keys, ", "))
}

// NodesHistory rebuilds the snapshots of keys' nodes from from to to, one
// query_range per field for all of them.
func (s *Source) NodesHistory(ctx context.Context, keys []fleetsnap.NodeKey, from, to time.Time, step time.Duration) (map[fleetsnap.NodeKey][]sampler.Snapshot, error) {
	instances := make([]string, len(keys))
	for i, k := range keys {
		instances[i] = regexp.QuoteMeta(k.Instance)
	}
	return s.History(ctx, from, to, step, "instance=~"+strconv.Quote(strings.Join(instances, "|")))
}

// NodeHistory rebuilds one node's snapshots.
func (s *Source) NodeHistory(ctx context.Context, key fleetsnap.NodeKey, from, to time.Time, step time.Duration) ([]sampler.Snapshot, error) {
	h, err := s.History(ctx, from, to, step, NodeMatchers(key)...)
	return h[key], err
}
