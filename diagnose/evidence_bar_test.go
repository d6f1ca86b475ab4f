package diagnose

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// A GPU the driver did not probe because its BAR had no address window is
// told the firmware or VM setting, not Xid 79's hardware checks; a lost
// GPU without that keeps the Xid advice.
func TestEvidenceBARUnassigned(t *testing.T) {
	g := sampler.GPU{Index: 0, BusID: "0000:41:00.0", Lost: true, BARUnassigned: true}
	f := requireRule(t, Evidence([]sampler.Snapshot{evSnap(0, g)}), RuleXidError, 0)
	if f.Severity != Critical || !strings.Contains(f.Title, "no address window") || !strings.Contains(f.Hint, "Above 4G") ||
		strings.Contains(f.Hint, "RMA") || f.FixID != "bar_unassigned" {
		t.Errorf("finding %+v", f)
	}
	lost := requireRule(t, Evidence([]sampler.Snapshot{evSnap(0, sampler.GPU{Index: 0, Lost: true})}), RuleXidError, 0)
	if strings.Contains(lost.Hint, "Above 4G") || !strings.Contains(lost.Hint, "Xid 79") {
		t.Errorf("a lost GPU without the BAR line: %+v", lost)
	}
}
