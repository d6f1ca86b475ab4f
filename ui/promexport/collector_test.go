package promexport

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuscope/gpuscope/sampler"
)

func registry(t *testing.T, st *State, opts Options) *prometheus.Registry {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	if err := reg.Register(NewCollector(st, opts)); err != nil {
		t.Fatal(err)
	}
	return reg
}

func published(snap sampler.Snapshot) *State {
	st := NewState()
	st.Publish(snap, testFindings(snap.Time))
	return st
}

// The own set is what promlint (promtool's linter) accepts without a word.
func TestOwnSetIsLintClean(t *testing.T) {
	reg := registry(t, published(testNode(2, 2)), Options{Own: true, Version: "test"})
	problems, err := testutil.GatherAndLint(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
}

// The dcgm set keeps dcgm-exporter's spelling, which promlint faults in
// exactly three ways (dcgm-exporter's own output does too): the camelCase
// label modelName, and counters without _total / with "counter" in a name.
func TestDCGMSetLintProblemsAreDCGMExportersOwn(t *testing.T) {
	reg := registry(t, published(testNode(2, 2)), Options{DCGM: true})
	problems, err := testutil.GatherAndLint(reg)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) == 0 {
		t.Fatal("no lint problems: has the modelName label gone? dashboards for dcgm-exporter need it")
	}
	for _, p := range problems {
		if !strings.Contains(p.Text, "camelCase") && !strings.Contains(p.Text, `"_total" suffix`) &&
			!strings.Contains(p.Text, "should not include type 'counter'") {
			t.Errorf("%s: %s", p.Metric, p.Text)
		}
	}
}

// Units and labels as dcgm-exporter writes them: MiB, MHz, percent for
// DEV_* utilisation, ratio for PROF_*.
func TestDCGMValuesAndLabels(t *testing.T) {
	st := published(testNode(1, 1))
	reg := registry(t, st, Options{DCGM: true})
	labels := `{DCGM_FI_DRIVER_VERSION="560.35.03",Hostname="node-a",UUID="GPU-00000000-aaaa-bbbb-cccc-000000000000",device="nvidia0",gpu="0",modelName="NVIDIA H200",pci_bus_id="00000000:18:00.0"}`
	want := `
# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).
# TYPE DCGM_FI_DEV_FB_USED gauge
DCGM_FI_DEV_FB_USED` + labels + ` 65536
# HELP DCGM_FI_DEV_FB_FREE Framebuffer memory free (in MiB).
# TYPE DCGM_FI_DEV_FB_FREE gauge
DCGM_FI_DEV_FB_FREE` + labels + ` 78272
# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).
# TYPE DCGM_FI_DEV_GPU_UTIL gauge
DCGM_FI_DEV_GPU_UTIL` + labels + ` 90
# HELP DCGM_FI_DEV_SM_CLOCK SM clock frequency (in MHz).
# TYPE DCGM_FI_DEV_SM_CLOCK gauge
DCGM_FI_DEV_SM_CLOCK` + labels + ` 1980
# HELP DCGM_FI_PROF_SM_ACTIVE The ratio of cycles an SM has at least 1 warp assigned.
# TYPE DCGM_FI_PROF_SM_ACTIVE gauge
DCGM_FI_PROF_SM_ACTIVE` + labels + ` 0.8
# HELP DCGM_FI_DEV_CLOCKS_EVENT_REASONS Current clock event reasons (bitmask of nvmlClocksEventReason*).
# TYPE DCGM_FI_DEV_CLOCKS_EVENT_REASONS gauge
DCGM_FI_DEV_CLOCKS_EVENT_REASONS` + labels + ` 4
# HELP DCGM_FI_DEV_PCIE_REPLAY_COUNTER Total number of PCIe retries.
# TYPE DCGM_FI_DEV_PCIE_REPLAY_COUNTER counter
DCGM_FI_DEV_PCIE_REPLAY_COUNTER` + labels + ` 2
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE",
		"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_DEV_CLOCKS_EVENT_REASONS",
		"DCGM_FI_DEV_PCIE_REPLAY_COUNTER"); err != nil {
		t.Error(err)
	}
}

// A reading that is n/a is an absent series, never a zero; a lost GPU has
// no readings at all but says it is lost.
func TestNAIsAbsentAndLostIsSaid(t *testing.T) {
	snap := testNode(2, 0)
	snap.GPUs[0].SMActive = sampler.NA
	snap.GPUs[1].Lost = true
	reg := registry(t, published(snap), Options{DCGM: true, Own: true})
	if n := testutil.CollectAndCount(reg, "DCGM_FI_PROF_SM_ACTIVE", "gpuscope_gpu_sm_active_ratio"); n != 0 {
		t.Errorf("%d SM-active series for a GPU without GPM and a lost GPU, want 0", n)
	}
	if n := testutil.CollectAndCount(reg, "DCGM_FI_DEV_GPU_UTIL"); n != 1 {
		t.Errorf("%d GPU_UTIL series, want 1 (the lost GPU has none)", n)
	}
	want := `
# HELP gpuscope_gpu_lost 1 once the GPU fell off the bus (NVML GPU_IS_LOST).
# TYPE gpuscope_gpu_lost gauge
gpuscope_gpu_lost{gpu="0",hostname="node-a",uuid="GPU-00000000-aaaa-bbbb-cccc-000000000000"} 0
gpuscope_gpu_lost{gpu="1",hostname="node-a",uuid="GPU-00000001-aaaa-bbbb-cccc-000000000000"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "gpuscope_gpu_lost"); err != nil {
		t.Error(err)
	}
}

