package promsource

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

func stream(labels map[string]string, start time.Time, step time.Duration, vals ...float64) *sampleStream {
	m := metric{}
	for k, v := range labels {
		m[k] = v
	}
	ss := &sampleStream{Metric: m}
	for i, v := range vals {
		ss.Values = append(ss.Values, samplePair{Timestamp: promTime(start.Add(time.Duration(i) * step).UnixMilli()), Value: v})
	}
	return ss
}

func fieldIndex(t *testing.T, name string) int {
	t.Helper()
	for i, f := range gpuFields {
		if f.rank(name) < len(f.names) {
			return i
		}
	}
	t.Fatalf("no field reads %s", name)
	return -1
}

var t0 = time.Unix(1_800_000_000, 0)

// Real data is messy: dcgm-exporter's Hostname or its newer hostname,
// DCGM 4.x's renamed fields, MiB and ratios, a counter that resets, and
// no profiling fields at all.
func TestHistoryFromMessySeries(t *testing.T) {
	h := newHistoryBuilder(t0, 15*time.Second)
	old := map[string]string{"job": "dcgm", "instance": "10.0.0.1:9400", "gpu": "0", "UUID": "fleetsnap.GPU-a", "modelName": "NVIDIA A100", "Hostname": "node-a"}
	newer := map[string]string{"job": "dcgm", "instance": "10.0.0.2:9400", "gpu": "0", "UUID": "fleetsnap.GPU-b", "hostname": "node-b"}
	with := func(m map[string]string, name string) map[string]string {
		out := map[string]string{"__name__": name}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	h.gpuSeries(fieldIndex(t, "DCGM_FI_DEV_GPU_UTIL"), stream(with(old, "DCGM_FI_DEV_GPU_UTIL"), t0, 15*time.Second, 80, 90))
	h.gpuSeries(fieldIndex(t, "DCGM_FI_DEV_FB_USED"), stream(with(old, "DCGM_FI_DEV_FB_USED"), t0, 15*time.Second, 1024, 1024))
	h.gpuSeries(fieldIndex(t, "DCGM_FI_DEV_FB_FREE"), stream(with(old, "DCGM_FI_DEV_FB_FREE"), t0, 15*time.Second, 3072, 3072))
	h.gpuSeries(fieldIndex(t, "DCGM_FI_DEV_GPU_UTIL_RATIO"), stream(with(newer, "DCGM_FI_DEV_GPU_UTIL_RATIO"), t0, 15*time.Second, 0.5, 0.25))
	h.gpuSeries(fieldIndex(t, "DCGM_FI_PROF_SM_UTIL_RATIO"), stream(with(newer, "DCGM_FI_PROF_SM_UTIL_RATIO"), t0, 15*time.Second, 0.4, 0.4))
	h.gpuSeries(fieldIndex(t, "gpuscope_gpu_xid_errors_total"), stream(with(newer, "gpuscope_gpu_xid_errors_total"), t0, 15*time.Second, 5, 2))
	h.gpuSeries(fieldIndex(t, "DCGM_FI_DEV_XID_ERRORS"), stream(with(newer, "DCGM_FI_DEV_XID_ERRORS"), t0, 15*time.Second, 79, 79))
	// A MIG instance's series is not a physical GPU.
	h.gpuSeries(fieldIndex(t, "DCGM_FI_DEV_GPU_UTIL"), stream(with(map[string]string{"job": "dcgm", "instance": "10.0.0.1:9400", "gpu": "0", "GPU_I_ID": "3"}, "DCGM_FI_DEV_GPU_UTIL"), t0, 15*time.Second, 1, 1))
	got := h.snapshots()
	a := got[fleetsnap.NodeKey{Job: "dcgm", Instance: "10.0.0.1:9400"}]
	b := got[fleetsnap.NodeKey{Job: "dcgm", Instance: "10.0.0.2:9400"}]
	if len(a) != 2 || len(b) != 2 {
		t.Fatalf("%d and %d snapshots, want 2 each", len(a), len(b))
	}
	ga := a[1].GPUs[0]
	if a[1].Node.Hostname != "node-a" || ga.Util.V != 90 || ga.MemUsed.V != 1<<30 || ga.MemTotal.V != 4<<30 || ga.Name != "NVIDIA A100" {
		t.Errorf("node a: %q util %v mem %v/%v model %q", a[1].Node.Hostname, ga.Util, ga.MemUsed, ga.MemTotal, ga.Name)
	}
	if ga.SMActive.OK || ga.TensorActive.OK {
		t.Errorf("no profiling series, yet SM %v tensor %v", ga.SMActive, ga.TensorActive)
	}
	gb0, gb1 := b[0].GPUs[0], b[1].GPUs[0]
	if b[0].Node.Hostname != "node-b" || gb1.Util.V != 25 || gb1.SMActive.V != 40 {
		t.Errorf("node b: %q util %v SM %v", b[0].Node.Hostname, gb1.Util, gb1.SMActive)
	}
	// 5 then 2: the exporter restarted, so 2 new Xids, not -3.
	if len(gb0.Xids) != 0 || len(gb1.Xids) != 2 || gb1.Xids[0].Code != 79 {
		t.Errorf("xids %v then %v, want none then two of code 79", gb0.Xids, gb1.Xids)
	}
}

// gpuscope exports both name sets: the first-ranked name wins, whichever
// series arrives first.
func TestHistoryPrefersTheFirstName(t *testing.T) {
	h := newHistoryBuilder(t0, time.Second)
	own := map[string]string{"__name__": "gpuscope_gpu_utilization_ratio", "job": "j", "instance": "i", "gpu": "0", "hostname": "n"}
	dcgm := map[string]string{"__name__": "DCGM_FI_DEV_GPU_UTIL", "job": "j", "instance": "i", "gpu": "0", "Hostname": "n"}
	h.gpuSeries(0, stream(own, t0, time.Second, 0.5))
	h.gpuSeries(0, stream(dcgm, t0, time.Second, 51))
	if u := h.snapshots()[fleetsnap.NodeKey{Job: "j", Instance: "i"}][0].GPUs[0].Util.V; u != 51 {
		t.Errorf("util %v, want dcgm's 51", u)
	}
}

// A gpuscope exporter's process series come back as processes with their
// workers (the CPU shared evenly, the blocked ones in state D) and their
// container and pod (renamed exported_* by Prometheus with honor_labels false).
func TestHistoryRebuildsProcessesAndWorkers(t *testing.T) {
	h := newHistoryBuilder(t0, time.Second)
	base := map[string]string{"job": "j", "instance": "i", "gpu": "0", "hostname": "n", "pid": "42", "command": "python", "user": "bob",
		"container": "3f1c9a2b7d4e", "pod_uid": "6b1b2f9e-8f3c-4d2a-9c1e-0a1b2c3d4e5f", "exported_namespace": "ml", "exported_pod": "train-0",
		"container_name": "trainer", "pod": "gpuscope-abcde", "namespace": "monitoring", "job_pid": "40"}
	h.gpuSeries(0, stream(map[string]string{"__name__": "DCGM_FI_DEV_GPU_UTIL", "job": "j", "instance": "i", "gpu": "0", "Hostname": "n"}, t0, time.Second, 10))
	for _, pf := range procFields {
		v := map[string]float64{"gpuscope_process_workers": 4, "gpuscope_process_workers_blocked": 3,
			"gpuscope_process_workers_cpu_usage_ratio": 2, "gpuscope_process_cpu_usage_ratio": 1, "gpuscope_process_gpu_memory_bytes": 1e9}[pf.name]
		h.procSeries(pf, stream(base, t0, time.Second, v))
	}
	s := h.snapshots()[fleetsnap.NodeKey{Job: "j", Instance: "i"}][0]
	if len(s.GPUs[0].Procs) != 1 || s.GPUs[0].Procs[0].Host == nil {
		t.Fatalf("procs %+v", s.GPUs[0].Procs)
	}
	p := s.GPUs[0].Procs[0].Host
	blocked := 0
	for _, c := range p.Children {
		w := s.Host.Procs[c]
		if w.CPU.V != 50 {
			t.Errorf("worker CPU %v, want 50 (200%% over 4)", w.CPU.V)
		}
		if w.State == "D" {
			blocked++
		}
	}
	if p.Name != "python" || p.User != "bob" || p.CPU.V != 100 || len(p.Children) != 4 || blocked != 3 || p.PPID != 40 {
		t.Errorf("process %+v, %d blocked", p, blocked)
	}
	if want := (sampler.Pod{Namespace: "ml", Name: "train-0", Container: "trainer"}); p.Pod != want || p.Container != "3f1c9a2b7d4e" || p.PodUID == "" {
		t.Errorf("process in %+v / %q / %q, want %+v", p.Pod, p.Container, p.PodUID, want)
	}
}

func TestLabelsOfKubernetesSeries(t *testing.T) {
	m := metric{"Hostname": "n", "exported_pod": "train-0", "exported_namespace": "ml", "pod": "dcgm-exporter-x", "namespace": "gpu-operator"}
	if ns, pod := podOf(m); ns != "ml" || pod != "train-0" {
		t.Errorf("honor_labels false: %s/%s, want ml/train-0", ns, pod)
	}
	m = metric{"Hostname": "n", "pod": "train-0", "namespace": "ml"}
	if ns, pod := podOf(m); ns != "ml" || pod != "train-0" {
		t.Errorf("honor_labels true: %s/%s", ns, pod)
	}
	if hostOf(metric{"instance": "10.0.0.1:9400"}) != "10.0.0.1:9400" {
		t.Error("no host label: the instance names the node")
	}
}

func TestConfigErrorsAreOneLine(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{URL: "prometheus:9090"}, "want a URL"},
		{Config{URL: "http://p:9090", Selector: `cluster="a"`}, "in braces"},
		{Config{URL: "http://p:9090", BearerTokenFile: "t", BasicAuthUser: "u"}, "authentication"},
	} {
		_, err := New(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: %v, want one line with %q", c.cfg, err, c.want)
		}
	}
	s, err := New(Config{URL: "http://p:9090", Selector: `{cluster="a"}`})
	if err != nil {
		t.Fatal(err)
	}
	if q := s.names([]string{"A", "B"}, `instance="x"`); q != `{cluster="a",__name__=~"A|B",instance="x"}` {
		t.Errorf("query %s", q)
	}
}
