package importer

import (
	"strings"
	"testing"
)

// nvidia-smi's Unknown Error in a VM guest whose driver sees the
// hypervisor is refused with the reason and the setting to change, not
// read as a lost GPU; without such a hint the same words still are.
func TestDeviceHandleErrorInAVisibleHypervisorGuest(t *testing.T) {
	in := "the driver sees it's running on a VM (`cat /proc/cpuinfo | grep hypervisor`)\n\n" +
		"with <hidden state='on'/> nvidia-smi works; without it: `Unable to determine the device handle for GPU 0000:02:01.0: Unknown Error`\n"
	_, _, err := readString(in)
	if err == nil || !strings.Contains(err.Error(), "sees the hypervisor") || !strings.Contains(err.Error(), "kvm=off") {
		t.Fatalf("err %v, want the guest's refusal with what to change", err)
	}
	for _, lost := range []string{
		"Unable to determine the device handle for GPU 0000:02:01.0: Unknown Error\n",
		"(`cat /proc/cpuinfo | grep hypervisor`)\nUnable to determine the device handle for GPU 0000:02:00.0: GPU is lost. Reboot the system to recover this GPU\n",
	} {
		snaps, _, err := readString(lost)
		if err != nil || len(snaps) == 0 || len(snaps[len(snaps)-1].GPUs) != 1 || !snaps[len(snaps)-1].GPUs[0].Lost {
			t.Errorf("%q: err %v; want one lost GPU", lost, err)
		}
	}
}
