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
	{regexp.MustCompile(`=+ ROCm System Management Interface =+|\bamd-smi\b|^\s*GPU\[\d+\]\s+:`), "AMD rocm-smi / amd-smi output"},
	{regexp.MustCompile(`(?i)intel_gpu_top|xpu-smi`), "Intel GPU tool output"},
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
