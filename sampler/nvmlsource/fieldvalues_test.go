package nvmlsource

import (
	"encoding/binary"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

// A driver without the energy counter (before Volta's R4xx) leaves energy
// n/a with its reason; the other readings go on.
func TestOldDriverNoEnergy(t *testing.T) {
	_, box, src := oldFake(t, 2, "390.157", "nvmlDeviceGetTotalEnergyConsumption")
	gpus, truth, _ := run(box, src, 2)
	if gpus[0].Energy.OK || gpus[0].NA[sampler.NAEnergy] != reasonNotInDriver {
		t.Errorf("energy %+v (%q), want n/a: %q", gpus[0].Energy, gpus[0].NA[sampler.NAEnergy], reasonNotInDriver)
	}
	if gpus[0].MemTemp != truth[0].MemTemp || gpus[0].Power != truth[0].Power {
		t.Errorf("memory temperature %+v, power %+v; want %+v, %+v", gpus[0].MemTemp, gpus[0].Power, truth[0].MemTemp, truth[0].Power)
	}
}

// A GPU without a memory sensor answers NOT_SUPPORTED inside the field
// value, not from the call: that is data (n/a, "not supported"), and the
// call is not repeated on later ticks.
func TestMemTempNotSupportedInTheField(t *testing.T) {
	f, box, src := newFake(t, 2, "", nil, nil)
	for k := range 3 {
		truth := varied(fakenvml.BaseTruth(2, ""), k)
		truth[1].MemTemp = sampler.NA
		truth[1].NA[sampler.NAMemTemp] = reasonNotSupported
		box.set(truth)
		gpus, problems := src.Sample(tickTime(k))
		if len(problems) > 0 {
			t.Fatalf("tick %d: %q", k, problems)
		}
		if gpus[1].MemTemp.OK || gpus[1].NA[sampler.NAMemTemp] != reasonNotSupported {
			t.Errorf("tick %d: GPU 1 memory temperature %+v (%q), want n/a", k, gpus[1].MemTemp, gpus[1].NA[sampler.NAMemTemp])
		}
		if gpus[0].MemTemp != truth[0].MemTemp {
			t.Errorf("tick %d: GPU 0 memory temperature %+v, want %+v", k, gpus[0].MemTemp, truth[0].MemTemp)
		}
	}
	if c := f.Calls(1, "GetFieldValues"); c != 1 {
		t.Errorf("GetFieldValues called %d times on GPU 1, want 1 (cached as not supported)", c)
	}
}

func TestFieldValueDecodesEachType(t *testing.T) {
	val := func(typ nvml.ValueType, put func([]byte)) nvml.FieldValue {
		fv := nvml.FieldValue{ValueType: uint32(typ)}
		put(fv.Value[:])
		return fv
	}
	for _, c := range []struct {
		fv   nvml.FieldValue
		want float64
		ok   bool
	}{
		{val(nvml.VALUE_TYPE_UNSIGNED_INT, func(b []byte) { binary.LittleEndian.PutUint32(b, 71) }), 71, true},
		{val(nvml.VALUE_TYPE_UNSIGNED_LONG_LONG, func(b []byte) { binary.LittleEndian.PutUint64(b, 1<<40) }), 1 << 40, true},
		{val(nvml.VALUE_TYPE_SIGNED_INT, func(b []byte) { binary.LittleEndian.PutUint32(b, uint32(0xFFFFFFFF)) }), -1, true},
		{val(nvml.VALUE_TYPE_UNSIGNED_SHORT, func(b []byte) { binary.LittleEndian.PutUint16(b, 9) }), 9, true},
		{val(nvml.VALUE_TYPE_DOUBLE, func([]byte) {}), 0, false},
	} {
		if v, ok := fieldValue(c.fv); v != c.want || ok != c.ok {
			t.Errorf("type %d: %v %v, want %v %v", c.fv.ValueType, v, ok, c.want, c.ok)
		}
	}
}
