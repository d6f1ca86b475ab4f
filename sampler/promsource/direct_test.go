package promsource

import (
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

// The ring keeps every scrape of the last FineSpan, one per CoarseStep
// back to Horizon, nothing older: two hours of 1 s scrapes end as ~300.
func TestRingBounds(t *testing.T) {
	r := newScrapeRing("a:1", nil)
	t0 := time.Unix(1_700_000_000, 0)
	m := metric{metricNameLabel: "DCGM_FI_DEV_GPU_UTIL", "gpu": "0", "instance": "a:1"}
	var now time.Time
	for i := range 7200 {
		now = t0.Add(time.Duration(i) * time.Second)
		r.add(now, batchOf(scraped{m: m, v: float64(i)}))
	}
	fine, old := 0, 0
	var prevOld time.Time
	for _, s := range r.scrapes {
		age := now.Sub(s.at)
		switch {
		case age > Horizon:
			t.Fatalf("a scrape %s old was kept", age)
		case age > FineSpan:
			if !prevOld.IsZero() && s.at.Sub(prevOld) < CoarseStep {
				t.Fatalf("older scrapes %s apart, want at least %s", s.at.Sub(prevOld), CoarseStep)
			}
			prevOld = s.at
			old++
		default:
			fine++
		}
	}
	if fine != 181 || old < 100 || old > 120 || r.sets.len() != 1 || &r.scrapes[0].series[0] != &r.scrapes[len(r.scrapes)-1].series[0] {
		t.Errorf("%d recent and %d older scrapes of %d label sets; want 181, ~114, 1 and one layout shared", fine, old, r.sets.len())
	}
	if span := r.span(now); span < Horizon-CoarseStep || span > Horizon {
		t.Errorf("span %s, want about the hour", span)
	}
}

// A refresh faster than fineStep is thinned too: the ring's size does not
// grow with --interval.
func TestRingFastRefresh(t *testing.T) {
	r := newScrapeRing("a:1", nil)
	t0 := time.Unix(1_700_000_000, 0)
	m := metric{metricNameLabel: "DCGM_FI_DEV_GPU_UTIL", "gpu": "0", "instance": "a:1"}
	var now time.Time
	for i := range 36000 {
		now = t0.Add(time.Duration(i) * 100 * time.Millisecond)
		r.add(now, batchOf(scraped{m: m, v: float64(i)}))
	}
	if n := len(r.scrapes); n < 450 || n > 490 || !r.scrapes[n-1].at.Equal(now) {
		t.Errorf("%d scrapes kept of an hour at 100 ms, want ~361+114, the newest included", n)
	}
}

// Processes come and go: the label sets no scrape holds are forgotten.
func TestRingCompacts(t *testing.T) {
	r := newScrapeRing("a:1", nil)
	t0 := time.Unix(1_700_000_000, 0)
	for i := range maxSets + 10 {
		m := metric{metricNameLabel: "gpuscope_process_gpu_memory_bytes", "gpu": "0", "pid": string(rune('a'+i%26)) + strings.Repeat("x", i/26)}
		r.add(t0.Add(time.Duration(i)*2*time.Hour), batchOf(scraped{m: m, v: 1}))
	}
	if l := r.latest(nil); r.sets.len() > 20 || len(l) != 1 || l[0].m["pid"] != string(rune('a'+(maxSets+9)%26))+strings.Repeat("x", (maxSets+9)/26) {
		t.Errorf("%d label sets held for %d scrapes, latest %v", r.sets.len(), len(r.scrapes), l)
	}
}

// batchOf files samples as fetch does, their labels written as an
// exporter writes them.
func batchOf(samples ...scraped) *scrapeBatch {
	b := &scrapeBatch{}
	for _, s := range samples {
		var ls []string
		for _, k := range slices.Sorted(maps.Keys(s.m)) {
			if k != metricNameLabel && k != "instance" {
				ls = append(ls, k+`="`+strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s.m[k])+`"`)
			}
		}
		b.sets = append(b.sets, strings.Join(ls, ","))
		b.pairs += len(ls)
		b.vals = append(b.vals, batchVal{name: nameIDs[s.m[metricNameLabel]], set: int32(len(b.sets) - 1), v: s.v})
	}
	return b
}

