package promsource

import (
	"context"
	"fmt"
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

// The fleet's energy is the counter's rise over the last hour, per GPU and
// per node, in kWh.
func TestFleetEnergyLastHour(t *testing.T) {
	probe, _ := New(Config{URL: "http://x"})
	inv := probe.inventory(fmt.Sprintf("last_over_time(%s[1h])", probe.names(utilNames)))
	s := fakeAPI(t, false, map[string]string{
		inv: `{"status":"success","data":{"resultType":"vector","result":[` +
			`{"metric":{"job":"gpu","instance":"a:9400","gpu":"0","Hostname":"a"},"value":[1700000000,"50"]},` +
			`{"metric":{"job":"gpu","instance":"a:9400","gpu":"1","Hostname":"a"},"value":[1700000000,"50"]}]}}`,
		probe.sel("up"): `{"status":"success","data":{"resultType":"vector","result":[` +
			`{"metric":{"job":"gpu","instance":"a:9400"},"value":[1700000000,"1"]}]}}`,
		probe.energyLastHour(): `{"status":"success","data":{"resultType":"vector","result":[` +
			`{"metric":{"job":"gpu","instance":"a:9400","gpu":"0"},"value":[1700000000,"2160000"]}]}}`,
	})
	f, err := s.Fleet(context.Background(), time.Unix(1700000000, 0), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Nodes) != 1 || len(f.Nodes[0].GPUs) != 2 {
		t.Fatalf("nodes %+v", f.Nodes)
	}
	n := f.Nodes[0]
	if n.GPUs[0].EnergyKWh.V != 0.6 || n.GPUs[1].EnergyKWh.OK || n.EnergyKWh != 0.6 {
		t.Errorf("GPU energy %v, %v; node %v; want 0.6 kWh, n/a, 0.6 kWh", n.GPUs[0].EnergyKWh, n.GPUs[1].EnergyKWh, n.EnergyKWh)
	}
}
