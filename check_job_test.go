package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// demoJobs are the Slurm jobs of the allocated_idle scenario at seed 1:
// frank's holds GPUs 0-1 with no process, alice's trains on GPUs 2-7.
func demoJobs(t *testing.T) (frank, alice string) {
	t.Helper()
	var out, errb bytes.Buffer
	run([]string{"check", "--demo=allocated_idle", "--for", "10s", "--json"}, &out, &errb)
	var doc struct {
		Snapshot struct {
			GPUs []struct {
				Job   string `json:"job"`
				Owner string `json:"owner"`
			} `json:"gpus"`
		} `json:"snapshot"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Snapshot.GPUs) != 8 {
		t.Fatalf("check --json: %v\n%s", err, errb.String())
	}
	g := doc.Snapshot.GPUs
	if g[0].Owner != "frank" || g[2].Owner != "alice" || g[0].Job == "" || g[2].Job == "" {
		t.Fatalf("the demo's GPUs carry no jobs: %+v", g)
	}
	return g[0].Job, g[2].Job
}

// TestCheckJob: check --job, a Slurm epilogue's one paragraph, restricted
// to the job's GPUs and exiting by their worst finding.
func TestCheckJob(t *testing.T) {
	frank, alice := demoJobs(t)

	var out, errb bytes.Buffer
	if got := run([]string{"check", "--demo=allocated_idle", "--job", frank}, &out, &errb); got != 1 {
		t.Fatalf("frank's idle job: status %d, want 1 (a warning)\n%s%s", got, out.String(), errb.String())
	}
	para := out.String()
	for _, want := range []string{"Job " + frank + " (frank)", "GPUs 0, 1:", "GPU-hours held, 0.000 used (0% busy)",
		"Main cause: GPU 0 held by Slurm job " + frank, "(allocated_idle)", "First fix: Release the allocation",
		"scontrol show job " + frank} {
		if !strings.Contains(para, want) {
			t.Errorf("paragraph lacks %q:\n%s", want, para)
		}
	}
	if n := strings.Count(strings.TrimSpace(para), "\n"); n != 0 {
		t.Errorf("not one paragraph (%d line breaks):\n%s", n, para)
	}

	out.Reset()
	if got := run([]string{"check", "--demo=allocated_idle", "--job", frank, "--lang", "zh"}, &out, &errb); got != 1 {
		t.Fatalf("--lang zh: status %d", got)
	}
	if zh := out.String(); !strings.Contains(zh, "作业 "+frank+"（frank）") || !strings.Contains(zh, "。主要原因：") {
		t.Errorf("the Chinese paragraph:\n%s", zh)
	}

	out.Reset()
	if got := run([]string{"check", "--demo=allocated_idle", "--job", alice}, &out, &errb); got != 0 {
		t.Fatalf("alice's busy job: status %d, want 0 (frank's finding is not hers)\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), "GPUs 2, 3, 4, 5, 6, 7:") || !strings.Contains(out.String(), "No findings on its GPUs.") {
		t.Errorf("alice's paragraph:\n%s", out.String())
	}

	out.Reset()
	errb.Reset()
	if got := run([]string{"check", "--demo=allocated_idle", "--for", "5s", "--job", "999"}, &out, &errb); got != 3 {
		t.Fatalf("a job holding no GPU: status %d, want 3", got)
	}
	if !strings.Contains(errb.String(), "job 999 held no GPU") {
		t.Errorf("stderr: %s", errb.String())
	}
	if got := run([]string{"check", "--demo=allocated_idle", "--job", "a b"}, &out, &errb); got != 3 {
		t.Errorf("a malformed --job: status %d, want 3", got)
	}
}

// TestCheckJobFromRecording: the epilogue's way, a recording of the
// node's day read with --from; --json carries the job's GPU-hours.
func TestCheckJobFromRecording(t *testing.T) {
	frank, _ := demoJobs(t)
	path := filepath.Join(t.TempDir(), "node.jsonl")
	var out, errb bytes.Buffer
	if got := run([]string{"record", "--demo=allocated_idle", "--duration", "3m", "-o", path}, &out, &errb); got != 0 {
		t.Fatalf("record: %d %s", got, errb.String())
	}
	out.Reset()
	if got := run([]string{"check", "--from", path, "--job", frank, "--json"}, &out, &errb); got != 1 {
		t.Fatalf("status %d, want 1\n%s", got, errb.String())
	}
	var doc struct {
		Findings []struct {
			Rule string `json:"rule"`
			GPU  int    `json:"gpu"`
		} `json:"findings"`
		Job struct {
			GPUs []int   `json:"gpus"`
			Held float64 `json:"held_gpu_hours"`
			Used float64 `json:"used_gpu_hours"`
		} `json:"job"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	// 2 GPUs × 3 minutes, less the first interval of each.
	if doc.Job.Held < 0.09 || doc.Job.Held > 0.1 || doc.Job.Used != 0 || len(doc.Job.GPUs) != 2 {
		t.Errorf("job section %+v", doc.Job)
	}
	for _, f := range doc.Findings {
		if f.GPU > 1 || f.Rule != "allocated_idle" {
			t.Errorf("a finding outside the job or of another cause: %+v", f)
		}
	}
}
