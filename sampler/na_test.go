package sampler

import (
	"reflect"
	"strings"
	"testing"
)

// Every NA key constant is the JSON name of a GPU field, except the two
// readings without a field.
func TestNAKeysAreJSONNames(t *testing.T) {
	tags := map[string]bool{}
	typ := reflect.TypeFor[GPU]()
	for i := range typ.NumField() {
		tags[strings.Split(typ.Field(i).Tag.Get("json"), ",")[0]] = true
	}
	for _, k := range []string{
		NAArch, NABusID, NAClockEvents, NAComputeMode, NACPUAffinity, NADecUtil, NADRAMActive, NAECCCorrected, NAECCUncorrected, NAEncUtil, NAFan, NAMemClock, NAMemClockMax, NAMemTotal, NAMemUsed, NAMemUtil, NAMIG, NAMIGDevices, NAName, NANUMANode, NANVLinkRx, NANVLinkTx, NANVLinks, NAPCIeGen, NAPCIeGenMax, NAPCIeReplays, NAPCIeRx, NAPCIeTx, NAPCIeWidth, NAPCIeWidthMax, NAPersistence, NAPower, NAPowerLimit, NAProcs, NAPState, NARemappedRows, NASMActive, NASMClock, NASMClockMax, NASMOccupancy, NATemp, NATempSlowdown, NATensorActive, NAUtil, NAUUID,
	} {
		if !tags[k] {
			t.Errorf("NA key %q is no GPU field's JSON name", k)
		}
	}
}
