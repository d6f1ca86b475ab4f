package importer

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

func TestSMIXMLH100(t *testing.T) {
	snaps, warns, f := load(t, "smi_q_h100.xml")
	if f != SMIXML || len(snaps) != 1 {
		t.Fatalf("format %q, %d snaps", f, len(snaps))
	}
	s := snaps[0]
	if s.Node.Driver != "550.54.15" || s.Node.CUDA != "12.4" || s.Node.Source != "nvidia-smi-xml" {
		t.Errorf("node %+v", s.Node)
	}
	if want := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC); !s.Time.Equal(want) {
		t.Errorf("time %v", s.Time)
	}
	if len(s.GPUs) != 2 {
		t.Fatalf("%d GPUs", len(s.GPUs))
	}
	g := s.GPUs[0]
	if g.Index != 0 || g.Name != "NVIDIA H100 80GB HBM3" || g.BusID != "00000000:18:00.0" || g.Persistence != "on" || g.ComputeMode != "default" || g.MIG {
		t.Errorf("identity %+v", g)
	}
	wantMetric(t, "util", g.Util, 97)
	wantMetric(t, "mem_used", g.MemUsed, 61234*(1<<20))
	wantMetric(t, "temp", g.Temp, 62)
	wantMetric(t, "temp_slowdown", g.TempSlowdown, 89)
	wantMetric(t, "power (average)", g.Power, 598.17)
	wantMetric(t, "power_limit", g.PowerLimit, 700)
	wantMetric(t, "sm_clock", g.SMClock, 1980)
	wantMetric(t, "mem_clock_max", g.MemClockMax, 2619)
	wantMetric(t, "pcie_width", g.PCIeWidth, 16)
	wantMetric(t, "pcie_gen_max", g.PCIeGenMax, 5)
	wantMetric(t, "pcie_tx", g.PCIeTx, 20480*1024)
	wantMetric(t, "ecc corrected (sram+dram)", g.ECCCorrected, 2)
	wantNA(t, "fan", g.Fan)
	if g.ClockEvents.Mask != sampler.ClockSwPowerCap || !g.ClockEvents.OK {
		t.Errorf("events %+v", g.ClockEvents)
	}
	if len(g.Procs) != 1 || g.Procs[0].PID != 48213 || g.Procs[0].Host.Name != "/usr/bin/python3" {
		t.Errorf("procs %+v", g.Procs)
	}
	wantMetric(t, "proc mem", g.Procs[0].MemUsed, 61200*(1<<20))
	g1 := s.GPUs[1]
	wantMetric(t, "gpu1 power (instant when average N/A)", g1.Power, 71.12)
	wantMetric(t, "gpu1 replays", g1.PCIeReplays, 3)
	wantNA(t, "gpu1 pcie_tx N/A", g1.PCIeTx)
	if g1.ClockEvents.Mask != sampler.ClockGpuIdle || len(g1.Procs) != 0 {
		t.Errorf("gpu1 %+v", g1)
	}
	if len(warns) != 0 {
		t.Errorf("warnings on a clean file: %v", warns)
	}
}

func TestSMIXMLOldDriverLoopCutOff(t *testing.T) {
	snaps, warns, _ := load(t, "smi_q_a100_old_loop.xml")
	if len(snaps) != 2 {
		t.Fatalf("%d snaps, want 2 whole documents", len(snaps))
	}
	g := snaps[0].GPUs[0]
	if !g.ClockEvents.Has(sampler.ClockHwSlowdown) || !g.ClockEvents.Has(sampler.ClockHwThermal) || g.ClockEvents.Has(sampler.ClockSwPowerCap) {
		t.Errorf("throttle reasons %+v", g.ClockEvents)
	}
	wantMetric(t, "power (power_readings)", g.Power, 398.31)
	wantMetric(t, "enforced limit", g.PowerLimit, 400)
	wantMetric(t, "width x8", g.PCIeWidth, 8)
	wantMetric(t, "ecc single bit", g.ECCCorrected, 1)
	wantMetric(t, "ecc double bit", g.ECCUncorrected, 0)
	if snaps[1].Time.Sub(snaps[0].Time) != 5*time.Second || snaps[1].Seq != 2 {
		t.Errorf("second document at %v seq %d", snaps[1].Time, snaps[1].Seq)
	}
	wantMetric(t, "doc 2 util", snaps[1].GPUs[0].Util, 98)
	if !strings.Contains(joined(warns), "cut off") {
		t.Errorf("no warning about the cut document: %v", warns)
	}
}

func TestSMIXMLGarbage(t *testing.T) {
	snaps, warns, err := readString("<nvidia_smi_log><gpu><utilization><gpu_util>9 %</gpu_util></utilization></gpu><gpu><uti")
	if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 1 || !strings.Contains(joined(warns), "read the 1 GPU before the cut") {
		t.Fatalf("a cut single document with a whole GPU should still be read: %v %v", err, warns)
	}
	_, _, err = readString("<nvidia_smi_log><gpu id='x'><<<>>")
	if err == nil || !strings.Contains(err.Error(), "want nvidia-smi -q -x output") {
		t.Errorf("err %v", err)
	}
}
