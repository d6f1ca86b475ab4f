package diagnose

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// The CUDA runtime's out-of-memory error names no GPU and no sizes: the
// node's memory_pressure, the fix that tells the job's own need from memory
// other processes hold, and no slice or card size made up.
func TestEvidenceCUDARuntimeOOM(t *testing.T) {
	s := evSnap(0)
	s.Node.SliceOOM = []sampler.SliceOOM{{Device: -1, Layer: "cuda"}}
	f := requireRule(t, Evidence([]sampler.Snapshot{s}), RuleMemoryPressure, -1)
	if f.FixID != hintCUDAOOM.id || f.Severity != Critical || !strings.Contains(f.Evidence, "error 2") ||
		strings.Contains(f.Title, "slice") || strings.Contains(f.Title, "0 B") || !strings.Contains(f.Hint, "process list") {
		t.Errorf("finding %q / %q / %s / %s", f.Title, f.Evidence, f.FixID, f.Hint)
	}
}

// ggml's line gives the allocation's size: the estimate says so rather
// than that the line gave none, and still sends the user to the process
// list (the device is ggml's own count).
func TestEvidenceCUDARuntimeOOMWithSize(t *testing.T) {
	s := evSnap(0)
	s.Node.SliceOOM = []sampler.SliceOOM{{Device: -1, Layer: "cuda", Want: 5563.66 * (1 << 20)}}
	f := requireRule(t, Evidence([]sampler.Snapshot{s}), RuleMemoryPressure, -1)
	est := f.Estimated
	if strings.Contains(est, "neither") || !strings.Contains(est, "5.4 GiB") || !strings.Contains(est, "process list") {
		t.Errorf("estimate %q", est)
	}
}
