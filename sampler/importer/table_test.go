package importer

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

func TestDmonA100(t *testing.T) {
	snaps, warns, f := load(t, "dmon_a100.txt")
	if f != SMIDmon {
		t.Fatalf("format %q", f)
	}
	// Repeated header lines are skipped: 3 ticks of 2 GPUs.
	if got := gpuCounts(snaps); !equalInts(got, []int{2, 2, 2}) {
		t.Fatalf("GPUs per tick = %v", got)
	}
	g := snaps[0].GPUs[0]
	wantMetric(t, "power", g.Power, 287)
	wantMetric(t, "temp", g.Temp, 61)
	wantMetric(t, "util (dmon sm)", g.Util, 98)
	wantMetric(t, "mem_util", g.MemUtil, 53)
	wantMetric(t, "mem_clock", g.MemClock, 1593)
	wantMetric(t, "sm_clock", g.SMClock, 1410)
	wantMetric(t, "mem_used", g.MemUsed, 39533*(1<<20))
	wantMetric(t, "pcie_rx", g.PCIeRx, 310*(1<<20))
	wantMetric(t, "pcie_tx", g.PCIeTx, 45*(1<<20))
	wantMetric(t, "pcie replays", g.PCIeReplays, 0)
	if !g.ClockEvents.Has(sampler.ClockSwPowerCap) {
		t.Errorf("pviol 12%% should mark a power cap: %+v", g.ClockEvents)
	}
	if snaps[2].GPUs[0].ClockEvents.Throttled() {
		t.Errorf("pviol 0 marked a throttle")
	}
	wantNA(t, "'-' sm", snaps[1].GPUs[1].Util)
	if !strings.Contains(joined(warns), "no timestamps") {
		t.Errorf("no warning about synthesized times: %v", warns)
	}
	if d := snaps[2].Time.Sub(snaps[0].Time); d != 2*time.Second {
		t.Errorf("synthesized spacing %v", d)
	}
}

func TestDmonDateTime(t *testing.T) {
	snaps, warns, _ := load(t, "dmon_dt_h100.txt")
	if got := gpuCounts(snaps); !equalInts(got, []int{2, 2}) {
		t.Fatalf("GPUs per tick = %v (rows of one tick may straddle a second)", got)
	}
	if want := time.Date(2024, 5, 1, 23, 59, 59, 0, time.UTC); !snaps[0].Time.Equal(want) {
		t.Errorf("time %v", snaps[0].Time)
	}
	if want := time.Date(2024, 5, 2, 0, 0, 0, 0, time.UTC); !snaps[1].Time.Equal(want) {
		t.Errorf("time %v", snaps[1].Time)
	}
	wantMetric(t, "power", snaps[1].GPUs[0].Power, 630)
	if strings.Contains(joined(warns), "no timestamps") {
		t.Errorf("warned about timestamps with -o DT: %v", warns)
	}
}

func TestDmonCSV(t *testing.T) {
	snaps, _, f := load(t, "dmon_csv.txt")
	if f != SMIDmon || len(snaps) != 2 || len(snaps[0].GPUs) != 1 {
		t.Fatalf("format %q, %d snaps", f, len(snaps))
	}
	wantMetric(t, "mem_used", snaps[1].GPUs[0].MemUsed, 61234*(1<<20))
	wantMetric(t, "util", snaps[1].GPUs[0].Util, 98)
}

func TestPmon(t *testing.T) {
	snaps, _, f := load(t, "pmon_dt.txt")
	if f != SMIPmon {
		t.Fatalf("format %q", f)
	}
	if got := gpuCounts(snaps); !equalInts(got, []int{2, 2}) {
		t.Fatalf("GPUs per tick = %v", got)
	}
	g0 := snaps[0].GPUs[0]
	if len(g0.Procs) != 2 || g0.Procs[0].PID != 48213 || g0.Procs[0].Type != "C" {
		t.Fatalf("gpu 0 procs %+v", g0.Procs)
	}
	wantMetric(t, "proc sm", g0.Procs[0].SMUtil, 95)
	wantMetric(t, "proc mem", g0.Procs[0].MemUtil, 40)
	wantMetric(t, "proc fb", g0.Procs[0].MemUsed, 30720*(1<<20))
	wantNA(t, "gpu util (pmon has none)", g0.Util)
	if len(snaps[0].GPUs[1].Procs) != 0 {
		t.Errorf("idle GPU got procs %+v", snaps[0].GPUs[1].Procs)
	}
	p := snaps[1].GPUs[1].Procs
	if len(p) != 1 || p[0].Host == nil || p[0].Host.Name != "torchrun worker" {
		t.Errorf("command with a space: %+v", p)
	}

	snaps, _, _ = load(t, "pmon_plain.txt")
	if got := gpuCounts(snaps); !equalInts(got, []int{2, 2}) {
		t.Fatalf("plain pmon GPUs per tick = %v", got)
	}
	wantMetric(t, "tick 2 gpu 1 proc sm", snaps[1].GPUs[1].Procs[0].SMUtil, 12)
}

