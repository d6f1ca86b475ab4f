package nvmlsource

import (
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// gpmMinGap: GPM metrics are computed between two samples, which NVML wants
// at least 100 ms apart (nvml.h, nvmlGpmMetricsGet; DCGM's profiling module
// uses the same floor).
const gpmMinGap = 100 * time.Millisecond

// mib converts GPM's NVLink rates, MiB/s in nvml.h
// (NVML_GPM_METRIC_NVLINK_TOTAL_RX/TX_PER_SEC), to bytes/s.
const mib = 1 << 20

// gpmMetrics are the GPM metrics read, in the order of callFields[cGPM].
// A read-only table.
var gpmMetrics = [...]struct {
	id    nvml.GpmMetricId
	scale float64
}{
	{nvml.GPM_METRIC_SM_UTIL, 1},
	{nvml.GPM_METRIC_SM_OCCUPANCY, 1},
	{nvml.GPM_METRIC_ANY_TENSOR_UTIL, 1},
	{nvml.GPM_METRIC_DRAM_BW_UTIL, 1},
	{nvml.GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC, mib},
	{nvml.GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC, mib},
	{nvml.GPM_METRIC_GRAPHICS_UTIL, 1}, // DCGM's GR_ENGINE_ACTIVE on Hopper
}

// gpmField points at the GPU field of gpmMetrics[i].
func gpmField(out *sampler.GPU, i int) *sampler.Metric {
	switch i {
	case 0:
		return &out.SMActive
	case 1:
		return &out.SMOccupancy
	case 2:
		return &out.TensorActive
	case 3:
		return &out.DRAMActive
	case 4:
		return &out.NVLinkRx
	case 5:
		return &out.NVLinkTx
	}
	return &out.GRActive
}

// gpmState is one GPU's pair of GPM samples, used alternately: each tick
// fills the older one and computes metrics between it and the other.
type gpmState struct {
	ready   bool // support checked and samples allocated
	samples [2]nvml.GpmSample
	next    int       // index of the sample the next tick fills
	have    bool      // samples[1-next] holds a valid earlier sample
	at      time.Time // when that earlier sample was taken
	vals    [len(gpmMetrics)]sampler.Metric
	reasons [len(gpmMetrics)]string
}

func (st *gpmState) free() {
	for i, smp := range st.samples {
		if smp != nil {
			smp.Free()
			st.samples[i] = nil
		}
	}
	st.ready, st.have = false, false
}

// readGPM fills the GPM fields (Hopper and newer). The first tick, and any
// tick after a failed sample, has no values yet: "warming up".
func (s *Source) readGPM(g *gpuReader, out *sampler.GPU, now time.Time) {
	if g.vgpuGuest { // a vGPU guest takes no GPM samples (docs/driver-compatibility.md)
		g.note(cGPM, reasonVGPU)
		return
	}
	if !g.want(cGPM) {
		return
	}
	st := &g.gpm
	if !st.ready && !s.prepareGPM(g) {
		return
	}
	if st.have && now.Sub(st.at) < gpmMinGap && !now.Before(st.at) {
		s.applyGPM(g, out) // too soon for a new interval: repeat the last one
		return
	}
	if r := g.dev.GpmSampleGet(st.samples[st.next]); !g.ok(cGPM, r) {
		st.have = false
		return
	}
	if !st.have {
		st.have, st.at, st.next = true, now, 1-st.next
		st.vals = [len(gpmMetrics)]sampler.Metric{}
		for i := range st.reasons {
			st.reasons[i] = reasonWarmingUp
		}
		s.applyGPM(g, out)
		return
	}
	m := s.gpmReq
	m.NumMetrics = uint32(len(gpmMetrics))
	m.Sample1, m.Sample2 = st.samples[1-st.next], st.samples[st.next]
	for i, gm := range gpmMetrics {
		m.Metrics[i] = nvml.GpmMetric{MetricId: uint32(gm.id)}
	}
	st.at, st.next = now, 1-st.next
	if r := s.lib.GpmMetricsGet(m); !g.ok(cGPM, r) {
		return
	}
	for i, gm := range gpmMetrics {
		if ret := nvml.Return(m.Metrics[i].NvmlReturn); ret != nvml.SUCCESS {
			st.vals[i], st.reasons[i] = sampler.NA, reasonFor(ret)
			continue
		}
		st.vals[i], st.reasons[i] = sampler.Some(m.Metrics[i].Value*gm.scale), ""
	}
	m.Sample1, m.Sample2 = nil, nil
	s.applyGPM(g, out)
}

// prepareGPM checks support and allocates the two samples, once per GPU.
func (s *Source) prepareGPM(g *gpuReader) bool {
	sup, r := g.dev.GpmQueryDeviceSupport()
	if r == nvml.SUCCESS && sup.IsSupportedDevice == 0 {
		r = nvml.ERROR_NOT_SUPPORTED // pre-Hopper answers "supported: no"
	}
	if !g.ok(cGPM, r) {
		return false
	}
	st := &g.gpm
	for i := range st.samples {
		smp, r := s.lib.GpmSampleAlloc()
		if !g.ok(cGPM, r) {
			st.free()
			return false
		}
		st.samples[i] = smp
	}
	st.ready = true
	return true
}

func (s *Source) applyGPM(g *gpuReader, out *sampler.GPU) {
	st := &g.gpm
	for i := range gpmMetrics {
		*gpmField(out, i) = st.vals[i]
		if st.reasons[i] != "" {
			g.noteField(callFields[cGPM][i], st.reasons[i])
		}
	}
}
