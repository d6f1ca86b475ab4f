package importer

import (
	"strings"
	"testing"
)

// NVLSM finding no InfiniBand management device (ib_umad not loaded) is the
// fabric manager of an NVLink 5 system failing to start; another
// InfiniBand tool's same umad_init words are not (corpus b26-talos-nvlsm-*).
func TestFabricManagerNVLSMUmadLine(t *testing.T) {
	for _, in := range []string{
		"10.0.0.101: nvlsm: ibwarn: [15] umad_init: can't read ABI version from /sys/class/infiniband_mad/abi_version (No such file or directory): is ib_umad module loaded?\n",
		"Jun 02 10:00:01 b200 nvlsm[2211]: ibwarn: [2211] umad_init: can't read ABI version from /sys/class/infiniband_mad/abi_version (No such file or directory): is ib_umad module loaded?\n",
	} {
		snaps, _, err := readString(in)
		if err != nil || len(snaps) != 1 || !strings.Contains(snaps[0].Node.FabricError, "ib_umad") {
			t.Errorf("%q: snaps %+v, err %v; want a fabric error naming ib_umad", in, snaps, err)
		}
	}
	for _, in := range []string{
		"ibwarn: [3407] umad_init: can't read ABI version from /sys/class/infiniband_mad/abi_version (No such file or directory): is ib_umad module loaded?\nibpanic: [3407] main: stat of IB device 'mlx5_0' failed: No such file or directory\n",
		"Load ib_umad before nvlsm starts.\n",
	} {
		if snaps, _, _ := readString(in); len(snaps) > 0 && snaps[0].Node.FabricError != "" {
			t.Errorf("%q read as a fabric manager failure: %q", in, snaps[0].Node.FabricError)
		}
	}
}