// Xid events arrive once, in the tick after they happened: the counter adds
// them up across ticks and the dcgm gauge keeps the last code.
func TestXidsAccumulateAcrossTicks(t *testing.T) {
	st := NewState()
	snap := testNode(1, 0)
	snap.GPUs[0].Xids = []sampler.Xid{{Code: 79}, {Code: 48}}
	st.Publish(snap, nil)
	snap = testNode(1, 0)
	st.Publish(snap, nil) // a quiet tick: nothing new, nothing lost
	snap.GPUs[0].Xids = []sampler.Xid{{Code: 31}}
	st.Publish(snap, nil)
	reg := registry(t, st, Options{DCGM: true, Own: true})
	if got := gathered(t, reg, "gpuscope_gpu_xid_errors_total"); got != 3 {
		t.Errorf("xid total %v, want 3", got)
	}
	if got := gathered(t, reg, "DCGM_FI_DEV_XID_ERRORS"); got != 31 {
		t.Errorf("DCGM_FI_DEV_XID_ERRORS %v, want the last code 31", got)
	}
}

// DCGM_FI_DEV_XID_ERRORS carries dcgm-exporter's err_code and err_msg
// labels: "0" and "No Error" before any Xid, then the last code and what it
// means.
func TestXidErrorLabels(t *testing.T) {
	st := published(testNode(1, 0))
	base := `DCGM_FI_DRIVER_VERSION="560.35.03",Hostname="node-a",UUID="GPU-00000000-aaaa-bbbb-cccc-000000000000",device="nvidia0",`
	head := "# HELP DCGM_FI_DEV_XID_ERRORS Value of the last XID error encountered.\n# TYPE DCGM_FI_DEV_XID_ERRORS gauge\n"
	for _, c := range []struct {
		xids      []sampler.Xid
		code, msg string
	}{
		{nil, "0", "No Error"},
		{[]sampler.Xid{{Code: 31}}, "31", "GPU memory page fault (MMU fault)"},
		{[]sampler.Xid{{Code: 999}}, "999", "Unknown Error"},
	} {
		snap := testNode(1, 0)
		snap.GPUs[0].Xids = c.xids
		st.Publish(snap, nil)
		want := head + "DCGM_FI_DEV_XID_ERRORS{" + base + `err_code="` + c.code + `",err_msg="` + c.msg +
			`",gpu="0",modelName="NVIDIA H200",pci_bus_id="00000000:18:00.0"} ` + c.code + "\n"
		if err := testutil.GatherAndCompare(registry(t, st, Options{DCGM: true}), strings.NewReader(want), "DCGM_FI_DEV_XID_ERRORS"); err != nil {
			t.Error(err)
		}
	}
}

