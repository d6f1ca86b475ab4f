package diagnose

import (
	"fmt"
	"slices"
)

// XidURL is NVIDIA's Xid catalogue: what each code means and what to do.
const XidURL = "https://docs.nvidia.com/deploy/xid-errors/"

// XidInfo is one catalogue entry, summarised in our words from NVIDIA's Xid
// catalogue ([nvidia-xid]: the Ampere-and-newer catalogue with its
// immediate and investigatory actions, and the older listing of causes for
// codes newer GPUs no longer raise) and gpud's repair actions ([gpud-xid]).
type XidInfo struct {
	Code uint64
	Name string
	// Hardware: the GPU itself needs attention before it takes more work —
	// the catalogue's first action is a GPU reset, a reboot or a hardware
	// check, or it names the board, its memory, power or a link as the
	// cause (drain the node). Otherwise the usual cause is the application
	// or the driver, and restarting the job is the first step.
	Hardware bool
	Action   string
}

// Actions shared by families of codes (copy engines, media engines, codes
// Ampere and newer GPUs no longer raise).
const (
	xidActUnused        = "not raised by Ampere or newer GPUs; on an older GPU collect nvidia-bug-report.sh and contact NVIDIA support"
	xidActOldPushBuffer = "not raised by Ampere or newer GPUs; on older ones a driver, system-memory or PCIe fault: " +
		"update the driver, test the host's memory, look for PCIe errors"
	xidActOldDriver = "not raised by Ampere or newer GPUs; on older ones a driver fault: reboot the node and update the driver; " +
		"collect nvidia-bug-report.sh if it repeats"
	xidActDisplay = "a display-engine fault of older or workstation GPUs, not a compute one: update the driver; " +
		"contact NVIDIA support if it repeats"
	xidActCheckApp = "restart the application and check it (and that its CUDA version suits the driver); " +
		"if it repeats without one, update the driver"
	xidActCopyEngine = "a copy (DMA) engine fault: restart the application; if it repeats with no application at fault, " +
		"collect nvidia-bug-report.sh and contact NVIDIA support"
	xidActMedia = "a video, JPEG or optical-flow engine fault, usually the application's stream: restart the application; " +
		"update the driver or contact NVIDIA support if it repeats"
	xidActNVLink5 = "an NVLink 5 error (Blackwell NVLink systems): decode its intrinfo with NVIDIA's NVLink table; " +
		"reset the GPU if the job failed; repeats on one link mean checking the link, its cables and trays"
)

// LookupXid returns the catalogue entry of code, or false.
func LookupXid(code uint64) (XidInfo, bool) {
	tab := xidLow
	if code >= 100 {
		tab = xidHigh
	}
	i, ok := slices.BinarySearchFunc(tab, code, func(x XidInfo, c uint64) int {
		switch {
		case x.Code < c:
			return -1
		case x.Code > c:
			return 1
		}
		return 0
	})
	if !ok {
		return XidInfo{}, false
	}
	return tab[i], true
}

// describeXid is "Xid 31 (GPU memory page fault (MMU fault))" or "Xid 250
// (not in gpuscope's catalogue, which ends at Xid 173: see XidURL)".
func describeXid(code uint64) string {
	if x, ok := LookupXid(code); ok {
		return fmt.Sprintf("Xid %d (%s)", code, x.Name)
	}
	last := xidHigh[len(xidHigh)-1].Code
	return fmt.Sprintf("Xid %d (not in gpuscope's catalogue, which ends at Xid %d: see %s)", code, last, XidURL)
}
