package importer

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

func TestSMICSVH100(t *testing.T) {
	snaps, warns, f := load(t, "smi_query_h100.csv")
	if f != SMICSV {
		t.Fatalf("format %q", f)
	}
	// 3 whole ticks of 2 GPUs; the torn last row is dropped with a warning.
	if got := gpuCounts(snaps); !equalInts(got, []int{2, 2, 2}) {
		t.Fatalf("GPUs per tick = %v, want [2 2 2]", got)
	}
	s := snaps[0]
	if want := time.Date(2024, 5, 1, 12, 0, 0, 123e6, time.UTC); !s.Time.Equal(want) {
		t.Errorf("time %v, want %v", s.Time, want)
	}
	if s.Node.Source != "nvidia-smi-csv" || s.Host != nil || s.Seq != 1 {
		t.Errorf("node %+v host %v seq %d", s.Node, s.Host, s.Seq)
	}
	g := s.GPUs[0]
	if g.Index != 0 || g.Name != "NVIDIA H100 80GB HBM3" || g.BusID != "00000000:18:00.0" || !strings.HasPrefix(g.UUID, "GPU-5a0b") {
		t.Errorf("identity %+v", g)
	}
	wantMetric(t, "util", g.Util, 97)
	wantMetric(t, "mem_util", g.MemUtil, 41)
	wantMetric(t, "mem_used", g.MemUsed, 61234*(1<<20))
	wantMetric(t, "mem_total", g.MemTotal, 81559*(1<<20))
	wantMetric(t, "temp", g.Temp, 62)
	wantMetric(t, "power", g.Power, 612.45)
	wantMetric(t, "power_limit", g.PowerLimit, 700)
	wantMetric(t, "sm_clock", g.SMClock, 1980)
	wantMetric(t, "mem_clock", g.MemClock, 2619)
	wantMetric(t, "pstate", g.PState, 0)
	wantNA(t, "fan", g.Fan)
	if !g.ClockEvents.OK || g.ClockEvents.Mask != sampler.ClockSwPowerCap {
		t.Errorf("clock events %+v, want sw_power_cap", g.ClockEvents)
	}
	if g1 := s.GPUs[1]; g1.Index != 1 || g1.ClockEvents.Mask != sampler.ClockGpuIdle {
		t.Errorf("gpu 1 %+v", g1)
	}
	// After the repeated header: [Unknown Error] is n/a, not a failure.
	wantNA(t, "util after restart", snaps[2].GPUs[0].Util)
	wantMetric(t, "util gpu1 after restart", snaps[2].GPUs[1].Util, 88)
	w := joined(warns)
	for _, want := range []string{"encoder.stats.sessioncount", "torn last line"} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
	if strings.Contains(w, "different header") {
		t.Errorf("an identical repeated header was reported:\n%s", w)
	}
}

func TestSMICSVT4(t *testing.T) {
	snaps, _, _ := load(t, "smi_query_t4_nounits.csv")
	if got := gpuCounts(snaps); !equalInts(got, []int{1, 1, 1}) {
		t.Fatalf("GPUs per tick = %v", got)
	}
	g := snaps[0].GPUs[0]
	wantMetric(t, "util", g.Util, 100)
	wantMetric(t, "mem_total (used+free)", g.MemTotal, 14910*(1<<20))
	wantMetric(t, "power_limit", g.PowerLimit, 70)
	wantMetric(t, "sm_clock", g.SMClock, 1260)
	wantMetric(t, "sm_clock_max", g.SMClockMax, 1590)
	wantMetric(t, "pcie_gen", g.PCIeGen, 3)
	wantMetric(t, "pcie_width", g.PCIeWidth, 16)
	wantMetric(t, "ecc_uncorrected", g.ECCUncorrected, 0)
	if !g.ClockEvents.OK || g.ClockEvents.Mask != sampler.ClockSwPowerCap {
		t.Errorf("clock events %+v", g.ClockEvents)
	}
	last := snaps[2].GPUs[0]
	wantNA(t, "power [Not Supported]", last.Power)
	wantNA(t, "ecc [N/A]", last.ECCUncorrected)
	if last.ClockEvents.Mask != 0 || !last.ClockEvents.OK {
		t.Errorf("clock events %+v, want none", last.ClockEvents)
	}
	if d := snaps[1].Time.Sub(snaps[0].Time); d != 500*time.Millisecond {
		t.Errorf("-lms 500 spacing %v", d)
	}
}