func TestFindingsAndProcesses(t *testing.T) {
	st := published(testNode(1, 1))
	reg := registry(t, st, Options{Own: true})
	want := `
# HELP gpuscope_finding 1 while a diagnosis finding is open; gpu -1 is the whole node, pid 0 no single process.
# TYPE gpuscope_finding gauge
gpuscope_finding{gpu="-1",hostname="node-a",pid="0",rule="xid_error",severity="critical"} 1
gpuscope_finding{gpu="0",hostname="node-a",pid="1001",rule="input_starved",severity="warning"} 1
# HELP gpuscope_process_workers_blocked Child processes in uninterruptible sleep (D: waiting on I/O).
# TYPE gpuscope_process_workers_blocked gauge
gpuscope_process_workers_blocked{command="python",container="3f1c9a2b7d4e",container_name="trainer",gpu="0",hostname="node-a",job_pid="",namespace="ml",pid="1001",pod="train-0",pod_uid="6b1b2f9e-8f3c-4d2a-9c1e-0a1b2c3d4e5f",user="alice",uuid="GPU-00000000-aaaa-bbbb-cccc-000000000000"} 1
# HELP gpuscope_process_workers_cpu_usage_ratio CPU the child processes use together, 1 = one core busy.
# TYPE gpuscope_process_workers_cpu_usage_ratio gauge
gpuscope_process_workers_cpu_usage_ratio{command="python",container="3f1c9a2b7d4e",container_name="trainer",gpu="0",hostname="node-a",job_pid="",namespace="ml",pid="1001",pod="train-0",pod_uid="6b1b2f9e-8f3c-4d2a-9c1e-0a1b2c3d4e5f",user="alice",uuid="GPU-00000000-aaaa-bbbb-cccc-000000000000"} 0.6
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "gpuscope_finding",
		"gpuscope_process_workers_blocked", "gpuscope_process_workers_cpu_usage_ratio"); err != nil {
		t.Error(err)
	}
	since := gathered(t, reg, "gpuscope_finding_since_timestamp_seconds")
	if want := float64(testNode(1, 1).Time.Add(-2*time.Minute).Unix() + testNode(1, 1).Time.Add(-time.Minute).Unix()); since != want {
		t.Errorf("finding since sums to %v, want %v", since, want)
	}
}

func TestNothingBeforeTheFirstTick(t *testing.T) {
	reg := registry(t, NewState(), Options{DCGM: true, Own: true})
	if n := testutil.CollectAndCount(reg); n != 0 {
		t.Errorf("%d series before any tick, want none", n)
	}
}

// gathered sums the values of one metric family.
func gathered(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			sum += m.GetGauge().GetValue() + m.GetCounter().GetValue()
		}
	}
	return sum
}

// On Kubernetes the kubelet's answer labels the dcgm set as dcgm-exporter
// does (pod, namespace, container) and gives gpuscope_gpu_pod_info.
func TestPodLabels(t *testing.T) {
	snap := testNode(2, 0)
	snap.GPUs[0].Pod = sampler.Pod{Namespace: "ml", Name: "train-0", Container: "trainer"}
	reg := registry(t, published(snap), Options{DCGM: true, Own: true, Pods: true})
	want := `
# HELP gpuscope_gpu_pod_info 1 per GPU the kubelet allocated to a container.
# TYPE gpuscope_gpu_pod_info gauge
gpuscope_gpu_pod_info{container="trainer",gpu="0",hostname="node-a",namespace="ml",pod="train-0",uuid="GPU-00000000-aaaa-bbbb-cccc-000000000000"} 1
# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).
# TYPE DCGM_FI_DEV_GPU_UTIL gauge
DCGM_FI_DEV_GPU_UTIL{DCGM_FI_DRIVER_VERSION="560.35.03",Hostname="node-a",UUID="GPU-00000000-aaaa-bbbb-cccc-000000000000",container="trainer",device="nvidia0",gpu="0",modelName="NVIDIA H200",namespace="ml",pci_bus_id="00000000:18:00.0",pod="train-0"} 90
DCGM_FI_DEV_GPU_UTIL{DCGM_FI_DRIVER_VERSION="560.35.03",Hostname="node-a",UUID="GPU-00000001-aaaa-bbbb-cccc-000000000000",container="",device="nvidia1",gpu="1",modelName="NVIDIA H200",namespace="",pci_bus_id="00000000:19:00.0",pod=""} 90
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "gpuscope_gpu_pod_info", "DCGM_FI_DEV_GPU_UTIL"); err != nil {
		t.Error(err)
	}
}
