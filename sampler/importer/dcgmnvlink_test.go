package importer

import (
	"strings"
	"testing"
)

// nvidia-smi nvlink -s is named in the refusal with why it is not read,
// both as speeds with inactive links and as NVML's all-inactive line.
func TestNVLinkSpeedsNamedNotRead(t *testing.T) {
	for _, in := range []string{
		"GPU 0: NVIDIA H100 PCIe (UUID: GPU-6968dfc2)\n         Link 0: 26.562 GB/s\n         Link 4: <inactive>\n",
		"    GPU 0: NVIDIA A100-PCIE-40GB (UUID: GPU-3fb1)\n    NVML: Unable to retrieve NVLink information as all links are inActive\n",
	} {
		_, _, err := NewStream(strings.NewReader(in), "paste", Options{Start: fixedStart})
		if err == nil || !strings.Contains(err.Error(), "nvidia-smi nvlink -s (link speeds, not read: an inactive link is often one the board") {
			t.Errorf("%q: err %v", in, err)
		}
	}
}
