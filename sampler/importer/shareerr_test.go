package importer

import (
	"strings"
	"testing"
)

// The sharing layer's errors (vGPU manager, MPS control daemon, nvidia-smi
// mig) are refused with the cause they name, never read as a GPU's fault
// (corpus b29-vgpud-*, b29-mps-daemon-*, b29-mig-lci-*); prose about MPS or
// MIG is other text.
func TestShareErrorsRefusedWithTheirCause(t *testing.T) {
	for in, want := range map[string]string{
		"Feb 13 18:44:27 sm1 nvidia-vgpud[2009]: Started (2009)\n" +
			"Feb 13 18:44:28 sm1 nvidia-vgpud[2009]: GPU not supported by vGPU at PCI Id: 0:1:0:0 DevID: 0x10de / 0x1e89 / 0x10de / >\n" +
			"Feb 13 18:44:28 sm1 nvidia-vgpud[2009]: error: failed to send vGPU configuration info to RM: 6\n": "offers it no vGPU types",
		"CUDA_MPS_PIPE_DIRECTORY must be set to start or to communicate with MPS control daemon\n":            "CUDA_MPS_PIPE_DIRECTORY is not set",
		"[root@node ~]# nvidia-smi mig -lci\nFailed to display compute instances: Insufficient Permissions\n": "lacks the privilege",
	} {
		snaps, _, err := readString(in)
		if err == nil || len(snaps) != 0 || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "no GPU reading") {
			t.Errorf("%q: snaps %d, err %v; want a refusal naming %q", in, len(snaps), err, want)
		}
	}
	if _, _, err := readString("We run MPS with CUDA_MPS_PIPE_DIRECTORY set on every node.\n"); err != nil && strings.Contains(err.Error(), kindShareErr) {
		t.Errorf("prose read as the sharing layer's error: %v", err)
	}
}
