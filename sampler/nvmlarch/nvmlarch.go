// Package nvmlarch names NVML's GPU architectures, both ways: the reader
// turns the enum into the name a snapshot carries, the fake NVML turns the
// name back into the enum.
package nvmlarch

import "github.com/NVIDIA/go-nvml/pkg/nvml"

// names is in enum order, as nvml.h defines nvmlDeviceArchitecture_t.
var names = map[nvml.DeviceArchitecture]string{
	nvml.DEVICE_ARCH_KEPLER:    "Kepler",
	nvml.DEVICE_ARCH_MAXWELL:   "Maxwell",
	nvml.DEVICE_ARCH_PASCAL:    "Pascal",
	nvml.DEVICE_ARCH_VOLTA:     "Volta",
	nvml.DEVICE_ARCH_TURING:    "Turing",
	nvml.DEVICE_ARCH_AMPERE:    "Ampere",
	nvml.DEVICE_ARCH_ADA:       "Ada",
	nvml.DEVICE_ARCH_HOPPER:    "Hopper",
	nvml.DEVICE_ARCH_BLACKWELL: "Blackwell",
	nvml.DEVICE_ARCH_RUBIN:     "Rubin",
}

// Name is the architecture's marketing name ("" when unknown).
func Name(a nvml.DeviceArchitecture) string { return names[a] }

// Parse maps a name back to the enum.
func Parse(name string) (nvml.DeviceArchitecture, bool) {
	for a, n := range names {
		if n == name {
			return a, true
		}
	}
	return 0, false
}
