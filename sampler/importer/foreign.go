package importer

import (
	"bytes"
	"fmt"
)

// Other vendors' and boards' monitors, and the host's own text, that
// people paste where nvidia-smi's output belongs: refused by name, so the
// message fits the input. id names each in ui/i18n's cli.*.toml
// ("refuse.<id>", "refuse.<id>_todo"), where the CLI finds its words in
// the reader's language (Refusal).
var foreignTools = []struct {
	id   string
	re   *lazyRE
	what string
	todo string // what to pass instead, "" where nothing gpuscope reads exists there
}{
	// tegrastats: "RAM 2448/3964MB (lfb 4x1MB) ... GR3D_FREQ 0% ..."
	{"tegrastats", lazy(`(?m)^\s*(\d\d-\d\d-\d{4} \d\d:\d\d:\d\d )?RAM \d+/\d+MB.*\b(GR3D_FREQ|EMC_FREQ|CPU \[)`),
		"a Jetson tegrastats line (Jetson boards have no NVML)", ""},
	// rocm-smi's banner is printed with and without spaces inside the '='
	// rules (the corpus' rocm-smi files, testdata/real/INDEX.md).
	{"rocm_smi", lazy(`(?m)=+\s*ROCm System Management Interface\s*=+|^\s*GPU\[\d+\]\s+:`), "AMD rocm-smi output", ""},
	{"amd_smi", lazy(`\bamd-smi\b`), "AMD amd-smi output", ""},
	// intel_gpu_top -l: "Freq MHz      IRQ RC6     Power W ..." over " req  act ...".
	{"intel_gpu_top", lazy(`(?mi)intel_gpu_top|^\s*Freq MHz\s+IRQ\s+RC6`), "Intel intel_gpu_top output", ""},
	// xpu-smi: its name, its dump header, or its discovery box.
	{"xpu_smi", lazy(`(?mi)xpu-smi|^Timestamp, DeviceId, GPU |^\|\s*Device ID\s*\|\s*Device Information|PCI BDF Address:`), "Intel xpu-smi output", ""},
	// The host's process monitors, pasted when a job looks stuck: top's
	// summary line and column header, htop's header, ps aux's header.
	{"process_list", lazy(`(?m)^top - \d\d?:\d\d(:\d\d)? up |^\s*PID\s+USER\s+PRI?\s+NI\s+VIRT\s+RES\s+SHR\s+S\s+(%CPU|CPU%)|^USER\s+PID\s+%CPU\s+%MEM\s+VSZ\s+RSS`),
		"a process list (top, htop or ps: the host's processes, no GPU readings)",
		"run nvidia-smi (or nvidia-smi -q) on that node and pass its output; gpuscope live shows the host's processes beside their GPUs"},
	// nvidia-vgpu-mgr's journal (a vGPU host's daemon, one per VM: its
	// vmiop_log lines, "error:" where the VM's vGPU failed): NVIDIA's, but
	// no GPU reading, so refused by name rather than as other text.
	{"vgpu_mgr", lazy(`nvidia-vgpu-mgr\[\d+\]:`),
		"nvidia-vgpu-mgr's log (a vGPU host's daemon: a VM's vGPU errors, no GPU readings)",
		"pass the host's nvidia-smi vgpu -q and dmesg's Xid lines, which gpuscope reads"},
	// A Python traceback alone: the error is the framework's, and nothing
	// of the node's GPUs came with it (text holding an nvidia-smi table or
	// -q block is refused with what was found in it instead).
	{"traceback", lazy(`(?m)^\s*Traceback \(most recent call last\):`), "a Python traceback without nvidia-smi output",
		"pass the output of nvidia-smi (or nvidia-smi -q) and of sudo dmesg | grep -i xid from the node where it failed; " +
			"the traceback may come with them (a CUDA error 802 in it is read as the NVSwitch fabric not ready)"},
}

// nvidiaText: the head holds an nvidia-smi table or -q block, whose
// refusal (a cut box, a header only) says more than a tool's name.
var nvidiaText = lazy(`NVIDIA-SMI \d|NVSMI LOG`)

// Refusal is the error for a known non-NVML text: one line saying what it
// is, what gpuscope reads, and what to pass instead where that helps. Kind
// is its message id for the CLI's translation ("refuse.<Kind>").
type Refusal struct {
	Name, Kind, What, Todo string
}

// Formats lists what gpuscope reads, for the refusal's words.
func (r *Refusal) Formats() string { return recognisedAll }

func (r *Refusal) Error() string {
	msg := fmt.Sprintf("%s: %s; gpuscope reads NVIDIA's NVML tools' output (%s)", r.Name, r.What, recognisedAll)
	if r.Todo != "" {
		msg += ": " + r.Todo
	}
	return msg
}

// foreignTool is the refusal of head when a known non-NVML tool wrote it,
// nil when none did.
func foreignTool(head []byte, name string) *Refusal {
	if nvidiaText.Match(head) {
		return nil
	}
	for _, t := range foreignTools {
		if t.re.Match(bytes.TrimLeft(head, "\ufeff")) {
			return &Refusal{Name: name, Kind: t.id, What: t.what, Todo: t.todo}
		}
	}
	return nil
}

// RefusalKinds lists every Refusal's Kind with its English (what, todo),
// for the CLI's catalogue test.
func RefusalKinds() []Refusal {
	out := make([]Refusal, len(foreignTools))
	for i, t := range foreignTools {
		out[i] = Refusal{Kind: t.id, What: t.what, Todo: t.todo}
	}
	return out
}
