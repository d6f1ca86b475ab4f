package nvmlsource

import (
	"encoding/binary"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// maxMemTemp: DCGM discards a memory temperature above 200 °C as a bad
// reading (DcgmCacheManager, DCGM_FI_DEV_MEMORY_TEMP); so does gpuscope.
const maxMemTemp = 200

// readEnergy reads the board's energy counter (Volta and newer; mJ in NVML,
// joules in the snapshot).
func readEnergy(g *gpuReader, out *sampler.GPU) {
	read(g, cEnergy, g.dev.GetTotalEnergyConsumption, func(mJ uint64) { out.Energy = sampler.Some(float64(mJ) / 1000) })
}

// readMemTemp reads the memory temperature, which NVML offers only as a
// field value (NVML_FI_DEV_MEMORY_TEMP), as DCGM reads it. A GPU without a
// memory sensor answers NOT_SUPPORTED in the field's own return code.
func readMemTemp(g *gpuReader, out *sampler.GPU) {
	if !g.want(cMemTemp) {
		return
	}
	fv := []nvml.FieldValue{{FieldId: nvml.FI_DEV_MEMORY_TEMP}}
	if !g.ok(cMemTemp, g.dev.GetFieldValues(fv)) || !g.ok(cMemTemp, nvml.Return(fv[0].NvmlReturn)) {
		return
	}
	if v, ok := fieldValue(fv[0]); ok && v >= 0 && v <= maxMemTemp {
		out.MemTemp = sampler.Some(v)
	} else {
		g.note(cMemTemp, "reading out of range")
	}
}

// fieldValue decodes the union of a field value (nvmlValue_t, little
// endian as every platform NVML runs on) by its type.
func fieldValue(fv nvml.FieldValue) (float64, bool) {
	b := fv.Value[:]
	switch nvml.ValueType(fv.ValueType) {
	case nvml.VALUE_TYPE_UNSIGNED_INT:
		return float64(binary.LittleEndian.Uint32(b)), true
	case nvml.VALUE_TYPE_UNSIGNED_LONG, nvml.VALUE_TYPE_UNSIGNED_LONG_LONG:
		return float64(binary.LittleEndian.Uint64(b)), true
	case nvml.VALUE_TYPE_SIGNED_INT:
		return float64(int32(binary.LittleEndian.Uint32(b))), true
	case nvml.VALUE_TYPE_SIGNED_LONG_LONG:
		return float64(int64(binary.LittleEndian.Uint64(b))), true
	case nvml.VALUE_TYPE_UNSIGNED_SHORT:
		return float64(binary.LittleEndian.Uint16(b)), true
	}
	return 0, false // a double or an unknown type: not a reading gpuscope asks for
}
