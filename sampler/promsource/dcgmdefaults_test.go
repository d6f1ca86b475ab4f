package promsource

import (
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

// dcgm-exporter's default counters read back in the snapshot's units: mJ to
// J, the reserve counted into the total it has no series for, and rows
// remapped by cause summed for the diagnosis.
func TestHistoryFromDCGMDefaults(t *testing.T) {
	h := newHistoryBuilder(t0, 15*time.Second)
	series := map[string]float64{
		"DCGM_FI_DEV_FB_USED": 1024, "DCGM_FI_DEV_FB_FREE": 3000, "DCGM_FI_DEV_FB_RESERVED": 72,
		"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": 5_000_000, "DCGM_FI_DEV_MEMORY_TEMP": 48,
		"DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS": 2, "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS": 1,
		"DCGM_FI_PROF_GR_ENGINE_ACTIVE": 0.75,
	}
	for name, v := range series {
		labels := map[string]string{"__name__": name, "job": "dcgm", "instance": "i", "gpu": "0", "Hostname": "n"}
		h.gpuSeries(fieldIndex(t, name), stream(labels, t0, 15*time.Second, v))
	}
	g := h.snapshots()[fleetsnap.NodeKey{Job: "dcgm", Instance: "i"}][0].GPUs[0]
	if g.Energy.V != 5000 || g.MemTemp.V != 48 || g.GRActive.V != 75 {
		t.Errorf("energy %v J, memory %v °C, GR %v %%; want 5000, 48, 75", g.Energy, g.MemTemp, g.GRActive)
	}
	if g.MemReserved.V != 72<<20 || g.MemTotal.V != 4096<<20 {
		t.Errorf("reserved %v, total %v; want 72 MiB and 4096 MiB", g.MemReserved, g.MemTotal)
	}
	if g.RemappedCorrectable.V != 2 || g.RemappedUncorrectable.V != 1 || g.RemappedRows.V != 3 {
		t.Errorf("remapped %v + %v = %v, want 2 + 1 = 3", g.RemappedCorrectable, g.RemappedUncorrectable, g.RemappedRows)
	}
}
