package diagnose

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// A GPU at its maximum operating temperature gets the thermal finding with
// the limit as evidence; one a few degrees under it, or with no limit read,
// does not.
func TestEvidenceMaxOperatingTemp(t *testing.T) {
	at := sampler.GPU{Index: 0, Temp: sampler.Some(56), TempMaxOp: sampler.Some(57), TempSlowdown: sampler.Some(97)}
	under := sampler.GPU{Index: 1, Temp: sampler.Some(50), TempMaxOp: sampler.Some(57)}
	unknown := sampler.GPU{Index: 2, Temp: sampler.Some(90)}
	fs := Evidence([]sampler.Snapshot{evSnap(0, at, under, unknown)})
	if got := evRules(fs); got != "thermal_throttle:0" {
		t.Fatalf("findings %q; want thermal_throttle:0 only", got)
	}
	if !strings.Contains(fs[0].Evidence, "57 °C") || !strings.Contains(fs[0].Evidence, "40 °C below the slowdown") {
		t.Errorf("evidence %q; want the 57 °C limit and its gap to slowdown", fs[0].Evidence)
	}
}

// A GeForce held at the GPU Boost target set on it is thermally limited
// too, the target (under the max operating temperature) as the limit; one
// well under its target is not.
func TestEvidenceTargetTemp(t *testing.T) {
	held := sampler.GPU{Index: 0, Temp: sampler.Some(70), TempTarget: sampler.Some(70), TempMaxOp: sampler.Some(93), TempSlowdown: sampler.Some(98)}
	cool := sampler.GPU{Index: 1, Temp: sampler.Some(45), TempTarget: sampler.Some(83), TempMaxOp: sampler.Some(93)}
	fs := Evidence([]sampler.Snapshot{evSnap(0, held, cool)})
	if got := evRules(fs); got != "thermal_throttle:0" {
		t.Fatalf("findings %q; want thermal_throttle:0 only", got)
	}
	if !strings.Contains(fs[0].Evidence, "target temperature of 70 °C") || !strings.Contains(fs[0].Evidence, "28 °C below the slowdown") {
		t.Errorf("evidence %q; want the 70 °C target, 28 °C under the slowdown temperature", fs[0].Evidence)
	}
}
