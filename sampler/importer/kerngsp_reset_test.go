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

// A call failing with NV_ERR_GPU_IS_LOST, by name or as the 0x0000000f
// status of an RPC to GSP that could not be sent, loses the GPU the same
// way; an RPC failing with another status does not, nor one without the
// driver's GPU number (it follows a failure already read, and names no GPU).
func TestKernelGPUIsLostStatusLosesGPU(t *testing.T) {
	for _, in := range []string{
		"May 02 21:43:54 host kernel: NVRM: GPU0 _issueRpcAndWait: rpcSendMessage failed with status 0x0000000f for fn 10 sequence 12303!\n",
		"[ 812.100200] NVRM: nvCheckOkFailedNoLog: GPU lost from the bus [NV_ERR_GPU_IS_LOST] (0x0000000F) returned from status @ kernel_gsp.c:4101\n",
	} {
		snaps, ev := readPaste(t, in)
		g := snaps[0].GPUs
		if len(g) != 1 || !g[0].Lost {
			t.Fatalf("%q: read %+v, want one lost GPU", in, g)
		}
		if s := strings.Join(ev.Sections(), "\n"); !strings.Contains(s, "NV_ERR_GPU_IS_LOST") {
			t.Errorf("%q: sections do not name the lost status: %s", in, s)
		}
	}
	for _, other := range []string{
		"May 02 21:43:54 host kernel: NVRM: GPU0 _issueRpcAndWait: rpcSendMessage failed with status 0x00000065 for fn 10 sequence 12303!\n",
		"april 24 16:22:15 host kernel: NVRM: _issueRpcAndWait: rpcSendMessage failed with status 0x0000000f for fn 78 sequence 1016221!\n",
	} {
		if snaps, _, err := readString(other); err == nil && len(snaps) > 0 && len(snaps[0].GPUs) > 0 {
			t.Errorf("%q read as a GPU: %+v", other, snaps[0].GPUs)
		}
	}
}
