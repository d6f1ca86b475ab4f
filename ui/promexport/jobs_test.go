package promexport

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestJobGPUTime: GPU 0 is Slurm job 7 of frank at 50% GPU-Util, GPU 1
// free; three ticks 1 s apart count 2 s held and 1 s used, labelled by
// job and user, and the allocation is named on the GPU.
func TestJobGPUTime(t *testing.T) {
	st := NewState()
	t0 := time.Unix(1_800_000_000, 0)
	for i := range 3 {
		snap := testNode(2, 0)
		snap.Time = t0.Add(time.Duration(i) * time.Second)
		snap.GPUs[0].Job, snap.GPUs[0].Owner = "7", "frank"
		snap.GPUs[0].Util.V, snap.GPUs[0].Util.OK = 50, true
		snap.GPUs[1].Procs = nil
		st.Publish(snap, nil)
	}
	reg := registry(t, st, Options{Own: true})
	want := `
# HELP gpuscope_job_gpu_held_seconds_total GPU time a job held since serve started (allocated, or its process on the GPU), GPU-seconds.
# TYPE gpuscope_job_gpu_held_seconds_total counter
gpuscope_job_gpu_held_seconds_total{hostname="%s",job="7",kind="slurm",user="frank"} 2
# HELP gpuscope_job_gpu_used_seconds_total GPU time a job used: held time weighted by GPU-Util (SM activity on MIG), GPU-seconds.
# TYPE gpuscope_job_gpu_used_seconds_total counter
gpuscope_job_gpu_used_seconds_total{hostname="%s",job="7",kind="slurm",user="frank"} 1
`
	host := testNode(1, 0).Node.Hostname
	want = strings.ReplaceAll(want, "%s", host)
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "gpuscope_job_gpu_held_seconds_total", "gpuscope_job_gpu_used_seconds_total"); err != nil {
		t.Error(err)
	}
	if got := gathered(t, reg, "gpuscope_gpu_job_info"); got != 1 {
		t.Errorf("gpuscope_gpu_job_info %v, want 1 (GPU 0 only)", got)
	}
}
