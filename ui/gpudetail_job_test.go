package ui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// TestGPUDetailNamesTheJob: the GPU page says which Slurm job holds the
// GPU, even with no process on it (docs/jobs.md).
func TestGPUDetailNamesTheJob(t *testing.T) {
	m := fixtureModelN(10, 8, 200, 50, func(s *sampler.Snapshot) {
		s.GPUs[6].Job, s.GPUs[6].Owner, s.GPUs[6].Procs = "4714643", "frank", nil
	})
	m = press(m, "7")
	page := strings.Join(m.gdetail.content(), "\n")
	if !strings.Contains(page, "held by Slurm job 4714643 (frank)") {
		t.Errorf("GPU 6 page does not name its job:\n%s", page)
	}
	// 10 snapshots a second apart: 9 s held, 0.0025 GPU-hours.
	if !regexp.MustCompile(`held by Slurm job 4714643 \(frank\): 0\.0025 GPU-h held, \d+% used`).MatchString(page) {
		t.Errorf("GPU 6 page does not count the job's GPU-hours:\n%s", page)
	}
	m = press(m, "left")
	if page = strings.Join(m.gdetail.content(), "\n"); strings.Contains(page, "held by") {
		t.Errorf("GPU 5, held by no job, names one:\n%s", page)
	}
}
