package nvmlsource

import (
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

// An A100 has no GPM, but its NVLink rates come from NVML's data counters
// (all links at once), from the second tick on: what DCGM's
// NVLINK_BANDWIDTH_TOTAL reads, so serve can publish it before Hopper.
func TestNVLinkFromCountersWithoutGPM(t *testing.T) {
	_, box, src := newFake(t, 2, fakenvml.ModelA100, nil, nil)
	for k := range 4 {
		truth := varied(fakenvml.BaseTruth(2, fakenvml.ModelA100), k)
		truth[1].NVLinkRx, truth[1].NVLinkTx = sampler.Some(float64(k+1)*(25<<30)), sampler.Some(float64(k)*(1<<30))
		box.set(truth)
		gpus, _ := src.Sample(tickTime(k))
		g := gpus[1]
		if k == 0 {
			if g.NVLinkRx.OK || g.NA[sampler.NANVLinkRx] != reasonWarmingUp {
				t.Errorf("tick 0: NVLink %v (%q), want warming up", g.NVLinkRx, g.NA[sampler.NANVLinkRx])
			}
			continue
		}
		if g.NVLinkRx != truth[1].NVLinkRx || g.NVLinkTx != truth[1].NVLinkTx || g.NA[sampler.NANVLinkRx] != "" {
			t.Errorf("tick %d: NVLink %v / %v (%q), want %v / %v", k, g.NVLinkRx, g.NVLinkTx, g.NA[sampler.NANVLinkRx], truth[1].NVLinkRx, truth[1].NVLinkTx)
		}
		if g.SMActive.OK || g.NA[sampler.NASMActive] != sampler.ReasonNoGPM {
			t.Errorf("tick %d: SM active %v (%q) on an A100", k, g.SMActive, g.NA[sampler.NASMActive])
		}
	}
}
