package diagnose

import (
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// A node whose driver and libraries differ is the node's xid_error,
// critical, with the reload-or-reinstall fix and no GPU named; a node
// without it gets nothing from this check.
func TestDriverMismatchFinding(t *testing.T) {
	at := time.Date(2026, 12, 11, 10, 0, 0, 0, time.UTC)
	snap := sampler.Snapshot{Time: at, Node: sampler.Node{DriverMismatch: "Driver/library version mismatch"}}
	var hit *Finding
	for _, f := range Evidence([]sampler.Snapshot{snap}) {
		if f.FixID == "driver_mismatch" {
			hit = &f
		}
	}
	if hit == nil || hit.Rule != RuleXidError || hit.Severity != Critical || hit.GPU != -1 {
		t.Fatalf("want xid_error, critical, for the node with the driver_mismatch fix; got %+v", hit)
	}
	snap.Node.DriverMismatch = ""
	for _, f := range Evidence([]sampler.Snapshot{snap}) {
		if f.FixID == "driver_mismatch" {
			t.Errorf("a node without a mismatch got %+v", f)
		}
	}
}
