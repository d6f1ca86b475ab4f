package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const traceData = "sampler/trace/testdata"

// The articles' example as torch_tb_profiler recorded it (ResNet-50, fp32,
// num_workers=0; its DataLoader covers 39.92% of the steps and 1462 kernels
// run per step, median 2 µs: testdata/INDEX.md) reads, in one screen, as
// docs/user-guide.md "Profiler traces" promises: what the timeline proves
// (the DataLoader's share, launch-bound kernels) and what to change.
func TestReportTraceSaysWhatToChange(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"report", filepath.Join(traceData, "tb_resnet50_workers0.pt.trace.json.gz")}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{
		"input_starved, confirmed", "DataLoader on the main thread (num_workers=0), 40% of each step", "DataLoader(num_workers=4..16",
		"launch_bound, confirmed", "1462 kernels per step, median 2 µs", "torch.compile",
		"Tesla V100-DGXS-32GB",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
	if n := strings.Count(s, "\n"); n > 40 {
		t.Errorf("%d lines: not one screen", n)
	}
}

// A directory of one trace per rank (tensorboard_trace_handler's layout):
// every rank is read and named by the rank its trace states; JSON too.
func TestReportTraceDirectoryOfRanks(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"hta_sampled_rank-0.json.gz", "hta_sampled_rank-1.json.gz"} {
		b, err := os.ReadFile(filepath.Join(traceData, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.WriteFile(filepath.Join(dir, "notes.json"), []byte(`{"lr": 0.1}`), 0o600) // not a trace: left out
	var out, errb bytes.Buffer
	if code := run([]string{"report", "--format", "json", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r struct {
		Ranks []struct {
			Rank int    `json:"rank"`
			File string `json:"file"`
		} `json:"ranks"`
		Findings []struct {
			Rule string `json:"rule"`
			Rank int    `json:"rank"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Ranks) != 2 || r.Ranks[0].Rank != 0 || r.Ranks[1].Rank != 1 {
		t.Fatalf("ranks %+v", r.Ranks)
	}
	comm := map[int]bool{}
	for _, f := range r.Findings {
		if f.Rule == "comm_bound" {
			comm[f.Rank] = true
		}
	}
	if !comm[0] || !comm[1] { // NCCL 28-33% of the trace, 12% / 20% overlapped (HTA's figures)
		t.Errorf("findings %+v", r.Findings)
	}
}

// Bad traces: one line on standard error naming the file, a non-zero exit.
func TestReportTraceBadInput(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "cut.json")
	if err := os.WriteFile(plain, []byte(`{"schemaVersion": 1, "traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"report", plain}, 1, "truncated"},
		{[]string{"report", filepath.Join(traceData, "hta_cpu_only.pt.trace.json.gz")}, 1, "CPU-only"},
		{[]string{"report", filepath.Join(traceData, "hta_rocm_mi250.json.gz")}, 1, "ROCm"},
		{[]string{"report", filepath.Join(traceData, "hta_mtia_inference.json.gz")}, 1, "MTIA"},
		{[]string{"report", "--format", "html", filepath.Join(traceData, "hta_alexnet.json.gz")}, 2, "text or json"},
		{[]string{"report", t.TempDir()}, 1, "no profiler traces"},
	} {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
		if code != c.code || len(lines) != 1 || !strings.Contains(lines[0], c.want) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want one line with %q)", c.args, code, c.code, errb.String(), c.want)
		}
	}
}

// An Nsight Systems export reads end to end (testdata/INDEX.md: vecAdd.cu's
// std::vector arrays are pageable, copied in twice and back once), alone
// and from a directory; an export without GPU activity is one line, exit 1.
func TestReportNsysExport(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"report", filepath.Join(traceData, "nsys_vecadd_rtx3060_2025.5.sqlite")}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"NVIDIA GeForce RTX 3060", "copy_bound, confirmed", "100% of their bytes from pageable memory", "kernVectorAdd", "1× cudaDeviceSynchronize"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(traceData, "nsys_vecadd_a100_2022.2.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.sqlite"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"report", dir}, &out, &errb); code != 0 || !strings.Contains(out.String(), "NVIDIA A100-SXM4-40GB") {
		t.Errorf("report DIR: exit %d: %s%s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	code := run([]string{"report", filepath.Join(traceData, "nsys_no_kernels_2025.3.sqlite")}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "no GPU activity") || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 {
		t.Errorf("no kernels: exit %d, %q", code, errb.String())
	}
}

// `nsys stats --format csv` summaries: report reads them and says what
// totals prove (launch_bound, at Info) and what they cannot judge; with a
// recording beside them, one line and exit 2.
func TestReportNsysStatsSummary(t *testing.T) {
	kern, api := filepath.Join(traceData, "nsysstats_moe_h100_2024.5_kern_sum.csv"), filepath.Join(traceData, "nsysstats_moe_h100_2024.5_api_sum.csv")
	var out, errb bytes.Buffer
	if code := run([]string{"report", kern, api}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"NSIGHT SYSTEMS SUMMARY", "995175", "19207× cudaStreamSynchronize", "launch_bound", "not judged: from a summary: no timeline"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	errb.Reset()
	if code := run([]string{"report", kern, "sampler/importer/testdata/real/" + firstCorpusFile(t)}, &out, &errb); code != 2 || strings.Count(errb.String(), "\n") != 1 || !strings.Contains(errb.String(), "read alone") {
		t.Errorf("summary with a log: exit %d, %q", code, errb.String())
	}
}

func firstCorpusFile(t *testing.T) string {
	t.Helper()
	m, _ := filepath.Glob("sampler/importer/testdata/real/smi-table-*.txt")
	if len(m) == 0 {
		t.Fatal("no corpus table")
	}
	return filepath.Base(m[0])
}

// A GPU event written later than the analysis' bounded window can wait
// for (diagnose/timeline, docs/ARCHITECTURE.md "Reading a trace") makes the
// figures read in time order approximate, and the report says so.
func TestReportTraceSaysWhenApproximate(t *testing.T) {
	var js strings.Builder
	js.WriteString(`{"traceEvents": [`)
	for i := range 70000 {
		fmt.Fprintf(&js, `{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": %d, "dur": 1, "args": {"device": 0, "stream": 7}},`, 10+2*i)
	}
	js.WriteString(`{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 5, "dur": 1, "args": {"device": 0, "stream": 7}}]}`)
	path := filepath.Join(t.TempDir(), "late.json")
	if err := os.WriteFile(path, []byte(js.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"report", path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "1 events came later than the analysis' window") {
		t.Errorf("the report does not say its figures are approximate:\n%s", out.String())
	}
	out.Reset()
	if code := run([]string{"report", "--format", "json", path}, &out, &errb); code != 0 || !strings.Contains(out.String(), `"approximate_events": 1`) {
		t.Errorf("exit %d, the JSON lacks approximate_events: %s", code, out.String())
	}
}
