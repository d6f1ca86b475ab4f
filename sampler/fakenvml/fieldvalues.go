package fakenvml

import (
	"encoding/binary"
	"math"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// GetTotalEnergyConsumption answers the truth's energy counter in mJ, as
// NVML counts it (the truth keeps joules).
func (d *device) GetTotalEnergyConsumption() (uint64, nvml.Return) {
	v, r := d.reading(mGetTotalEnergyConsumption, sampler.NAEnergy, func(g *sampler.GPU) sampler.Metric { return g.Energy }, 1000)
	return uint64(v), r
}

// GetFieldValues answers the field values the reader asks for (the memory
// temperature); any other field answers NOT_SUPPORTED in its own return
// code, as NVML does for a field the GPU lacks.
func (d *device) GetFieldValues(values []nvml.FieldValue) nvml.Return {
	g, r := d.read(mGetFieldValues)
	if r != nvml.SUCCESS {
		return r
	}
	if len(values) == 0 {
		return nvml.ERROR_INVALID_ARGUMENT
	}
	for i := range values {
		fv := &values[i]
		fv.NvmlReturn, fv.ValueType, fv.Value = uint32(nvml.ERROR_NOT_SUPPORTED), 0, [8]byte{}
		if fv.FieldId != nvml.FI_DEV_MEMORY_TEMP {
			continue
		}
		if !g.MemTemp.OK {
			fv.NvmlReturn = uint32(naReturn(g, sampler.NAMemTemp))
			continue
		}
		fv.NvmlReturn, fv.ValueType = uint32(nvml.SUCCESS), uint32(nvml.VALUE_TYPE_UNSIGNED_INT)
		binary.LittleEndian.PutUint32(fv.Value[:], uint32(math.Round(g.MemTemp.V)))
	}
	return nvml.SUCCESS
}
