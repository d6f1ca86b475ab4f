package importer

import (
	"strings"
	"testing"
	"time"
)

// NCCL's warning about NVLink is a failed NVLink check of the GPU in its
// brackets, dated by the launcher's stamp; NCCL's other warnings (the
// network here) are not read as anything about a GPU.
func TestNCCLNVLinkWarning(t *testing.T) {
	in := "[2026-06-23 15:45:07] node-a:420:437 [5] transport/nvls.cc:379 (nvlsAllocateMem) NCCL WARN Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152 : CUDA error 401 'the operation cannot be performed in the present state'.\n"
	snaps, ev := readPaste(t, in)
	s := snaps[len(snaps)-1]
	d := s.Node.Diag
	if len(d) != 1 || d[0].Category != "NCCL" || d[0].Result != "fail" || len(d[0].GPUs) != 1 || d[0].GPUs[0] != 5 ||
		!strings.HasPrefix(d[0].Messages[0].Text, "Failed to bind NVLink SHARP") || len(s.GPUs) != 1 || s.GPUs[0].Index != 5 {
		t.Fatalf("got GPUs %+v, checks %+v", s.GPUs, d)
	}
	if !s.Time.Equal(time.Date(2026, 6, 23, 15, 45, 7, 0, time.UTC)) {
		t.Errorf("time %v, want the line's stamp", s.Time)
	}
	if w := ev.Where(5, "diag"); !strings.Contains(w, "line 1") {
		t.Errorf("read from %q", w)
	}
	net := "node-a:420:437 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2 with error 12\n"
	if _, _, err := readString(net); err == nil {
		t.Errorf("%q read; want NCCL's network warning left unread", net)
	}
}