func gpuAtTime(at time.Time, util, used, energy, ecc float64) sampler.Snapshot {
	return sampler.Snapshot{Time: at, GPUs: []sampler.GPU{{Index: 0, Util: sampler.Some(util), MemUsed: sampler.Some(used),
		MemTotal: sampler.Some(100), Energy: sampler.Some(energy), ECCUncorrected: sampler.Some(ecc), SMActive: sampler.Some(util / 2)}}}
}

// The windowed figures come from the snapshots kept: energy's rise across
// a counter reset, idle-held time without the gaps of a node down, means
// over MeanWindow only, idle-held "long" only once IdleFor was watched.
func TestGPUFigures(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	opts := Options{IdleFor: 10 * time.Minute}.withDefaults()
	at := func(ago time.Duration) time.Time { return now.Add(-ago) }
	snaps := []sampler.Snapshot{
		gpuAtTime(at(20*time.Minute), 90, 50, 1000, 0),
		gpuAtTime(at(19*time.Minute+30*time.Second), 90, 50, 4000, 0), // +3000 J
		gpuAtTime(at(19*time.Minute), 0, 50, 500, 1),                  // reset: +500 J; ECC rose
		// 17 minutes without a scrape: the node was down, not idle
		gpuAtTime(at(90*time.Second), 0, 50, 600, 1), // +100
		gpuAtTime(at(time.Minute), 0, 50, 700, 1),    // +100
		gpuAtTime(at(30*time.Second), 40, 50, 800, 1),
		gpuAtTime(at(0), 20, 50, 900, 1),
	}
	g := fleetsnap.GPU{Index: 0}
	gpuFigures(&g, snaps, now, opts)
	if !g.EnergyKWh.OK || g.EnergyKWh.V*joulesPerKWh != 3900 {
		t.Errorf("energy %v J, want 3900 (a reset adds the new reading)", g.EnergyKWh.V*joulesPerKWh)
	}
	if !g.ECC || g.Xid {
		t.Errorf("ECC %v, Xid %v; want the ECC rise, no Xid", g.ECC, g.Xid)
	}
	if want := time.Minute.Hours(); g.IdleHeldHours < want-1e-9 || g.IdleHeldHours > want+1e-9 {
		t.Errorf("idle-held %v h, want %v (the gap of the node down left out)", g.IdleHeldHours, want)
	}
	if g.IdleHeldLong || g.Util.V != 20 {
		t.Errorf("held long %v, util %v; want false (busy now), 20", g.IdleHeldLong, g.Util)
	}
	if !g.UtilMean.OK || g.UtilMean.V != 15 || g.SMActiveMean.V != 7.5 {
		t.Errorf("means %v %v, want util (0+0+40+20)/4 over the last 5 minutes", g.UtilMean, g.SMActiveMean)
	}
	// Idle and held throughout, but watched for 6 minutes of the 10: not yet long.
	var short []sampler.Snapshot
	for ago := 6 * time.Minute; ago >= 0; ago -= 30 * time.Second {
		short = append(short, gpuAtTime(at(ago), 0, 50, 1, 0))
	}
	g = fleetsnap.GPU{Index: 0}
	gpuFigures(&g, short, now, opts)
	if g.IdleHeldLong || g.EnergyKWh.V != 0 {
		t.Errorf("6 of 10 minutes idle-held counted as long (%v), energy %v", g.IdleHeldLong, g.EnergyKWh)
	}
	var long []sampler.Snapshot
	for ago := 10 * time.Minute; ago >= 0; ago -= 30 * time.Second {
		long = append(long, gpuAtTime(at(ago), 0, 50, 1, 0))
	}
	g = fleetsnap.GPU{Index: 0}
	gpuFigures(&g, long, now, opts)
	if !g.IdleHeldLong {
		t.Error("10 minutes idle-held, watched throughout, not counted as long")
	}
	// One reading: no energy (a rise needs two), the mean is that reading.
	g = fleetsnap.GPU{Index: 0}
	gpuFigures(&g, snaps[len(snaps)-1:], now, opts)
	if g.EnergyKWh.OK || g.UtilMean.V != 20 {
		t.Errorf("one scrape: energy %v, mean %v", g.EnergyKWh, g.UtilMean)
	}
}

