package node

import (
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/safe"
)

// BenchmarkDemoTick is one full sampler tick of the demo node: the simulator
// steps 1 s, the production NVML reader reads 8 GPUs through the fake NVML
// (~200 calls), the simulated host is read and processes are joined.
func BenchmarkDemoTick(b *testing.B) { benchDemoTicks(b, time.Second) }

// BenchmarkDemoTick100ms is the same tick at --interval 100ms: the
// simulator steps 100 ms (its one step: it steps 100 ms at every interval),
// the fake NVML rebuilds its truth and the reader reads it; the host is
// read once in ten ticks (sampler.HostEvery). Ten of these are a second.
func BenchmarkDemoTick100ms(b *testing.B) { benchDemoTicks(b, 100*time.Millisecond) }

// benchDemoTicks ticks the mixed demo's sampler every interval.
func benchDemoTicks(b *testing.B, interval time.Duration) {
	s := mixedSampler(b)
	t := t0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t = t.Add(interval)
		s.Tick(t)
	}
}

// mixedSampler is the mixed demo's sampler from t0.
func mixedSampler(b *testing.B) *sampler.Sampler {
	d, err := NewDemo("mixed", 1, t0)
	if err != nil {
		b.Fatal(err)
	}
	return d.Sampler("mixed")
}

// BenchmarkCleanDemoSnapshots is the dashboard's escaping of the demo's
// own snapshots at --interval 100ms (ui.Model.Push: safe.CleanWith with the
// memo kept, a host reading shared with the snapshot before left out as
// the dashboard leaves it), over 40 s of them.
func BenchmarkCleanDemoSnapshots(b *testing.B) {
	s := mixedSampler(b)
	var snaps []sampler.Snapshot
	for i := range 400 {
		snaps = append(snaps, s.Tick(t0.Add(time.Duration(i+1)*100*time.Millisecond)))
	}
	ts := safe.NewTypes()
	var host *sampler.Host
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		x := snaps[i%len(snaps)]
		if x.Host == host {
			x.Host = nil
		} else {
			host = x.Host
		}
		_ = safe.CleanWith(ts, x)
	}
}
