package importer

import (
	"strings"
	"testing"
)

// nvidia-smi nvlink -s that proves no link down is refused saying it was
// read and what would prove one (a peer of its model), both as speeds with
// inactive links and as NVML's all-inactive line; not "not read", which
// it stopped being (docs/corpus-accuracy.md, after batch 12).
func TestNVLinkSpeedsNamedNotRead(t *testing.T) {
	for _, in := range []string{
		"GPU 0: NVIDIA H100 PCIe (UUID: GPU-6968dfc2)\n         Link 0: 26.562 GB/s\n         Link 4: <inactive>\n",
		"    GPU 0: NVIDIA A100-PCIE-40GB (UUID: GPU-3fb1)\n    NVML: Unable to retrieve NVLink information as all links are inActive\n",
		"GPU 3: Tesla V100-SXM2-32GB (UUID: ...)\n         Link 0: 25.781 GB/s\n         Link 3: <inactive>\n",
	} {
		_, _, err := NewStream(strings.NewReader(in), "paste", Options{Start: fixedStart})
		if err == nil || !strings.Contains(err.Error(), "nvidia-smi nvlink -s (link speeds read, no link shown down: ") ||
			!strings.Contains(err.Error(), "named down only beside a GPU of the same model that runs it") || strings.Contains(err.Error(), "not read") {
			t.Errorf("%q: err %v", in, err)
		}
	}
}
