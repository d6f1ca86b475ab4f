package fakenvml

import (
	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// NVLink answers come from the truth's NVLinks: links listed there exist
// (active or not); a GPU without links answers NOT_SUPPORTED; a link number
// past the last listed one is INVALID_ARGUMENT, as on real hardware.

// link finds the truth's link l.
func (d *device) link(m method, l int) (*sampler.NVLink, nvml.Return) {
	g, r := d.read(m)
	if r != nvml.SUCCESS {
		return nil, r
	}
	if len(g.NVLinks) == 0 {
		return nil, naReturn(g, "nvlinks")
	}
	for i := range g.NVLinks {
		if g.NVLinks[i].Link == l {
			return &g.NVLinks[i], nvml.SUCCESS
		}
	}
	if l < 0 || l >= nvml.NVLINK_MAX_LINKS || l > g.NVLinks[len(g.NVLinks)-1].Link {
		return nil, nvml.ERROR_INVALID_ARGUMENT
	}
	return &sampler.NVLink{Link: l}, nvml.SUCCESS // a gap: an inactive link
}

func (d *device) GetNvLinkState(l int) (nvml.EnableState, nvml.Return) {
	lk, r := d.link(mGetNvLinkState, l)
	if r != nvml.SUCCESS {
		return 0, r
	}
	if lk.Active {
		return nvml.FEATURE_ENABLED, nvml.SUCCESS
	}
	return nvml.FEATURE_DISABLED, nvml.SUCCESS
}

func (d *device) GetNvLinkRemotePciInfo(l int) (nvml.PciInfo, nvml.Return) {
	lk, r := d.link(mGetNvLinkRemotePciInfo, l)
	if r != nvml.SUCCESS {
		return nvml.PciInfo{}, r
	}
	if lk.RemoteBus == "" {
		return nvml.PciInfo{}, nvml.ERROR_NOT_SUPPORTED
	}
	return pciInfo(lk.RemoteBus), nvml.SUCCESS
}

// GetNvLinkRemoteDeviceType says GPU when the remote bus is one of the fake
// GPUs, else NVSwitch.
func (d *device) GetNvLinkRemoteDeviceType(l int) (nvml.IntNvLinkDeviceType, nvml.Return) {
	lk, r := d.link(mGetNvLinkRemoteDeviceType, l)
	if r != nvml.SUCCESS {
		return nvml.NVLINK_DEVICE_TYPE_UNKNOWN, r
	}
	for j := range d.f.devs {
		if d.f.busID(j) == lk.RemoteBus {
			return nvml.NVLINK_DEVICE_TYPE_GPU, nvml.SUCCESS
		}
	}
	return nvml.NVLINK_DEVICE_TYPE_SWITCH, nvml.SUCCESS
}

func (d *device) GetNvLinkErrorCounter(l int, c nvml.NvLinkErrorCounter) (uint64, nvml.Return) {
	lk, r := d.link(mGetNvLinkErrorCounter, l)
	if r != nvml.SUCCESS {
		return 0, r
	}
	switch c {
	case nvml.NVLINK_ERROR_DL_REPLAY:
		return lk.Replay, nvml.SUCCESS
	case nvml.NVLINK_ERROR_DL_RECOVERY:
		return lk.Recovery, nvml.SUCCESS
	case nvml.NVLINK_ERROR_DL_CRC_FLIT:
		return lk.CRC, nvml.SUCCESS
	}
	return 0, nvml.ERROR_NOT_SUPPORTED
}
