package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A monitor of another board is refused by name, not with advice about
// CSV headers; nvidia-smi-like text without a header keeps that advice.
func TestForeignToolRefusedByName(t *testing.T) {
	tegra := "RAM 2448/3964MB (lfb 4x1MB) SWAP 0/1982MB (cached 0MB) CPU [9%@1479,2%@1479] EMC_FREQ 0% GR3D_FREQ 0% GPU@34C\n"
	_, _, err := NewStream(strings.NewReader(tegra), "tegra.log", Options{Start: fixedStart})
	if err == nil || !strings.Contains(err.Error(), "tegrastats") || strings.Contains(err.Error(), "noheader") {
		t.Fatalf("err %v; want the tegrastats refusal without the CSV hint", err)
	}
	_, _, err = NewStream(strings.NewReader("0, 45, 1000, 80000\n1, 40, 900, 80000\n"), "rows.csv", Options{Start: fixedStart})
	if err != nil && strings.Contains(err.Error(), "tegrastats") {
		t.Fatalf("plain rows named a foreign tool: %v", err)
	}
}

// Each collected non-NVML sample of the corpus (testdata/real/INDEX.md,
// batch 2026-12-06-formats) is refused with its own tool's name.
func TestForeignCorpusRefusedByTool(t *testing.T) {
	for file, want := range map[string]string{
		"tegrastats-agx-orin-64gb-jetson-exporter-issue-14.txt": "tegrastats",
		"tegrastats-tx2-vdd-tx-utils-issue-3.txt":               "tegrastats",
		"rocm-smi-concise-33-roc-smi-issue-86.txt":              "rocm-smi",
		"rocm-smi-concise-2gpu-24-rocm-smi-lib-issue-35.txt":    "rocm-smi",
		"intel-gpu-top-l-ksysguard-gpu-issue-28.txt":            "intel_gpu_top",
		"xpu-smi-dump-flex170-xpumanager-issue-69.txt":          "xpu-smi",
		"xpu-smi-discovery-arc-b60-sglang-pr-38873.txt":         "xpu-smi",
	} {
		b, err := os.ReadFile(filepath.Join("testdata/real", file))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = NewStream(strings.NewReader(string(b)), file, Options{Start: fixedStart})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "NVML") || strings.Contains(err.Error(), "noheader") {
			t.Errorf("%s: err %v; want a refusal naming %s", file, err, want)
		}
	}
}

// The host's process monitors and a bare Python traceback, pasted where
// nvidia-smi's output belongs, are refused by what they are, with what to
// pass instead; a traceback beside an nvidia-smi table is not called one.
func TestHostTextRefusedByName(t *testing.T) {
	top := "top - 14:02:11 up 12 days,  3:41,  2 users,  load average: 8.12, 7.90, 7.55\n" +
		"Tasks: 412 total,   3 running, 409 sleeping,   0 stopped,   0 zombie\n\n" +
		"    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n" +
		" 123456 alice     20   0   45.2g  12.1g 512000 R 100.0   2.3 120:01.22 python\n"
	htop := "    PID USER       PRI  NI  VIRT   RES   SHR S  CPU% MEM%   TIME+  Command\n" +
		"   4242 bob         20   0 30.1G 9812M  402M R 101.  4.1  3h02:11 python train.py\n"
	ps := "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n" +
		"carol       9001 99.8  2.1 4561234 987654 ?     Rl   10:01 512:00 python train.py --gpus 8\n"
	tb := "Traceback (most recent call last):\n  File \"train.py\", line 42, in <module>\n    model.cuda()\n" +
		"RuntimeError: CUDA error: an illegal memory access was encountered\n"
	for name, c := range map[string]struct{ in, want, todo string }{
		"top":       {top, "a process list (top, htop or ps", "run nvidia-smi"},
		"htop":      {htop, "a process list (top, htop or ps", "run nvidia-smi"},
		"ps":        {ps, "a process list (top, htop or ps", "run nvidia-smi"},
		"traceback": {tb, "a Python traceback without nvidia-smi output", "dmesg"},
	} {
		_, _, err := NewStream(strings.NewReader(c.in), name+".txt", Options{Start: fixedStart})
		if err == nil || !strings.Contains(err.Error(), name+".txt: "+c.want) || !strings.Contains(err.Error(), c.todo) ||
			strings.Contains(err.Error(), "noheader") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err %v; want one line naming %q with what to pass instead", name, err, c.want)
		}
	}
	cut := "+-----------------------------------------------------------------------------+\n" +
		"| NVIDIA-SMI 580.65.06              Driver Version: 580.65.06      CUDA Version: 13.0     |\n" + tb
	_, _, err := NewStream(strings.NewReader(cut), "cut.txt", Options{Start: fixedStart})
	if err != nil && strings.Contains(err.Error(), "traceback") {
		t.Errorf("a traceback beside an nvidia-smi header was refused as a bare traceback: %v", err)
	}
}

// nvidia-vgpu-mgr's journal lines (bare, as journalctl -u prints them
// with a date and host, or under a VM's start notices) are refused as that
// daemon's log with what gpuscope reads of a vGPU host, not as other text.
func TestVGPUMgrLogRefusedByName(t *testing.T) {
	for _, in := range []string{
		"nvidia-vgpu-mgr[2412]: notice: vmiop_env_log: vmiop-env: guest_max_gpfn:0x0\n" +
			"nvidia-vgpu-mgr[2412]: error: vmiop_log: (0x0): Failed to allocate the vGPU's frame buffer\n",
		"Mar 03 10:11:44 kvm-host-7 nvidia-vgpu-mgr[31526]: error: vmiop_log: NVOS status 0x1f\n",
	} {
		_, _, err := NewStream(strings.NewReader(in), "mgr.txt", Options{Start: fixedStart})
		if err == nil || !strings.Contains(err.Error(), "mgr.txt: nvidia-vgpu-mgr's log (a vGPU host's daemon") ||
			!strings.Contains(err.Error(), "nvidia-smi vgpu -q and dmesg's Xid lines") || strings.Contains(err.Error(), "other text") {
			t.Errorf("%q: err %v; want the vgpu-mgr refusal", in, err)
		}
	}
}
