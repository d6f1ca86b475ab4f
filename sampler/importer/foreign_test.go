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
