package importer

import (
	"bytes"
	"fmt"
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
	// The host's process monitors, pasted when a job looks stuck: top's
	// summary line and column header, htop's header, ps aux's header.
	{regexp.MustCompile(`(?m)^top - \d\d?:\d\d(:\d\d)? up |^\s*PID\s+USER\s+PRI?\s+NI\s+VIRT\s+RES\s+SHR\s+S\s+(%CPU|CPU%)|^USER\s+PID\s+%CPU\s+%MEM\s+VSZ\s+RSS`),
		"a process list (top, htop or ps: the host's processes, no GPU readings)"},
	// A Python traceback alone: the error is the framework's, and nothing
	// of the node's GPUs came with it (text holding an nvidia-smi table or
	// -q block is refused with what was found in it instead).
	{regexp.MustCompile(`(?m)^\s*Traceback \(most recent call last\):`), "a Python traceback without nvidia-smi output"},
}

// foreignTodo is what the refusal of a non-GPU text adds: which output to
// bring instead.
var foreignTodo = map[string]string{
	"a process list (top, htop or ps: the host's processes, no GPU readings)": "run nvidia-smi (or nvidia-smi -q) on that node and pass its output; " +
		"gpuscope live shows the host's processes beside their GPUs",
	"a Python traceback without nvidia-smi output": "pass the output of nvidia-smi (or nvidia-smi -q) and of sudo dmesg | grep -i xid " +
		"from the node where it failed; the traceback may come with them (a CUDA error 802 in it is read as the NVSwitch fabric not ready)",
}

// nvidiaText: the head holds an nvidia-smi table or -q block, whose
// refusal (a cut box, a header only) says more than a tool's name.
var nvidiaText = regexp.MustCompile(`NVIDIA-SMI \d|NVSMI LOG`)

// foreignTool names the tool head came from, "" when it is none of them.
func foreignTool(head []byte) string {
	if nvidiaText.Match(head) {
		return ""
	}
	for _, t := range foreignTools {
		if t.re.Match(bytes.TrimLeft(head, "\ufeff")) {
			return t.what
		}
	}
	return ""
}

// foreignRefusal is the one line that refuses a known non-NVML text: what
// it is, what gpuscope reads, and what to bring instead where that helps.
func foreignRefusal(name, what string) string {
	msg := fmt.Sprintf("%s: %s; gpuscope reads NVIDIA's NVML tools' output (%s)", name, what, recognisedAll)
	if todo := foreignTodo[what]; todo != "" {
		msg += ": " + todo
	}
	return msg
}
