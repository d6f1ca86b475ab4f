package nvmlsource

import (
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

// In a vGPU guest the licence state is read back as the guest holds it;
// on bare metal (the round trip) it is 0.
func TestVGPULicenseInAGuest(t *testing.T) {
	_, box, src := vgpuGuest(t)
	truth := varied(fakenvml.BaseTruth(2, ""), 0)
	truth[0].VGPULicense = sampler.Some(1)
	box.set(truth)
	gpus, _ := src.Sample(tickTime(0))
	if gpus[0].VGPULicense != sampler.Some(1) || gpus[1].VGPULicense != sampler.Some(0) {
		t.Errorf("licences %+v %+v, want held and not held", gpus[0].VGPULicense, gpus[1].VGPULicense)
	}
}

// DCGM's reading of nvmlDeviceGetGridLicensableFeatures: 0 for a GPU that
// takes no licence, the vGPU feature's state otherwise, nothing when no
// feature is the vGPU one.
func TestVGPULicenseAsDCGMReadsIt(t *testing.T) {
	feature := func(code nvml.GridLicenseFeatureCode, state uint32) nvml.GridLicensableFeatures {
		f := nvml.GridLicensableFeatures{IsGridLicenseSupported: 1, LicensableFeaturesCount: 1}
		f.GridLicensableFeatures[0] = nvml.GridLicensableFeature{FeatureCode: uint32(code), FeatureState: state}
		return f
	}
	for _, c := range []struct {
		f    nvml.GridLicensableFeatures
		want sampler.Metric
	}{
		{nvml.GridLicensableFeatures{}, sampler.Some(0)},
		{feature(nvml.GRID_LICENSE_FEATURE_CODE_VGPU, 2), sampler.Some(1)},
		{feature(nvml.GRID_LICENSE_FEATURE_CODE_VGPU, 0), sampler.Some(0)},
		{feature(nvml.GRID_LICENSE_FEATURE_CODE_COMPUTE, 1), sampler.NA},
		{nvml.GridLicensableFeatures{IsGridLicenseSupported: 1, LicensableFeaturesCount: 99}, sampler.NA},
	} {
		if got := vgpuLicense(c.f); got != c.want {
			t.Errorf("%+v: %+v, want %+v", c.f.GridLicensableFeatures[0], got, c.want)
		}
	}
}
