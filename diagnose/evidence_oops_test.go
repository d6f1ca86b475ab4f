package diagnose

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// A GPU the kernel log shows behind a crashed driver is unusable, critical,
// with the driver's fix and not the hardware advice of a lost GPU.
func TestEvidenceDriverOops(t *testing.T) {
	g := sampler.GPU{Index: 0, DriverOops: true}
	f := requireRule(t, Evidence([]sampler.Snapshot{evSnap(0, g)}), RuleXidError, 0)
	if f.Severity != Critical || !strings.Contains(f.Title, "kernel module crashed") ||
		!strings.Contains(f.Evidence, "kernel oops") || !strings.Contains(f.Hint, "running kernel") {
		t.Errorf("finding %+v", f)
	}
	if fs := Evidence([]sampler.Snapshot{evSnap(0, sampler.GPU{Index: 0})}); len(fs) != 0 {
		t.Errorf("a GPU without a crash: %s", describe(fs))
	}
}
