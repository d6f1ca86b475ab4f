package doctor

import (
	"strings"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock"
)

// The fabric check against go-nvml's own mock (not this repo's fake
// driver): an 8-GPU NVSwitch node where one GPU's fabric registration has
// not started fails with the fix (start nvidia-fabricmanager at the
// driver's version); all registered is ok.
func TestDoctorFabricGoNVMLMock(t *testing.T) {
	lib := func(states map[int]uint8) *mock.Interface {
		return &mock.Interface{
			ExtensionsFunc: func() nvml.ExtendedInterface {
				return &mock.ExtendedInterface{LookupSymbolFunc: func(string) error { return nil }}
			},
			DeviceGetHandleByIndexFunc: func(i int) (nvml.Device, nvml.Return) {
				state := states[i]
				return &mock.Device{GetGpuFabricInfoFunc: func() (nvml.GpuFabricInfo, nvml.Return) {
					return nvml.GpuFabricInfo{State: state, Status: uint32(nvml.SUCCESS)}, nvml.SUCCESS
				}}, nvml.SUCCESS
			},
			SystemGetDriverVersionFunc: func() (string, nvml.Return) { return "570.133.20", nvml.SUCCESS },
		}
	}
	root := fsRoot(t, map[string]string{"/dev/nvidiactl": "", "/dev/nvidia-nvswitch0": ""})
	all := map[int]uint8{}
	for i := range 8 {
		all[i] = nvml.GPU_FABRIC_STATE_COMPLETED
	}
	if c := checkFabric(Env{Root: root, NVML: lib(all)}, 8); c.Status != OK || !strings.Contains(c.Seen, "8 GPUs registered") {
		t.Errorf("all registered: %+v", c)
	}
	all[1] = nvml.GPU_FABRIC_STATE_NOT_STARTED
	c := checkFabric(Env{Root: root, NVML: lib(all)}, 8)
	if c.Status != Fail || !strings.Contains(c.Seen, "not started on GPU 1") {
		t.Fatalf("GPU 1 not started: %+v", c)
	}
	for _, w := range []string{"nvidia-fabricmanager", "570.133.20", "802"} {
		if !strings.Contains(c.Fix, w) {
			t.Errorf("fix %q lacks %q", c.Fix, w)
		}
	}
}
