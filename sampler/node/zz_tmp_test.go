package node

import (
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/safe"
)

func BenchmarkTmpCleanDemo(b *testing.B) {
	d, err := NewDemo("mixed", 1, t0)
	if err != nil {
		b.Fatal(err)
	}
	s := d.Sampler("mixed")
	t := t0
	var snaps []sampler.Snapshot
	for range 400 {
		t = t.Add(100 * time.Millisecond)
		snaps = append(snaps, s.Tick(t))
	}
	ts := safe.NewTypes()
	var hostSrc *sampler.Host
	b.ResetTimer()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		x := snaps[i%400]
		if x.Host == hostSrc {
			x.Host = nil
		} else {
			hostSrc = x.Host
		}
		_ = safe.CleanWith(ts, x)
	}
}
