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

// CUDA error 35 (the driver older than the program's CUDA runtime) is the
// node's xid_error, critical, with the update-the-driver fix, and not the
// fabric manager's finding that error 802 gets.
func TestDriverTooOldFinding(t *testing.T) {
	at := time.Date(2026, 12, 13, 10, 0, 0, 0, time.UTC)
	snap := sampler.Snapshot{Time: at, Node: sampler.Node{CUDAError: "35: CUDA driver version is insufficient for CUDA runtime version (x)"}}
	fs := Evidence([]sampler.Snapshot{snap})
	if len(fs) != 1 || fs[0].FixID != "driver_too_old" || fs[0].Rule != RuleXidError || fs[0].Severity != Critical || fs[0].GPU != -1 {
		t.Fatalf("want one xid_error, critical, for the node with the driver_too_old fix; got %+v", fs)
	}
	snap.Node.CUDAError = "802: system not yet initialized (x)"
	for _, f := range Evidence([]sampler.Snapshot{snap}) {
		if f.FixID == "driver_too_old" {
			t.Errorf("error 802 got the old-driver finding: %+v", f)
		}
	}
}