func TestDCGMI(t *testing.T) {
	snaps, warns, f := load(t, "dcgmi_dmon.txt")
	if f != DCGMIDmon {
		t.Fatalf("format %q", f)
	}
	if got := gpuCounts(snaps); !equalInts(got, []int{2, 2}) {
		t.Fatalf("GPUs per tick = %v", got)
	}
	g := snaps[0].GPUs[0]
	wantMetric(t, "util", g.Util, 97)
	wantMetric(t, "power", g.Power, 612.45)
	wantMetric(t, "temp", g.Temp, 62)
	wantMetric(t, "mem_used", g.MemUsed, 61234*(1<<20))
	wantMetric(t, "sm_active (ratio → %)", g.SMActive, 81.2)
	wantMetric(t, "sm_occupancy", g.SMOccupancy, 34.5)
	wantMetric(t, "tensor", g.TensorActive, 41.2)
	wantMetric(t, "dram", g.DRAMActive, 53)
	wantMetric(t, "pcie_tx", g.PCIeTx, 123456789)
	wantMetric(t, "nvlink_rx", g.NVLinkRx, 4.9e9)
	wantNA(t, "N/A smact", snaps[1].GPUs[1].SMActive)
	wantMetric(t, "power beside N/A", snaps[1].GPUs[1].Power, 70.8)
	if !strings.Contains(joined(warns), "no timestamps") {
		t.Errorf("warnings %v", warns)
	}

	snaps, _, _ = load(t, "dcgmi_numeric.txt")
	if len(snaps) != 2 {
		t.Fatalf("numeric ids: %d snaps", len(snaps))
	}
	wantMetric(t, "numeric 1002", snaps[1].GPUs[0].SMActive, 60)
	wantMetric(t, "numeric 203", snaps[1].GPUs[0].Util, 90)
}

func TestTableErrors(t *testing.T) {
	for in, want := range map[string]string{
		"# gpu pwr sm\n# Idx W %\nx 1 2\ny 3 4\n":        "no readable rows; first problem: line 3: gpu \"x\"",
		"#Entity POWER\nID\nGPU zero 30\n":               "GPU id \"zero\"",
		"#Entity POWER\nID\nGPU 0 30\nGPU-I 0 4\n":       "",
		"# gpu pwr sm\n# Idx W %\n0 1 2\n0 1\n1 2 3 4\n": "",
	} {
		snaps, warns, err := readString(in)
		if want == "" {
			if err != nil || len(snaps) == 0 || len(warns) == 0 {
				t.Errorf("%q: %d snaps, warnings %v, err %v; want good rows read and a warning", in, len(snaps), warns, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", in, err, want)
		}
	}
}

func TestDCGMIHealthFields(t *testing.T) {
	in := "#Entity   DVCCTR   PMLMT    EPLMT    TXTPT   PSTAT\nID\nGPU 3     4        700.0    650.0    2048    0\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 {
		t.Fatalf("%v %d", err, len(snaps))
	}
	g := snaps[0].GPUs[0]
	if g.Index != 3 || !g.ClockEvents.OK || g.ClockEvents.Mask != sampler.ClockSwPowerCap {
		t.Errorf("gpu %d events %+v", g.Index, g.ClockEvents)
	}
	wantMetric(t, "enforced limit wins over PMLMT", g.PowerLimit, 650)
	wantMetric(t, "TXTPT KB/s", g.PCIeTx, 2048*1024)
	wantMetric(t, "pstate", g.PState, 0)
}

func TestDmonTimeOnlyCrossesMidnight(t *testing.T) {
	in := "#Time        gpu    pwr     sm\n#HH:MM:SS    Idx      W      %\n" +
		" 23:59:59      0     70     10\n 00:00:00      0     71     11\n"
	s, _, err := NewStream(strings.NewReader(in), "t", Options{Start: time.Date(2024, 5, 1, 23, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	a, err1 := s.Next()
	b, err2 := s.Next()
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if want := time.Date(2024, 5, 1, 23, 59, 59, 0, time.UTC); !a.Time.Equal(want) {
		t.Errorf("first %v", a.Time)
	}
	if want := time.Date(2024, 5, 2, 0, 0, 0, 0, time.UTC); !b.Time.Equal(want) {
		t.Errorf("after midnight %v", b.Time)
	}
	if !strings.Contains(joined(s.Warnings()), "times but no dates") {
		t.Errorf("warnings %v", s.Warnings())
	}
}
