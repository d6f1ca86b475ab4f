package promsource

import (
	"context"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

// scrapeBody is what fetch files of one answer.
func scrapeBody(tb testing.TB, body []byte) *scrapeBatch {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(body) }))
	defer srv.Close()
	targets, _ := ParseTargets(strings.TrimPrefix(srv.URL, "http://"))
	batch, err := NewDirect(targets, time.Second, "").fetch(context.Background(), targets[0])
	if err != nil {
		tb.Fatal(err)
	}
	return batch
}

// The fleet's figures read straight from the ring (eachGPU) are the ones
// read from the snapshots the ring rebuilds, for both exporters' answers
// over two hours of scrapes with gaps, counter resets and changing Xids.
func TestEachGPUMatchesSnapshots(t *testing.T) {
	var scratch gpuScratch // reused from one node to the next, as build does
	for _, file := range []string{"dcgm-exporter.prom", "gpuscope-serve.prom"} {
		body, err := os.ReadFile("../promtext/testdata/" + file)
		if err != nil {
			t.Fatal(err)
		}
		base := scrapeBody(t, body)
		rng := rand.New(rand.NewPCG(1, 2))
		r := newScrapeRing("a:1", nil)
		now := time.Now()
		at := now.Add(-2 * time.Hour)
		for k := 0; at.Before(now); k++ {
			b := &scrapeBatch{sets: base.sets, pairs: base.pairs, vals: append([]batchVal(nil), base.vals...)}
			for i := range b.vals {
				switch name := seriesNames[b.vals[i].name]; {
				case strings.Contains(name, "ENERGY") || strings.Contains(name, "energy"):
					b.vals[i].v = float64(k%300) * 1e4 // resets every 300 scrapes
				case strings.Contains(name, "XID") || strings.Contains(name, "xid"):
					b.vals[i].v = float64(rng.IntN(3) * 13)
				default:
					b.vals[i].v = []float64{0, 3, 50.5, 99, 80000}[rng.IntN(5)] * b.vals[i].v / max(b.vals[i].v, 1)
				}
			}
			r.add(at, b)
			step := []time.Duration{time.Second, 10 * time.Second, 3 * time.Minute}[rng.IntN(3)]
			at = at.Add(step)
		}
		opts := Options{IdleFor: 10 * time.Minute}.withDefaults()
		key := fleetsnap.NodeKey{Instance: "a:1"}
		snaps := r.snapshots(key, now.Add(-Horizon), figureSeries)
		accs := map[int]*figureAcc{}
		r.eachGPU(now.Add(-Horizon), &scratch, func(at time.Time, g *sampler.GPU) {
			if accs[g.Index] == nil {
				accs[g.Index] = &figureAcc{}
			}
			accs[g.Index].add(g, at, now)
		})
		if len(accs) != 8 || len(snaps) < 20 {
			t.Fatalf("%s: %d GPUs read, %d snapshots", file, len(accs), len(snaps))
		}
		for idx, a := range accs {
			var want, got fleetsnap.GPU
			want.Index, got.Index = idx, idx
			gpuFigures(&want, snaps, now, opts)
			a.finish(&got, now, opts)
			if got != want {
				t.Errorf("%s GPU %d:\n got %+v\nwant %+v", file, idx, got, want)
			}
			if !got.Util.OK || !got.EnergyKWh.OK || got.Model == "" {
				t.Errorf("%s GPU %d: %+v, want its readings", file, idx, got)
			}
		}
	}
}

// gpuFigures fills g from its GPU's snapshots (oldest first, the last
// hour at most): the latest readings, and each windowed figure over the
// part of its window the snapshots cover. The reference eachGPU is held to.
func gpuFigures(g *fleetsnap.GPU, snaps []sampler.Snapshot, now time.Time, opts Options) {
	var a figureAcc
	for i := range snaps {
		if gg := gpuIn(&snaps[i], g.Index); gg != nil {
			a.add(gg, snaps[i].Time, now)
		}
	}
	a.finish(g, now, opts)
}

func gpuIn(s *sampler.Snapshot, idx int) *sampler.GPU {
	for i := range s.GPUs {
		if s.GPUs[i].Index == idx {
			return &s.GPUs[i]
		}
	}
	return nil
}
