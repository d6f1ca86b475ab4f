package importer

import (
	"strings"
	"testing"
)

// A call failing with the driver's NV_ERR_RESET_REQUIRED status loses the
// GPU until it is reset, placed as the firmware timeouts are: on the GPU
// the driver numbers, or provisionally when the line names none. Another
// status in the same assertion form stays a kernel line without an Xid.
func TestKernelResetRequiredLosesGPU(t *testing.T) {
	for _, in := range []string{
		"[ 5120.004411] NVRM: nvAssertOkFailedNoLog: Assertion failed: Reset required [NV_ERR_RESET_REQUIRED] (0x00000062) returned from status @ kernel_fifo.c:1207\n",
		"Jan 12 03:04:05 node7 kernel: NVRM: GPU2 rcAndDisableOutstandingClientsWithImportedMemory: status Reset required [NV_ERR_RESET_REQUIRED]\n",
	} {
		snaps, ev := readPaste(t, in)
		g := snaps[0].GPUs
		if len(g) != 1 || !g[0].Lost {
			t.Fatalf("%q: read %+v, want one lost GPU", in, g)
		}
		if s := strings.Join(ev.Sections(), "\n"); !strings.Contains(s, "need a reset") {
			t.Errorf("%q: sections do not say the reset: %s", in, s)
		}
	}
	other := "[ 5120.004411] NVRM: nvAssertOkFailedNoLog: Assertion failed: Invalid argument [NV_ERR_INVALID_ARGUMENT] (0x0000001F) returned from status @ kernel_fifo.c:1207\n"
	if snaps, _, err := readString(other); err == nil && len(snaps) > 0 && len(snaps[0].GPUs) > 0 {
		t.Errorf("another status read as a GPU: %+v", snaps[0].GPUs)
	}
}
