package sampler

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// GPUSelect is the GPUs a user chose to see (--gpus), in the syntax of
// CUDA_VISIBLE_DEVICES: indices, GPU UUIDs or MIG UUIDs, comma-separated; a
// UUID may be cut to any prefix that names one GPU, as CUDA takes it.
// Indices are NVML's (nvidia-smi's, PCI bus order), which are CUDA's only
// under CUDA_DEVICE_ORDER=PCI_BUS_ID; UUIDs always agree.
type GPUSelect struct {
	spec    string
	indices []int
	uuids   []string // lower case, "gpu-…" or "mig-…"
}

// ParseGPUSelect reads spec; an empty spec selects every GPU (nil).
func ParseGPUSelect(spec string) (*GPUSelect, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, nil
	}
	sel := &GPUSelect{spec: spec}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		lower := strings.ToLower(part)
		switch {
		case part == "":
			return nil, fmt.Errorf("--gpus %q: an empty item; give indices or UUIDs separated by commas, e.g. 0,2", spec)
		case strings.HasPrefix(lower, "gpu-") || strings.HasPrefix(lower, "mig-"):
			if len(lower) < len("gpu-")+4 {
				return nil, fmt.Errorf("--gpus %q: %q is too short a UUID to name one GPU; give at least 4 characters after %s", spec, part, part[:4])
			}
			sel.uuids = append(sel.uuids, lower)
		default:
			n, err := strconv.Atoi(part)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("--gpus %q: %q is neither a GPU index (0, 1, …) nor a UUID (GPU-…, MIG-…)", spec, part)
			}
			sel.indices = append(sel.indices, n)
		}
	}
	return sel, nil
}

// String is the spec as the user gave it.
func (s *GPUSelect) String() string { return s.spec }

// Has says whether g is selected: by index, by its UUID, or by the UUID of
// one of its MIG instances.
func (s *GPUSelect) Has(g *GPU) bool {
	if s == nil || slices.Contains(s.indices, g.Index) {
		return true
	}
	for _, u := range s.uuids {
		if g.UUID != "" && strings.HasPrefix(strings.ToLower(g.UUID), u) {
			return true
		}
		for i := range g.MIGDevices {
			if m := strings.ToLower(g.MIGDevices[i].UUID); m != "" && strings.HasPrefix(m, u) {
				return true
			}
		}
	}
	return false
}

// Filter returns the selected GPUs in a new slice (a source may keep its
// own). When it keeps none of a non-empty list, the problem names what
// there is, so a typo is one line on the screen rather than an empty node.
func (s *GPUSelect) Filter(gpus []GPU) ([]GPU, string) {
	if s == nil {
		return gpus, ""
	}
	var kept []GPU
	for i := range gpus {
		if s.Has(&gpus[i]) {
			kept = append(kept, gpus[i])
		}
	}
	if len(kept) == 0 && len(gpus) > 0 {
		return kept, fmt.Sprintf("--gpus %s: no GPU of this node matches (it has %d, indices 0-%d; UUIDs in nvidia-smi -L)", s.spec, len(gpus), len(gpus)-1)
	}
	return kept, ""
}
