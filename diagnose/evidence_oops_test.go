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

// A GPU the driver could not bring up for want of its GSP firmware file is
// told to install the firmware, not Xid 79's hardware checks; a lost GPU
// without that, or with Xids of its own, keeps the Xid advice.
func TestEvidenceGSPFirmwareMissing(t *testing.T) {
	g := sampler.GPU{Index: 0, BusID: "0000:3b:00.0", Lost: true, GSPFirmwareMissing: true}
	f := requireRule(t, Evidence([]sampler.Snapshot{evSnap(0, g)}), RuleXidError, 0)
	if f.Severity != Critical || !strings.Contains(f.Title, "no GSP firmware") || !strings.Contains(f.Hint, "/lib/firmware") ||
		strings.Contains(f.Hint, "RMA") {
		t.Errorf("finding %+v", f)
	}
	lost := requireRule(t, Evidence([]sampler.Snapshot{evSnap(0, sampler.GPU{Index: 0, Lost: true})}), RuleXidError, 0)
	if strings.Contains(lost.Hint, "/lib/firmware") || !strings.Contains(lost.Hint, "Xid 79") {
		t.Errorf("a lost GPU without the firmware line: %+v", lost)
	}
}
