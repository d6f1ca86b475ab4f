package nvmlarch

import (
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

func TestNameParseRoundTrip(t *testing.T) {
	if Name(nvml.DEVICE_ARCH_HOPPER) != "Hopper" || Name(nvml.DeviceArchitecture(999)) != "" {
		t.Fatal("names")
	}
	for a := range names {
		if got, ok := Parse(Name(a)); !ok || got != a {
			t.Errorf("Parse(Name(%d)) = %d, %v", a, got, ok)
		}
	}
	if _, ok := Parse("Fermi"); ok {
		t.Error("unknown name parsed")
	}
}
