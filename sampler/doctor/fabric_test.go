package doctor

import (
	"strings"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

// TestDoctorFabric: the fabric check reads each GPU's NVSwitch fabric
// registration from the fake driver; no fabric (or a driver without the
// query) is "not applicable", not ok.
func TestDoctorFabric(t *testing.T) {
	nodes := map[string]string{"/dev/nvidiactl": "", "/dev/nvidia0": "", "/dev/nvidia-uvm": ""}
	withSwitch := map[string]string{"/dev/nvidiactl": "", "/dev/nvidia0": "", "/dev/nvidia-nvswitch0": ""}
	withDaemon := map[string]string{"/dev/nvidiactl": "", "/dev/nvidia0": "", "/dev/nvidia-nvswitch0": "", "/proc/4242/comm": "nv-fabricmanager\n"}
	fabric := func(state uint8, status nvml.Return) *nvml.GpuFabricInfo {
		return &nvml.GpuFabricInfo{State: state, Status: uint32(status)}
	}
	cases := []struct {
		name    string
		fabric  *nvml.GpuFabricInfo
		missing []string
		files   map[string]string
		status  Status
		seen    string
		fix     []string
	}{
		{"no_fabric", nil, nil, nodes, NA, "not applicable", nil},
		{"old_driver", fabric(nvml.GPU_FABRIC_STATE_COMPLETED, nvml.SUCCESS), []string{fabricSymbol}, nodes, NA, "not applicable", nil},
		{"not_started", fabric(nvml.GPU_FABRIC_STATE_NOT_STARTED, nvml.SUCCESS), nil, nodes, Fail, "not started on GPU 0, 1",
			[]string{"802", "system not yet initialized", "systemctl status nvidia-fabricmanager", "550.54.15"}},
		{"in_progress", fabric(nvml.GPU_FABRIC_STATE_IN_PROGRESS, nvml.SUCCESS), nil, nodes, Warn, "in progress on GPU 0, 1", []string{"nvidia-fabricmanager"}},
		{"failed", fabric(nvml.GPU_FABRIC_STATE_COMPLETED, nvml.ERROR_NOT_READY), nil, nodes, Fail, "failed on GPU 0 (" + nvml.ERROR_NOT_READY.String() + ")", []string{"802"}},
		{"completed", fabric(nvml.GPU_FABRIC_STATE_COMPLETED, nvml.SUCCESS), nil, nodes, OK, "2 GPUs registered", nil},
		{"switch_without_state", nil, nil, withSwitch, Warn, "no nv-fabricmanager process", []string{"802"}},
		{"switch_with_daemon", nil, nil, withDaemon, OK, "nv-fabricmanager is running", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := fakenvml.New(fakenvml.Config{GPUs: 2, Fabric: c.fabric, Missing: c.missing})
			cs := Run(Env{Root: fsRoot(t, c.files), NVML: f.Interface()})
			got := find(t, cs, "NVSwitch fabric")
			if got.Status != c.status || !strings.Contains(got.Seen, c.seen) {
				t.Errorf("fabric check: %+v, want %s with %q", got, c.status, c.seen)
			}
			for _, w := range c.fix {
				if !strings.Contains(got.Fix, w) {
					t.Errorf("fix %q lacks %q", got.Fix, w)
				}
			}
			if c.status == NA && Failed(cs) {
				t.Errorf("a check that does not apply failed the run: %+v", cs)
			}
		})
	}
}