func serveFile(t *testing.T, name string) *httptest.Server {
	b, err := os.ReadFile("../promtext/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(b) }))
	t.Cleanup(s.Close)
	return s
}

func instance(s *httptest.Server) string { return strings.TrimPrefix(s.URL, "http://") }

// Real answers of both exporters become the same nodes the server path
// builds; a target that fails is down with its reason.
func TestDirectFleet(t *testing.T) {
	own, dcgm := serveFile(t, "gpuscope-serve.prom"), serveFile(t, "dcgm-exporter.prom")
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", 500) }))
	defer broken.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("node_load1 3\n")) }))
	defer other.Close()
	garbled := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("DCGM_FI_DEV_GPU_UTIL{gpu=0} 1\n"))
	}))
	defer garbled.Close()
	targets, err := ParseTargets(strings.Join([]string{instance(own), instance(dcgm), instance(broken), instance(other), instance(garbled)}, ","))
	if err != nil {
		t.Fatal(err)
	}
	d := NewDirect(targets, time.Second, "")
	ctx := context.Background()
	for range 2 {
		if _, err := d.Fleet(ctx, time.Now(), Options{}); err != nil {
			t.Fatal(err)
		}
	}
	f, err := d.Fleet(ctx, time.Now(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	byInst := map[string]fleetsnap.Node{}
	for _, n := range f.Nodes {
		byInst[n.Key.Instance] = n
	}
	n := byInst[instance(own)]
	if !n.Up || !n.Gpuscope || len(n.GPUs) != 8 || n.Name != "gpu-node-44" || len(n.Findings) != 1 || n.Findings[0].Rule != "input_starved" || n.Findings[0].Since.IsZero() {
		t.Errorf("gpuscope node: %+v", n)
	}
	if g := n.GPUs[0]; !g.Util.OK || !g.MemTotal.OK || g.Model != "NVIDIA H200" || g.UUID == "" || !g.EnergyKWh.OK {
		t.Errorf("gpuscope node's GPU 0: %+v", g)
	}
	n = byInst[instance(dcgm)]
	if !n.Up || n.Gpuscope || len(n.GPUs) != 8 || n.Name != "gpu-node-57" || n.GPUs[3].Util.V < 50 || !n.GPUs[3].MemTotal.OK {
		t.Errorf("dcgm node: %+v", n)
	}
	for inst, want := range map[string]string{instance(broken): "500", instance(other): "without GPU series", instance(garbled): "line 1"} {
		if n := byInst[inst]; n.Up || !strings.Contains(n.DownReason, want) {
			t.Errorf("%s: up %v, reason %q; want down saying %q", inst, n.Up, n.DownReason, want)
		}
	}
	if f.Span <= 0 || f.Span > time.Minute {
		t.Errorf("span %s, want the seconds since the first scrape", f.Span)
	}
	// A gpuscope node answers both name sets; one is kept.
	if r := d.nodes[instance(own)].ring; len(r.scrapes[0].series) > 400 {
		t.Errorf("%d series kept from one gpuscope serve answer, want one name set", len(r.scrapes[0].series))
	}
	snaps, err := d.NodeHistory(ctx, fleetsnap.NodeKey{Instance: instance(own)}, time.Now().Add(-time.Minute), time.Now(), time.Second)
	if err != nil || len(snaps) < 2 {
		t.Fatalf("%d snapshots, %v; want the first scrape and the newest at least (closer ones are thinned)", len(snaps), err)
	}
	last := snaps[len(snaps)-1]
	if len(last.GPUs) != 8 || len(last.GPUs[0].Procs) == 0 || last.Host == nil || last.Node.Hostname != "gpu-node-44" || last.Node.Driver == "" {
		t.Errorf("rebuilt snapshot: %d GPUs, procs %v, host %v, node %+v", len(last.GPUs), last.GPUs[0].Procs, last.Host, last.Node)
	}
	if _, err := d.NodeHistory(ctx, fleetsnap.NodeKey{Instance: instance(broken)}, time.Now().Add(-time.Minute), time.Now(), time.Second); err == nil || !strings.Contains(err.Error(), "500") {
		t.Errorf("a down node's history: %v, want its reason", err)
	}
}

func TestParseTargets(t *testing.T) {
	got, err := ParseTargets(" a:1 ,https://b:2/m,[::1]:3")
	if err != nil || len(got) != 3 || got[0].URL != "http://a:1/metrics" || got[1].URL != "https://b:2/m" || got[1].Instance != "b:2" || got[2].Instance != "[::1]:3" {
		t.Errorf("%+v, %v", got, err)
	}
	for _, bad := range []string{"a", "a:0", "a:x", ":1", "a:1/metrics", "ftp://a:1", "http://u@a:1", "", "a:1,a:1"} {
		if _, err := ParseTargets(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	got, err = ParseTargetFile("n.txt", []byte("# lab\n\na:1 # first\n  b:2\n"))
	if err != nil || len(got) != 2 {
		t.Errorf("%+v, %v", got, err)
	}
	_, err = ParseTargetFile("n.txt", []byte("a:1\nb\n"))
	if te, ok := err.(*TargetError); !ok || te.Line != 2 || te.File != "n.txt" || te.Target != "b" {
		t.Errorf("%v, want line 2 of n.txt", err)
	}
}

// Rings of one fleet share a layout while their nodes answer alike, and
// one ring's compaction leaves the others' as they were.
func TestRingsShareLayouts(t *testing.T) {
	c := &layoutCache{}
	a, b := newScrapeRing("a:1", c), newScrapeRing("b:1", c)
	t0 := time.Unix(1_700_000_000, 0)
	util := func(gpu string, v float64) scraped {
		return scraped{m: metric{metricNameLabel: "DCGM_FI_DEV_GPU_UTIL", "gpu": gpu}, v: v}
	}
	// Each first saw a GPU the other did not (set 0), then both answer
	// GPUs 0 and 1 (sets 1 and 2): one layout.
	a.add(t0, batchOf(util("9", 1)))
	b.add(t0, batchOf(util("8", 1)))
	now := t0.Add(90 * time.Minute)
	a.add(now, batchOf(util("0", 1), util("1", 2)))
	b.add(now, batchOf(util("0", 3), util("1", 4)))
	if &a.scrapes[len(a.scrapes)-1].series[0] != &b.scrapes[len(b.scrapes)-1].series[0] {
		t.Fatal("two nodes answering alike hold two layouts")
	}
	a.compact() // GPU 9 is gone from a: its sets renumber, b's must not
	if got := b.latest(nil); len(got) != 2 || got[0].m["gpu"] != "0" || got[1].m["gpu"] != "1" || got[1].v != 4 {
		t.Errorf("b after a's compaction: %v", got)
	}
	if got := a.latest(nil); len(got) != 2 || got[0].m["gpu"] != "0" || got[1].v != 2 || a.sets.len() != 2 {
		t.Errorf("a after its compaction: %v, %d sets", got, a.sets.len())
	}
}
