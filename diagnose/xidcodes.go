package diagnose

import "fmt"

// XidURL is NVIDIA's Xid catalogue: what each code means and what to do.
const XidURL = "https://docs.nvidia.com/deploy/xid-errors/"

// XidInfo is one catalogue entry, summarised from NVIDIA's "Xid Errors"
// page (XidURL): its "Xid Error Listing" table and the per-code causes.
type XidInfo struct {
	Code uint64
	Name string
	// Hardware: the catalogue lists hardware, board or memory as a cause
	// (drain the node, reset); otherwise the usual cause is the application
	// or the driver.
	Hardware bool
	Action   string
}

// xidCatalogue holds the codes that appear most in real logs.
var xidCatalogue = []XidInfo{
	{8, "GPU stopped processing (channel timeout)", false, "a kernel ran past the watchdog or hung: check the application; if it repeats without one, the driver"},
	{13, "Graphics engine exception", false, "usually the application (out-of-range access, illegal instruction): rerun under compute-sanitizer"},
	{31, "GPU memory page fault (MMU fault)", false, "usually the application accessed an invalid address: rerun with CUDA_LAUNCH_BLOCKING=1 or compute-sanitizer; rarely the driver"},
	{32, "Invalid or corrupted push buffer stream", true, "the driver or a PCIe problem corrupted commands: check the slot and PCIe errors, update the driver"},
	{38, "Driver firmware error", false, "update the driver; report to NVIDIA with nvidia-bug-report.sh if it repeats"},
	{43, "GPU stopped processing (a channel was reset)", false, "the application's context faulted (often after Xid 13/31); the GPU itself is fine"},
	{45, "Preemptive cleanup after previous errors", false, "a process was stopped (Ctrl-C, OOM kill, or an earlier Xid): look at the Xid before it"},
	{48, "Double-bit ECC error (uncorrectable)", true, "drain the GPU and reset it (nvidia-smi -r); check nvidia-smi -q -d ECC,ROW_REMAPPER; repeats mean RMA"},
	{61, "Internal micro-controller breakpoint/warning", true, "reset the GPU; if it repeats, update the driver or RMA"},
	{62, "Internal micro-controller halt", true, "reset the GPU (often needs a reboot); if it repeats, RMA"},
	{63, "ECC page retirement or row remapping recorded", true, "reset the GPU when idle so the retirement/remap takes effect"},
	{64, "ECC page retirement or row remapping failed", true, "drain the GPU and reset; a failed remap is a candidate for RMA"},
	{68, "Video processor (NVDEC) exception", false, "usually the application's video stream; update the driver if it repeats"},
	{69, "Graphics engine class error", false, "usually the application; update the driver if it repeats"},
	{74, "NVLink error", true, "check the NVLink/NVSwitch state (nvidia-smi nvlink -s -e); reset the GPU; repeats mean a bad link or board"},
	{79, "GPU has fallen off the bus", true, "drain the node and reboot; check power, cooling, the slot/riser and the PCIe link; repeats mean RMA"},
	{92, "High single-bit ECC error rate", true, "watch the ECC counters; plan a reset and a retirement check"},
	{94, "Contained ECC error", true, "the application that used the bad memory was stopped; reset the GPU when idle"},
	{95, "Uncontained ECC error", true, "every application on the GPU is affected: drain it and reset"},
	{109, "Context switch timeout", false, "a hung or very long kernel, or the driver: check the application, then the driver"},
	{119, "GSP RPC timeout", true, "the GPU's system processor did not answer: reset the GPU or reboot; update the driver if it repeats"},
	{120, "GSP error", true, "reset the GPU or reboot; update the driver if it repeats"},
	{154, "GPU recovery action changed", true, "the driver asks for the action it prints (reset or reboot): follow it"},
}

// LookupXid returns the catalogue entry of code, or false.
func LookupXid(code uint64) (XidInfo, bool) {
	for _, x := range xidCatalogue {
		if x.Code == code {
			return x, true
		}
	}
	return XidInfo{}, false
}

// describeXid is "Xid 31 (GPU memory page fault (MMU fault))" or "Xid 150
// (not in gpuscope's catalogue: see XidURL)".
func describeXid(code uint64) string {
	if x, ok := LookupXid(code); ok {
		return fmt.Sprintf("Xid %d (%s)", code, x.Name)
	}
	return fmt.Sprintf("Xid %d (not in gpuscope's short catalogue: see %s)", code, XidURL)
}
