package promsource

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
	"github.com/gpuscope/gpuscope/sampler/promtext"
)

// Direct reads a fleet without a server (`--nodes`): it scrapes each
// target's /metrics itself, all at once with a timeout each, and keeps
// each node's recent scrapes (scrapeRing) in place of the server's
// storage. It yields the same Fleet and snapshots as Source, built by the
// same name tables (fields.go, procs.go). Safe for concurrent use.
type Direct struct {
	targets  []Target
	timeout  time.Duration
	jobLabel string
	hc       *http.Client
	nodes    map[string]*directNode // by Target.Instance
	// batches are reused: a scrape's samples are filed (copied) in the
	// ring, and a thousand targets would allocate a thousand batches.
	batches sync.Pool
}

type directNode struct {
	mu    sync.Mutex
	ring  *scrapeRing
	tried bool
	err   string    // why the last scrape failed, "" when it answered
	first time.Time // the first scrape that answered: how far back history can reach
}

// scrapers is how many targets are scraped at a time: enough that targets
// that do not answer (each holds its scraper for the timeout) leave the
// others scraped, few enough that what each holds while it runs (a
// connection, its goroutines, a gzip window, a line buffer) stays small:
// 256 peaked 4-5 MB higher over 1,000 targets and scraped them no faster
// (docs/benchmarks.md, "`--nodes` over 1,000 targets").
const scrapers = 128

// MaxScrape bounds one answer: dcgm-exporter's for 8 GPUs is ~80 KB,
// gpuscope serve's ~140 KB.
const MaxScrape = 32 << 20

// NewDirect scrapes targets, each with timeout (5 s when zero); jobLabel
// is Config.JobLabel's.
func NewDirect(targets []Target, timeout time.Duration, jobLabel string) *Direct {
	if timeout == 0 {
		timeout = 5 * time.Second
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil // nodes are scraped directly, as Prometheus does, not through $HTTP_PROXY
	// A GET of a few headers: not the 4 KB a connection of the default.
	tr.WriteBufferSize = 1 << 10
	if len(targets) > tr.MaxIdleConns {
		// Scraped in turn, more targets than the pool keeps idle evict
		// each other's connections before they are used again: each would
		// only hold its buffers and two goroutines (~25 KB) until evicted.
		tr.DisableKeepAlives = true
	}
	d := &Direct{targets: targets, timeout: timeout, jobLabel: jobLabel, nodes: map[string]*directNode{},
		hc: &http.Client{Transport: tr}}
	layouts := &layoutCache{}
	for _, t := range targets {
		d.nodes[t.Instance] = &directNode{ring: newScrapeRing(t.Instance, layouts)}
	}
	return d
}

// URL names the fleet in titles: its first targets.
func (d *Direct) URL() string {
	var names []string
	for i, t := range d.targets {
		if i == 3 {
			return strings.Join(names, ", ") + fmt.Sprintf(" +%d", len(d.targets)-3)
		}
		names = append(names, t.Instance)
	}
	return strings.Join(names, ", ")
}

// scrapeAll scrapes every target at once (scrapers at a time).
func (d *Direct) scrapeAll(ctx context.Context) {
	var wg sync.WaitGroup
	next := make(chan Target)
	for range min(len(d.targets), scrapers) {
		wg.Go(func() {
			for t := range next {
				d.scrape(ctx, t)
			}
		})
	}
	for _, t := range d.targets {
		next <- t
	}
	close(next)
	wg.Wait()
}

// scrape reads one target and files what it answered, or why not.
func (d *Direct) scrape(ctx context.Context, t Target) {
	batch, err := d.fetch(ctx, t)
	at := time.Now()
	n := d.nodes[t.Instance]
	n.mu.Lock()
	defer n.mu.Unlock()
	n.tried = true
	if err != nil {
		n.err = err.Error()
		return
	}
	n.err = ""
	if n.first.IsZero() {
		n.first = at
	}
	n.ring.add(at, batch)
	batch.reset() // its texts are not held while it waits
	d.batches.Put(batch)
}

func (d *Direct) fetch(ctx context.Context, t Target) (*scrapeBatch, error) {
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.URL, nil)
	if err != nil {
		return nil, err
	}
	// The text format: both exporters speak it; OpenMetrics is not parsed here.
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	resp, err := d.hc.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("no answer in %s", d.timeout)
		}
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			err = ue.Err // the row names the target already
		}
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered %s", t.URL, resp.Status)
	}
	body := &io.LimitedReader{R: resp.Body, N: MaxScrape + 1}
	// Each label text is copied once a scrape (a GPU's labels are shared
	// by all its fields' lines), nothing else is held a line.
	b, _ := d.batches.Get().(*scrapeBatch)
	if b == nil {
		b = &scrapeBatch{index: map[string]int32{}, present: make([]bool, len(seriesNames))}
	}
	b.reset()
	present := b.present
	err = promtext.ParseRaw(body, wanted, func(name, labels []byte, v float64, _ int64) error {
		id := nameIDs[string(name)]
		set, ok := b.index[string(labels)]
		if !ok {
			text := string(labels)
			if b.pairs += pairsIn(text); len(b.sets) == maxSets || b.pairs > maxSets {
				return fmt.Errorf("more than %d label sets or labels", maxSets)
			}
			set = int32(len(b.sets))
			b.sets = append(b.sets, text)
			b.index[text] = set
		}
		b.vals = append(b.vals, batchVal{name: id, set: set, v: v})
		present[id] = true
		return nil
	})
	if body.N <= 0 {
		return nil, fmt.Errorf("%s answered more than %d MiB", t.URL, MaxScrape>>20)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.URL, err)
	}
	kept := b.vals[:0]
	gpus := false
	for _, v := range b.vals {
		if bestPresent(v.name, present) {
			kept = append(kept, v)
			gpus = gpus || isUtil(seriesNames[v.name])
		}
	}
	if !gpus {
		return nil, fmt.Errorf("%s answered without GPU series: not a gpuscope serve or dcgm-exporter endpoint?", t.URL)
	}
	b.vals = kept
	return b, nil
}

