package importer

import (
	"bytes"
	"regexp"
)

// Other vendors' and boards' monitors whose output people paste where
// nvidia-smi's belongs: refused by name, so the message fits the input.
var foreignTools = []struct {
	re   *regexp.Regexp
	what string
}{
	// tegrastats: "RAM 2448/3964MB (lfb 4x1MB) ... GR3D_FREQ 0% ..."
	{regexp.MustCompile(`(?m)^\s*(\d\d-\d\d-\d{4} \d\d:\d\d:\d\d )?RAM \d+/\d+MB.*\b(GR3D_FREQ|EMC_FREQ|CPU \[)`), "a Jetson tegrastats line (Jetson boards have no NVML)"},
	// rocm-smi's banner is printed with and without spaces inside the '='
	// rules (the corpus' rocm-smi files, testdata/real/INDEX.md).
	{regexp.MustCompile(`(?m)=+\s*ROCm System Management Interface\s*=+|^\s*GPU\[\d+\]\s+:`), "AMD rocm-smi output"},
	{regexp.MustCompile(`\bamd-smi\b`), "AMD amd-smi output"},
	// intel_gpu_top -l: "Freq MHz      IRQ RC6     Power W ..." over " req  act ...".
	{regexp.MustCompile(`(?mi)intel_gpu_top|^\s*Freq MHz\s+IRQ\s+RC6`), "Intel intel_gpu_top output"},
	// xpu-smi: its name, its dump header, or its discovery box.
	{regexp.MustCompile(`(?mi)xpu-smi|^Timestamp, DeviceId, GPU |^\|\s*Device ID\s*\|\s*Device Information|PCI BDF Address:`), "Intel xpu-smi output"},
}

// foreignTool names the tool head came from, "" when it is none of them.
func foreignTool(head []byte) string {
	for _, t := range foreignTools {
		if t.re.Match(bytes.TrimLeft(head, "\ufeff")) {
			return t.what
		}
	}
	return ""
}
