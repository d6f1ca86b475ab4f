package importer

import (
	"strings"
	"testing"
)

// A remote task's output as Ray prints it, each line behind the label of
// the process that printed it ("(pid=2231, ip=10.0.0.12) ", an actor's
// "(Trainer pid=88, ip=...) "), reads as the tool's own lines; a
// parenthesis without a process id stays part of the line.
func TestLauncherLabelledLines(t *testing.T) {
	table := []string{
		"+-----------------------------------------------------------------------------------------+",
		"| NVIDIA-SMI 550.90.07              Driver Version: 550.90.07      CUDA Version: 12.4     |",
		"|-----------------------------------------+------------------------+----------------------+",
		"| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |",
		"| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |",
		"|=========================================+========================+======================|",
		"|   0  NVIDIA A10G                    On  |   00000000:00:1E.0 Off |                    0 |",
		"|  0%   27C    P8              9W /  300W |       1MiB /  23028MiB |      0%      Default |",
		"+-----------------------------------------+------------------------+----------------------+",
	}
	for _, label := range []string{"(pid=2231, ip=10.0.0.12) ", "(Trainer pid=88, ip=10.0.0.7) "} {
		in := label + strings.Join(table, "\n"+label) + "\n"
		snaps, _, err := readString(in)
		if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 1 || snaps[0].GPUs[0].Name != "NVIDIA A10G" {
			t.Errorf("label %q: snaps %+v, err %v; want the A10G read", label, snaps, err)
		}
	}
	for in, want := range map[string]string{
		"(pid=2231, ip=10.0.0.12) Failed to initialize NVML: Unknown Error": "Failed to initialize NVML: Unknown Error",
		"(GPU 0) idle":  "(GPU 0) idle",
		"(pid 12) idle": "(pid 12) idle",
	} {
		if got := unquote(in); got != want {
			t.Errorf("unquote(%q) = %q, want %q", in, got, want)
		}
	}
}