// NodesHistory is the snapshots of keys' nodes from from on, as kept.
func (d *Direct) NodesHistory(_ context.Context, keys []fleetsnap.NodeKey, from, _ time.Time, _ time.Duration) (map[fleetsnap.NodeKey][]sampler.Snapshot, error) {
	out := map[fleetsnap.NodeKey][]sampler.Snapshot{}
	for _, k := range keys {
		if n := d.nodes[k.Instance]; n != nil {
			n.mu.Lock()
			out[k] = n.ring.snapshots(k, from, nil)
			n.mu.Unlock()
		}
	}
	return out, nil
}

// NodeHistory scrapes the node once more, then gives its snapshots from
// from on: an open node's dashboard refreshes by it.
func (d *Direct) NodeHistory(ctx context.Context, key fleetsnap.NodeKey, from, to time.Time, step time.Duration) ([]sampler.Snapshot, error) {
	for _, t := range d.targets {
		if t.Instance == key.Instance {
			d.scrape(ctx, t)
		}
	}
	h, err := d.NodesHistory(ctx, []fleetsnap.NodeKey{key}, from, to, step)
	if n := d.nodes[key.Instance]; n != nil && len(h[key]) == 0 {
		n.mu.Lock()
		defer n.mu.Unlock()
		if n.err != "" {
			return nil, errors.New(n.err)
		}
	}
	return h[key], err
}

// snapshots rebuilds the node's snapshots from the kept scrapes, each
// scrape one snapshot at its own time (a 1 ms step), by the tables the
// range queries use; only, when not nil, picks the series read.
func (r *scrapeRing) snapshots(key fleetsnap.NodeKey, from time.Time, only map[string]bool) []sampler.Snapshot {
	if len(r.scrapes) == 0 {
		return nil
	}
	start := r.scrapes[0].at
	if start.Before(from) {
		start = from
	}
	h := newHistoryBuilder(start.Truncate(time.Millisecond), time.Millisecond)
	for _, ss := range r.streams(from, only) {
		h.series(ss)
	}
	snaps := h.snapshots()[key]
	for i := range snaps {
		snaps[i].Node.Source = "scrape"
	}
	return snaps
}

func wanted(name []byte) bool {
	_, ok := nameIDs[string(name)]
	return ok
}
