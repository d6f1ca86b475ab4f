package fakenvml

import (
	"math"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// gpmSample holds the truth's GPM readings at the moment GpmSampleGet took it.
// GpmMetricsGet answers with the later sample's readings, which is what the
// truth says the interval averaged to.
type gpmSample struct {
	nvml.GpmSample // nil: Free, Get and MigGet are overridden or unused
	f              *Fake
	gpu            int // -1 until taken
	gi             int // GPU instance of a GpmMigSampleGet sample, -1 for the whole GPU
	vals           [len(gpmFields)]float64
	rets           [len(gpmFields)]nvml.Return
}

const mib = 1 << 20 // GPM NVLink rates are MiB/s (nvml.h NVML_GPM_METRIC_NVLINK_TOTAL_*_PER_SEC)

// take copies the truth's GPM readings for GPU d into s.
func (s *gpmSample) take(d *device) nvml.Return {
	g, r := d.read(mGpmSampleGet)
	if r != nvml.SUCCESS {
		return r
	}
	if !d.f.hasGPM {
		return nvml.ERROR_NOT_SUPPORTED
	}
	s.gpu, s.gi = d.idx, -1
	ms := [len(gpmFields)]sampler.Metric{g.SMActive, g.SMOccupancy, g.TensorActive, g.DRAMActive, g.NVLinkRx, g.NVLinkTx, g.GRActive}
	for i, m := range ms {
		s.vals[i], s.rets[i] = m.V, nvml.SUCCESS
		if !m.OK {
			s.rets[i] = naReturn(g, gpmFields[i])
		}
	}
	s.vals[4] /= mib
	s.vals[5] /= mib
	return nvml.SUCCESS
}

func (s *gpmSample) Get(dev nvml.Device) nvml.Return {
	d, ok := dev.(*device)
	if !ok || d.f != s.f {
		return nvml.ERROR_INVALID_ARGUMENT
	}
	return s.take(d)
}

func (s *gpmSample) Free() nvml.Return { return nvml.SUCCESS }

func (d *device) GpmSampleGet(s nvml.GpmSample) nvml.Return {
	gs, ok := s.(*gpmSample)
	if !ok || gs.f != d.f {
		d.f.enter(d.idx, mGpmSampleGet)
		return nvml.ERROR_INVALID_ARGUMENT
	}
	return gs.take(d)
}

func (d *device) GpmQueryDeviceSupport() (nvml.GpmSupport, nvml.Return) {
	if r := d.f.enter(d.idx, mGpmQueryDeviceSupport); r != nvml.SUCCESS {
		return nvml.GpmSupport{}, r
	}
	if !d.f.hasGPM {
		return nvml.GpmSupport{Version: nvml.GPM_SUPPORT_VERSION}, nvml.ERROR_NOT_SUPPORTED
	}
	return nvml.GpmSupport{Version: nvml.GPM_SUPPORT_VERSION, IsSupportedDevice: 1}, nvml.SUCCESS
}

// gpmIndex maps an NVML GPM metric id to its slot in gpmSample.vals.
func gpmIndex(id uint32) int {
	switch nvml.GpmMetricId(id) {
	case nvml.GPM_METRIC_SM_UTIL:
		return 0
	case nvml.GPM_METRIC_SM_OCCUPANCY:
		return 1
	case nvml.GPM_METRIC_ANY_TENSOR_UTIL:
		return 2
	case nvml.GPM_METRIC_DRAM_BW_UTIL:
		return 3
	case nvml.GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC:
		return 4
	case nvml.GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC:
		return 5
	case nvml.GPM_METRIC_GRAPHICS_UTIL:
		return 6
	}
	return -1
}

// metricsGet fills m from its two samples, as nvmlGpmMetricsGet does.
func (f *Fake) metricsGet(m *nvml.GpmMetricsGetType) nvml.Return {
	s1, ok1 := m.Sample1.(*gpmSample)
	s2, ok2 := m.Sample2.(*gpmSample)
	if !ok1 || !ok2 || s1.f != f || s2.f != f || s1.gpu < 0 || s1.gpu != s2.gpu || s1.gi != s2.gi || m.NumMetrics > uint32(len(m.Metrics)) {
		return nvml.ERROR_INVALID_ARGUMENT
	}
	if r := f.enter(s2.gpu, mGpmMetricsGet); r != nvml.SUCCESS {
		return r
	}
	if !f.hasGPM {
		return nvml.ERROR_NOT_SUPPORTED
	}
	for i := range m.NumMetrics {
		mt := &m.Metrics[i]
		k := gpmIndex(mt.MetricId)
		if k < 0 {
			mt.Value, mt.NvmlReturn = math.NaN(), uint32(nvml.ERROR_NOT_SUPPORTED)
			continue
		}
		mt.Value, mt.NvmlReturn = s2.vals[k], uint32(s2.rets[k])
	}
	return nvml.SUCCESS
}