func TestSMICSVNoHeader(t *testing.T) {
	snaps, warns, _ := load(t, "smi_query_noheader.csv")
	if got := gpuCounts(snaps); !equalInts(got, []int{2, 2}) {
		t.Fatalf("GPUs per tick = %v", got)
	}
	wantMetric(t, "util", snaps[1].GPUs[1].Util, 12)
	wantMetric(t, "mem_used", snaps[1].GPUs[1].MemUsed, 2048*(1<<20))
	w := joined(warns)
	if !strings.Contains(w, "no header") || !strings.Contains(w, "no timestamps") {
		t.Errorf("warnings: %s", w)
	}
	if !snaps[0].Time.Equal(fixedStart) || !snaps[1].Time.Equal(fixedStart.Add(time.Second)) {
		t.Errorf("synthesized times %v %v", snaps[0].Time, snaps[1].Time)
	}
}

func TestSMICSVErrors(t *testing.T) {
	cases := map[string]string{
		// Not the one header-less layout accepted: ask for the header.
		"0, 97 %, 16384 MiB, 40960 MiB\n0, NVIDIA H100, 97 %, 1\n": "",
		"index, utilization.gpu [%]\n0, 97 %\nfoo, 1 %\n":          "",
		"index, utilization.gpu [%]\nfoo, 1 %\nbar, 2 %\n":         "no readable rows; first problem: line 2: index \"foo\"",
	}
	for in, want := range cases {
		snaps, warns, err := readString(in)
		if want == "" {
			if err != nil || len(snaps) == 0 {
				t.Errorf("%q: %d snaps, err %v; want the good rows read", in, len(snaps), err)
			}
			if len(warns) == 0 {
				t.Errorf("%q: no warning about the bad row", in)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", in, err, want)
		}
	}
	_, _, err := readString("0, NVIDIA H100, 97 %, 1\n")
	if err == nil || !strings.Contains(err.Error(), "keep the header") {
		t.Errorf("header-less unknown layout: %v", err)
	}
}

func TestSMICSVGroupsByUUIDWithoutIndex(t *testing.T) {
	in := "timestamp, uuid, utilization.gpu [%]\n" +
		"2024/05/01 12:00:00.000, GPU-a, 1 %\n2024/05/01 12:00:00.001, GPU-b, 2 %\n" +
		"2024/05/01 12:00:01.000, GPU-a, 3 %\n2024/05/01 12:00:01.001, GPU-b, 4 %\n"
	snaps, _, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := gpuCounts(snaps); !equalInts(got, []int{2, 2}) {
		t.Fatalf("GPUs per tick = %v", got)
	}
	if g := snaps[1].GPUs[1]; g.Index != 1 || g.UUID != "GPU-b" || g.Util.V != 4 {
		t.Errorf("gpu %+v", g)
	}
}

func TestSMICSVPowerSpellings(t *testing.T) {
	in := "index, power.draw.instant [W], power.draw.average [W], power.limit [W], enforced.power.limit [W]\n" +
		"0, 310.25 W, [N/A], 700.00 W, 650.00 W\n" +
		"1, 100.00 W, 90.00 W, 700.00 W, [N/A]\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 {
		t.Fatalf("%v %d", err, len(snaps))
	}
	wantMetric(t, "gpu0 power: instant when average is n/a", snaps[0].GPUs[0].Power, 310.25)
	wantMetric(t, "gpu0 limit: enforced", snaps[0].GPUs[0].PowerLimit, 650)
	wantMetric(t, "gpu1 power: average beats instant", snaps[0].GPUs[1].Power, 90)
	wantMetric(t, "gpu1 limit: power.limit when enforced n/a", snaps[0].GPUs[1].PowerLimit, 700)
}

func TestSMICSVHeaderChanges(t *testing.T) {
	in := "index, utilization.gpu [%]\n0, 50 %\n" +
		"index, temperature.gpu, utilization.gpu [%]\n0, 40, 60 %\n"
	snaps, warns, err := readString(in)
	if err != nil || len(snaps) != 2 {
		t.Fatalf("%v %d", err, len(snaps))
	}
	wantMetric(t, "util after the new header", snaps[1].GPUs[0].Util, 60)
	wantMetric(t, "temp after the new header", snaps[1].GPUs[0].Temp, 40)
	if !strings.Contains(joined(warns), "line 3: a different header") {
		t.Errorf("warnings %v", warns)
	}
}
