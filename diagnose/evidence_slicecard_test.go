package diagnose

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// A HAMi-core log with both refusals (HAMi-core's own over the pod's limit,
// allocator.c's "Device 0 OOM used / limit", and the driver's under it,
// "cuMemoryAllocate failed res=2"), in either order, is one node finding
// that says both, with the card's fix: a larger slice on a full card
// fails again.
func TestEvidenceHAMiSliceAndCardOOM(t *testing.T) {
	gib := float64(1 << 30)
	over := sampler.SliceOOM{Device: 0, Want: 3.2 * gib, Limit: 3 * gib}
	card := sampler.SliceOOM{Layer: "hami_driver"}
	for _, oo := range [][]sampler.SliceOOM{{over, card}, {card, over}} {
		s := evSnap(0)
		s.Node.SliceOOM = oo
		var fs []Finding
		for _, f := range Evidence([]sampler.Snapshot{s}) {
			if f.Rule == RuleMemoryPressure {
				fs = append(fs, f)
			}
		}
		if len(fs) != 1 {
			t.Fatalf("%d memory_pressure findings, want 1: %+v", len(fs), fs)
		}
		f := fs[0]
		if f.GPU != -1 || f.FixID != hintSliceCard.id || !strings.Contains(f.Evidence, "res=2") ||
			!strings.Contains(f.Evidence, "3.0 GiB limit") || !strings.Contains(f.Title, "the driver refused") {
			t.Errorf("finding %q / %q / %s", f.Title, f.Evidence, f.FixID)
		}
	}
}
