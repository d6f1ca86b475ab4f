package nvmlsource

import (
	"math"
	"slices"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// allLinks is the scope id that asks a field value for every NVLink of the
// GPU at once (DCGM passes UINT_MAX for its NVLINK_*_TOTAL fields).
const allLinks = math.MaxUint32

// kib: NVML's NVLink throughput counters count KiB (nvml.h
// NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_*).
const kib = 1024

// nvlinkData is the previous reading of a GPU's NVLink data counters.
type nvlinkData struct {
	have   bool
	rx, tx uint64 // KiB
	at     int64  // µs, NVML's timestamp of the reading
}

// readNVLinkData fills the NVLink rates from NVML's data counters on a GPU
// without GPM (before Hopper, or a driver without it): the counters' rise
// between two ticks over the time NVML stamped on them, as DCGM computes
// its NVLINK_BANDWIDTH fields. A GPU without an active link is not asked.
func readNVLinkData(g *gpuReader, out *sampler.GPU) {
	if !g.skip[cGPM] || !slices.ContainsFunc(g.slow.NVLinks, func(l sampler.NVLink) bool { return l.Active }) {
		return
	}
	if !g.want(cNVLinkData) {
		return
	}
	fv := []nvml.FieldValue{
		{FieldId: nvml.FI_DEV_NVLINK_THROUGHPUT_DATA_RX, ScopeId: allLinks},
		{FieldId: nvml.FI_DEV_NVLINK_THROUGHPUT_DATA_TX, ScopeId: allLinks},
	}
	if !g.ok(cNVLinkData, g.dev.GetFieldValues(fv)) ||
		!g.ok(cNVLinkData, nvml.Return(fv[0].NvmlReturn)) || !g.ok(cNVLinkData, nvml.Return(fv[1].NvmlReturn)) {
		return
	}
	rx, okRx := fieldValue(fv[0])
	tx, okTx := fieldValue(fv[1])
	if !okRx || !okTx {
		return
	}
	prev, now := g.nvlData, nvlinkData{have: true, rx: uint64(rx), tx: uint64(tx), at: max(fv[0].Timestamp, fv[1].Timestamp)}
	g.nvlData = now
	g.dropNA(sampler.NANVLinkRx, sampler.NANVLinkTx) // GPM's reason no longer holds
	secs := float64(now.at-prev.at) / 1e6
	if !prev.have || secs <= 0 || now.rx < prev.rx || now.tx < prev.tx {
		g.note(cNVLinkData, reasonWarmingUp) // a first reading, or the counters restarted
		return
	}
	out.NVLinkRx = sampler.Some(float64(now.rx-prev.rx) * kib / secs)
	out.NVLinkTx = sampler.Some(float64(now.tx-prev.tx) * kib / secs)
}

// dropNA forgets this tick's reasons for keys, which a later reading filled.
func (g *gpuReader) dropNA(keys ...string) {
	g.na = slices.DeleteFunc(g.na, func(e naEntry) bool { return slices.Contains(keys, e.key) })
}
