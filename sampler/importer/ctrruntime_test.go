package importer

import (
	"strings"
	"testing"
)

// A container runtime's GPU error is refused with the cause it names, not
// as other text, and the refusal leads with it (pastestream.go); a sentence about the same tools is not such a line.
func TestContainerRuntimeErrorRefusedWithItsCause(t *testing.T) {
	for in, want := range map[string]string{
		"docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].\n":                                                                              "nvidia-ctk runtime configure",
		"docker: Error response from daemon: unknown or invalid runtime name: nvidia.\n":                                                                                                     "no runtime named nvidia",
		"nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown.\n":                          "host's NVML library",
		"failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: \"nvidia-smi\": executable file not found in $PATH: unknown.\n": "injected nothing",
		"slurmstepd: error: pyxis:     [ERROR] Command not found: nvidia-container-cli, see https://github.com/NVIDIA/libnvidia-container\n":                                                 "lacks nvidia-container-cli",
	} {
		_, _, err := readString(in)
		if err == nil || !strings.Contains(err.Error(), kindCtrRuntime+" (") || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v; want it refused as a %s naming %q", in, err, kindCtrRuntime, want)
		} else if !strings.Contains(err.Error(), "no GPU reading to judge") || strings.Contains(err.Error(), "recognised:") {
			t.Errorf("%q: %v; want the refusal to lead with the cause, not the list of formats", in, err)
		}
	}
	for _, prose := range []string{
		"I installed nvidia-container-cli and docker works now\n",
		"Does nvidia-smi work inside the container?\n",
	} {
		if _, _, err := readString(prose); err != nil && strings.Contains(err.Error(), kindCtrRuntime) {
			t.Errorf("%q read as a %s: %v", prose, kindCtrRuntime, err)
		}
	}
}
