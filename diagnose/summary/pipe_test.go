package summary

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// feedFIFO makes a named pipe and writes data into it once, as a shell's
// <(...) or "cmd | gpuscope report /dev/stdin" would: a reader that opened
// the path twice would block or read nothing the second time.
func feedFIFO(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(data)
		f.Close()
	}()
	return p
}

func TestBuildFileReadsAFIFOOnce(t *testing.T) {
	dmon := "# gpu   pwr gtemp    sm   mem\n# Idx     W     C     %     %\n    0   300    60   99    40\n    0   301    61   98    41\n"
	r, err := buildFile(feedFIFO(t, []byte(dmon)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Range.Samples != 2 || r.Format != "nvidia-smi-dmon" {
		t.Fatalf("read %d samples as %q, want 2 as nvidia-smi-dmon", r.Range.Samples, r.Format)
	}
}

// A recording through a pipe keeps its stored findings: the recording
// reader takes the same peeked stream instead of reopening the path.
func TestBuildFileRecordingThroughFIFO(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl.gz")
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	w, err := record.Create(path, record.Header{Host: "n1", IntervalMS: 1000})
	if err != nil {
		t.Fatal(err)
	}
	f, _ := json.Marshal([]diagnose.Finding{{Rule: diagnose.RuleECCErrors, Severity: diagnose.Critical, GPU: 0, Title: "ecc"}})
	for i := range 3 {
		s := sampler.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Seq: uint64(i + 1),
			Node: sampler.Node{Source: "nvml"}, GPUs: []sampler.GPU{{Index: 0, Util: sampler.Some(50)}}}
		if err := w.Write(record.Entry{Snapshot: s, Findings: f}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := buildFile(feedFIFO(t, data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.FindingsFrom != "recording" || findRule(r, diagnose.RuleECCErrors, 0) == nil || r.Range.Samples != 3 {
		t.Fatalf("from %q, %d samples, findings %+v; want the recording's ecc finding over 3", r.FindingsFrom, r.Range.Samples, r.Findings)
	}
}

// report A B C: a table with processes, its node's topology and its kernel
// log read as one node; the PCIe-only multi-GPU job and the Xid are found,
// with the lines they rest on.
func TestBuildFilesOneNode(t *testing.T) {
	dir := t.TempDir()
	table := "+-----------------------------------------------------------------------------+\n" +
		"| NVIDIA-SMI 535.54.03    Driver Version: 535.54.03    CUDA Version: 12.2     |\n" +
		"| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n" +
		"|===============================+======================+======================|\n" +
		"|   0  NVIDIA A10          On   | 00000000:17:00.0 Off |                    0 |\n" +
		"|  0%   60C    P0   140W / 150W |  20000MiB / 23028MiB |     95%      Default |\n" +
		"|   1  NVIDIA A10          On   | 00000000:65:00.0 Off |                    0 |\n" +
		"|  0%   61C    P0   141W / 150W |  20000MiB / 23028MiB |     96%      Default |\n" +
		"| Processes:                                                                  |\n" +
		"|    0   N/A  N/A      4001      C   python train.py                 19990MiB |\n" +
		"|    1   N/A  N/A      4002      C   python train.py                 19990MiB |\n"
	topo := "        GPU0    GPU1    CPU Affinity    NUMA Affinity\nGPU0     X      SYS     0-23    0\nGPU1    SYS      X      24-47   1\n"
	dmesg := "[ 5.0] NVRM: Xid (PCI:0000:65:00): 31, pid=4002, name=python, Ch 00000008\n"
	var paths []string
	for name, body := range map[string]string{"a-table.txt": table, "b-topo.txt": topo, "c-dmesg.txt": dmesg} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		paths = append(paths, p)
	}
	sort.Strings(paths)
	r, err := buildFiles(paths, Options{})
	if err != nil {
		t.Fatal(err)
	}
	comm, xid := findRule(r, diagnose.RuleCommBound, -1), findRule(r, diagnose.RuleXidError, 1)
	if len(r.GPUs) != 2 || comm == nil || xid == nil || len(r.Sections) != 3 {
		t.Fatalf("GPUs %d, findings %+v, sections %v", len(r.GPUs), r.Findings, r.Sections)
	}
	if len(xid.Lines) == 0 || !strings.Contains(xid.Lines[0], "c-dmesg.txt") {
		t.Errorf("Xid finding read from %v, want the dmesg file", xid.Lines)
	}
	if !strings.Contains(xid.Lines[0], "c-dmesg.txt, section 3 (kernel log) line 1") || !strings.Contains(strings.Join(r.Sections, "\n"), "section 2, ") {
		t.Errorf("evidence line %q or sections %q lack the input's places", xid.Lines[0], r.Sections)
	}
}

// A topology alone is a report of its own: the links by kind, the lack of
// NVLink, the CPU/NUMA affinity of each group of GPUs.
func TestTopologyAloneSummarised(t *testing.T) {
	p := filepath.Join(t.TempDir(), "topo.txt")
	os.WriteFile(p, []byte("\tGPU0\tGPU1\tGPU2\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tPHB\tSYS\t0-7\t0\n"+
		"GPU1\tPHB\t X \tSYS\t0-7\t0\nGPU2\tSYS\tSYS\t X \t8-15\t1\n"), 0o644)
	r, err := buildFile(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Topology == nil {
		t.Fatal("no topology in the report")
	}
	all := strings.Join(r.Topology.Summary, "\n")
	for _, want := range []string{"PHB (PCIe through the CPU's host bridge): GPU pairs 0-1", "SYS", "no NVLink", "GPUs 0, 1: CPUs 0-7, NUMA 0", "GPUs 2: CPUs 8-15, NUMA 1"} {
		if !strings.Contains(all, want) {
			t.Errorf("summary lacks %q:\n%s", want, all)
		}
	}
}
