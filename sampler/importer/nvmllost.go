package importer

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// NVML's return code NVML_ERROR_GPU_IS_LOST (nvml.h: "The GPU has fallen
// off the bus or has otherwise become inaccessible"), as the agents built
// on NVML log it: by its C name, or by the Go binding's constant name
// (go-nvml's nvml.ERROR_GPU_IS_LOST), after the call that got it and the
// GPU it asked about:
//
//	failed to get remapped rows for GPU-<uuid>: ...: ERROR_GPU_IS_LOST
//	nvmlDeviceGetMemoryInfo(00000000:3B:00.0) returned NVML_ERROR_GPU_IS_LOST
//
// Only a line that names the GPU (its UUID or bus id) is claimed: the
// code's name in prose (nvml.h's comment quoted in a thread) is no GPU.
var nvmlLostUUIDRE = lazy(`\bGPU-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`)

const kindNVMLLost = "NVML error, a GPU lost"

func isNVMLLostLine(s string) bool {
	return strings.Contains(s, "ERROR_GPU_IS_LOST") && (nvmlLostUUIDRE.MatchString(s) || tblBusRE.MatchString(s))
}

// parseNVMLLost reads each GPU the lines name as lost, once.
func parseNVMLLost(sec *section) *part {
	p := newPart(sec)
	snap := sampler.Snapshot{}
	seen := map[string]bool{}
	var at []string
	for i, l := range sec.lines {
		uuid, bus := nvmlLostUUIDRE.FindString(l), tblBusRE.FindString(l)
		id := uuid + bus
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		g := sampler.GPU{Index: provisionalIndex(len(snap.GPUs)), UUID: uuid, BusID: bus, Lost: true}
		snap.GPUs = append(snap.GPUs, g)
		p.where(g.Index, "lost", sec.first+i)
		at = append(at, strings.TrimSpace(uuid+" "+bus))
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note(fmt.Sprintf("NVML answered ERROR_GPU_IS_LOST for %s: fallen off the bus or otherwise unreachable", strings.Join(at, ", ")))
	return p
}
