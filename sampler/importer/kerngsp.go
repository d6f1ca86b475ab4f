package importer

import (
	"sort"
	"strings"
)

// The driver's messages when a GPU's firmware stops answering, logged with
// or without an Xid line beside them (open-gpu-kernel-modules,
// kernel_gsp.c and kern_fsp.c; NVIDIA's Xid catalogue, Xid 119 "GSP RPC
// timeout", resolves the same event by resetting the GPU):
//
//	NVRM: GPU3 _kgspIsHeartbeatTimedOut: Heartbeat timed out, currentTimeMs ...
//	NVRM: GPU0 _kgspRpcRecvPoll: GSP RM heartbeat timed out ...
//	NVRM: GPU3 _kgspLogRpcTimeout: ********** GSP Timeout **********
//	NVRM: kfspPollForResponse_IMPL: FSP command timed out
//
// and a call failing with the driver's status NV_ERR_RESET_REQUIRED
// ("Reset required", nvstatuscodes.h), which it logs as
//
//	NVRM: nvAssertOkFailedNoLog: Assertion failed: Reset required [NV_ERR_RESET_REQUIRED] (0x00000062) returned from status @ kernel_channel.c:2827
//
// or with NV_ERR_GPU_IS_LOST ("GPU lost from the bus", status 0x0000000F in
// nvstatuscodes.h), by name or as the status of an RPC to GSP that could
// not be sent, as after a GSP heartbeat death:
//
//	NVRM: nvCheckOkFailedNoLog: GPU lost from the bus [NV_ERR_GPU_IS_LOST]
//	NVRM: GPU0 _issueRpcAndWait: rpcSendMessage failed with status 0x0000000f for fn 10 sequence 12303!
//
// Until it is reset the GPU answers nothing: it is lost as one whose
// initialisation failed. "GPUn" is the driver's own instance number, not
// a PCI address or nvidia-smi's index.
var fwTimeoutRE = lazy(`NVRM: (?:GPU(\d+) )?\w+: (?:(?:GSP RM )?[Hh]eartbeat timed out|\*+ GSP Timeout|FSP command timed out|.*\[NV_ERR_(?:RESET_REQUIRED|GPU_IS_LOST)\]|rpcSendMessage failed with status 0x0000000[fF]\b)`)

// fwTimeouts collects, per driver instance number ("" for a message
// without one), the first line of one kernel section whose firmware timed
// out.
type fwTimeouts map[string]int

func (f fwTimeouts) add(l string, line int) bool {
	m := fwTimeoutRE.FindStringSubmatch(l)
	if m == nil {
		return false
	}
	if m[1] == "" && strings.Contains(l, "rpcSendMessage") {
		// An RPC failing without the driver's GPU number follows the
		// failure the lines before it read (an older driver's Xid 79):
		// alone it names no GPU, and placing it would add one.
		return false
	}
	if _, ok := f[m[1]]; !ok {
		f[m[1]] = line
	}
	return true
}

// resolve places the timeouts: on the GPU the section names by address
// when it names one and the log one instance (the same GPU's Xid line), on
// GPUs known only by the driver's number when it names none, and in the
// note alone otherwise (which named GPU is "GPU6" the log does not say).
// lose marks the GPU of a key lost, read at a line; the note says what was
// done.
func (f fwTimeouts) resolve(named []string, lose func(key string, line int)) (note string) {
	if len(f) == 0 {
		return ""
	}
	if len(named) > 1 || len(named) == 1 && len(f) > 1 {
		return "a firmware (GSP/FSP) timeout on a GPU the section does not name by PCI address: not placed"
	}
	ids := make([]string, 0, len(f))
	for id := range f {
		ids = append(ids, id)
	}
	sort.Strings(ids) // GPUs made in a fixed order: their provisional indexes follow it
	for _, id := range ids {
		key := "driver GPU" + id
		if len(named) == 1 {
			key = named[0]
		}
		lose(key, f[id])
	}
	return countGPUs(len(f)) + " whose firmware (GSP/FSP) stopped answering, that need a reset (NV_ERR_RESET_REQUIRED) or that the driver has lost (NV_ERR_GPU_IS_LOST): reset the GPU"
}
