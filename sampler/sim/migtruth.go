package sim

import (
	"fmt"
	"hash/fnv"

	"github.com/gpuscope/gpuscope/sampler"
)

// h200Profiles are the H200 MIG profiles: GPU slices, memory in MB (go-nvml
// mock/gpus/h200.go) and the first GPU instance id handed out
// (ids as nvidia-smi shows them on a fresh H100/H200 split).
var h200Profiles = map[string]struct {
	slices  int
	memMB   uint64
	firstGI int
}{
	"1g.18gb":  {1, 18432, 7},
	"1g.35gb":  {1, 35840, 7},
	"2g.35gb":  {2, 35840, 3},
	"3g.71gb":  {3, 72704, 1},
	"4g.71gb":  {4, 72704, 1},
	"7g.141gb": {7, 144384, 0},
}

// MIGUUID is the deterministic UUID of MIG device idx on simulated GPU gpu.
func MIGUUID(gpu, idx int) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "gpuscope-fake-mig-%d-%d", gpu, idx)
	s := h.Sum64()
	return fmt.Sprintf("MIG-%08x-%04x-5%03x-9%03x-%012x", uint32(s>>32), uint16(s>>16), uint16(s)&0xfff, idx&0xfff, s&0xffffffffffff)
}

// EnableMIG turns truth GPU g into a MIG-enabled H200 split into n instances
// of profile (an H200 profile such as "3g.71gb"; an unknown one is ignored),
// idle and empty, and marks the readings MIG makes unavailable as n/a. The
// GPU's NA map is copied, not edited in place.
func EnableMIG(g *sampler.GPU, profile string, n int) {
	p, ok := h200Profiles[profile]
	if !ok || n <= 0 {
		return
	}
	na := make(map[string]string, len(g.NA)+3)
	for k, v := range g.NA {
		na[k] = v
	}
	na[sampler.NAUtil], na[sampler.NAMemUtil], na[sampler.NAProcUtil] = sampler.ReasonMIG, sampler.ReasonMIG, sampler.ReasonMIG
	g.NA, g.MIG, g.Util, g.MemUtil = na, true, sampler.NA, sampler.NA
	g.MIGDevices = make([]sampler.MIGDevice, n)
	for i := range g.MIGDevices {
		g.MIGDevices[i] = sampler.MIGDevice{
			Index: i, GPUInstance: p.firstGI + i, ComputeInstance: 0,
			UUID: MIGUUID(g.Index, i), Profile: profile, SMSlices: p.slices,
			MemUsed: sampler.Some(0), MemTotal: sampler.Some(float64(p.memMB << 20)),
			SMActive: sampler.Some(0), TensorActive: sampler.Some(0), DRAMActive: sampler.Some(0),
		}
	}
}
