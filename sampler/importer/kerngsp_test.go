package importer

import (
	"strings"
	"testing"
)

// The driver's firmware-timeout messages (kernel_gsp.c, kern_fsp.c format
// strings) lose the GPU they name until it is reset, with or without an Xid
// line: before, a section holding only them was skipped as kernel lines
// without an Xid.
func TestKernelFirmwareTimeoutLosesGPU(t *testing.T) {
	cases := []struct {
		name, in string
		gpus     int
		lost     []bool
		bus      string // GPU 0's bus when the log names it
		note     string
	}{
		{"heartbeat alone", "[  731.550210] NVRM: GPU2 _kgspIsHeartbeatTimedOut: Heartbeat timed out, currentTimeMs 4021 heartbeat 77 heartbeatWithOffsetMs 3800 diff 5221 timeout 5200\n",
			1, []bool{true}, "", "stopped answering"},
		{"rpc poll", "Jun 02 08:11:40 host kernel: NVRM: GPU0 _kgspRpcRecvPoll: GSP RM heartbeat timed out, diff 8012 timeout 5200\n",
			1, []bool{true}, "", "stopped answering"},
		{"fsp boot", "[   88.100000] NVRM: kfspPollForResponse_IMPL: FSP command timed out\n",
			1, []bool{true}, "", "stopped answering"},
		{"beside its Xid 119", "[ 900.0] NVRM: Xid (PCI:0000:61:00): 119, pid=42, name=python3, Timeout waiting for RPC from GSP0! Expected function 76 (GSP_RM_CONTROL) (0x20800a4c 0x4).\n" +
			"[ 900.1] NVRM: GPU0 _kgspLogRpcTimeout: ********************************* GSP Timeout **********************************\n",
			1, []bool{true}, "0000:61:00", "stopped answering"},
		{"two named GPUs", "[ 10.0] NVRM: Xid (PCI:0000:17:00): 13, Graphics Exception\n[ 11.0] NVRM: Xid (PCI:0000:b1:00): 43, pid=7, Ch 00000008\n" +
			"[ 12.0] NVRM: GPU5 _kgspIsHeartbeatTimedOut: Heartbeat timed out, currentTimeMs 1 heartbeat 1 heartbeatWithOffsetMs 1 diff 6000 timeout 5200\n",
			2, []bool{false, false}, "0000:17:00", "not placed"},
		{"two driver GPUs", "[ 20.0] NVRM: GPU1 _kgspIsHeartbeatTimedOut: Heartbeat timed out, diff 6000 timeout 5200\n[ 21.0] NVRM: GPU3 _kgspIsHeartbeatTimedOut: Heartbeat timed out, diff 6100 timeout 5200\n",
			2, []bool{true, true}, "", "stopped answering"},
	}
	for _, c := range cases {
		snaps, ev := readPaste(t, c.in)
		g := snaps[0].GPUs
		if len(g) != c.gpus || g[0].BusID != c.bus {
			t.Fatalf("%s: read %+v", c.name, g)
		}
		for i, want := range c.lost {
			if g[i].Lost != want {
				t.Errorf("%s: GPU %d lost %v, want %v", c.name, i, g[i].Lost, want)
			}
		}
		if s := strings.Join(ev.Sections(), "\n"); !strings.Contains(s, c.note) {
			t.Errorf("%s: sections do not say %q: %s", c.name, c.note, s)
		}
	}
}
