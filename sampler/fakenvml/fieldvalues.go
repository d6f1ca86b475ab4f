package fakenvml

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// GetTotalEnergyConsumption answers the truth's energy counter in mJ, as
// NVML counts it (the truth keeps joules).
func (d *device) GetTotalEnergyConsumption() (uint64, nvml.Return) {
	v, r := d.reading(mGetTotalEnergyConsumption, sampler.NAEnergy, func(g *sampler.GPU) sampler.Metric { return g.Energy }, 1000)
	return uint64(v), r
}

// GetFieldValues answers the field values the reader asks for: the memory
// temperature, and the NVLink data counters of all links; any other field
// answers NOT_SUPPORTED in its own return code, as NVML does for a field
// the GPU lacks.
func (d *device) GetFieldValues(values []nvml.FieldValue) nvml.Return {
	g, r := d.read(mGetFieldValues)
	if r != nvml.SUCCESS {
		return r
	}
	if len(values) == 0 {
		return nvml.ERROR_INVALID_ARGUMENT
	}
	var at int64
	var rx, tx float64
	if slices.ContainsFunc(values, isNVLinkData) {
		at, rx, tx = d.nvlinkStep(g)
	}
	for i := range values {
		fv := &values[i]
		fv.NvmlReturn, fv.ValueType, fv.Value = uint32(nvml.ERROR_NOT_SUPPORTED), 0, [8]byte{}
		switch {
		case fv.FieldId == nvml.FI_DEV_MEMORY_TEMP:
			if !g.MemTemp.OK {
				fv.NvmlReturn = uint32(naReturn(g, sampler.NAMemTemp))
				continue
			}
			fv.NvmlReturn, fv.ValueType = uint32(nvml.SUCCESS), uint32(nvml.VALUE_TYPE_UNSIGNED_INT)
			binary.LittleEndian.PutUint32(fv.Value[:], uint32(round(g.MemTemp.V)))
		case isNVLinkData(*fv):
			rate, kib, field := g.NVLinkRx, rx, sampler.NANVLinkRx
			if fv.FieldId == nvml.FI_DEV_NVLINK_THROUGHPUT_DATA_TX {
				rate, kib, field = g.NVLinkTx, tx, sampler.NANVLinkTx
			}
			if !rate.OK {
				fv.NvmlReturn = uint32(naReturn(g, field))
				continue
			}
			fv.NvmlReturn, fv.ValueType, fv.Timestamp = uint32(nvml.SUCCESS), uint32(nvml.VALUE_TYPE_UNSIGNED_LONG_LONG), at
			binary.LittleEndian.PutUint64(fv.Value[:], uint64(round(kib)))
		}
	}
	return nvml.SUCCESS
}

// allLinks is the scope id of a field for every NVLink of the GPU.
const allLinks = math.MaxUint32

func isNVLinkData(fv nvml.FieldValue) bool {
	return fv.ScopeId == allLinks && (fv.FieldId == nvml.FI_DEV_NVLINK_THROUGHPUT_DATA_RX || fv.FieldId == nvml.FI_DEV_NVLINK_THROUGHPUT_DATA_TX)
}

// nvlinkStep advances the GPU's NVLink data counters (KiB) by one second of
// the truth's rates and returns the timestamp (µs) it stamps on them with
// the counters. The fake keeps its own clock, a second per call, so that a
// reader's rate (rise over stamped time) is the truth's, whatever its tick.
func (d *device) nvlinkStep(g *sampler.GPU) (at int64, rxKiB, txKiB float64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.nvlCalls++
	d.nvlRx += g.NVLinkRx.Or(0) / 1024
	d.nvlTx += g.NVLinkTx.Or(0) / 1024
	return d.nvlCalls * 1e6, d.nvlRx, d.nvlTx
}

// round is math.Round out of line: inlined at each reading the fake rounds
// as NVML does, it cost the binary (docs/benchmarks.md, "Recording a day:
// the writer's text").
//
//go:noinline
func round(x float64) float64 { return math.Round(x) }
