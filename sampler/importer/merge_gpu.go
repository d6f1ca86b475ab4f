package importer

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// Out of line: inlined at its call sites it cost more than the call
// (docs/benchmarks.md, "Pasted text copied, not changed").
//
//go:noinline
func indexOf(gs []sampler.GPU, idx int) int {
	for i := range gs {
		if gs[i].Index == idx {
			return i
		}
	}
	return -1
}

// matchGPU finds g among gs: by PCI bus id when both have one, else by index.
func matchGPU(gs []sampler.GPU, g sampler.GPU) int {
	b := normBus(g.BusID)
	if b != "" {
		for i := range gs {
			if normBus(gs[i].BusID) == b {
				return i
			}
		}
	}
	if g.Index < 0 {
		return -1
	}
	for i := range gs {
		if gs[i].Index == g.Index && (b == "" || gs[i].BusID == "") {
			return i
		}
	}
	return -1
}

// lostSlot places a GPU nvidia-smi reports lost by bus id alone: a
// listing that names GPUs 0, 2 and 3 skipped the one it could not reach,
// so a single gap is its index (one physical GPU, not an extra one).
// Without exactly one gap it keeps its unknown index.
//
// Out of line: inlined at its call sites it cost more than the call
// (docs/benchmarks.md, "Pasted text copied, not changed").
//
//go:noinline
func lostSlot(gs []sampler.GPU, unknown int) int {
	hi, n := -1, 0
	seen := map[int]bool{}
	for _, g := range gs {
		if g.Index >= 0 && !seen[g.Index] {
			seen[g.Index] = true
			hi, n = max(hi, g.Index), n+1
		}
	}
	if hi+1-n != 1 {
		return unknown
	}
	for i := 0; i <= hi; i++ {
		if !seen[i] {
			return i
		}
	}
	return unknown
}

// freeIndex is want when no GPU has it, else one past the highest.
//
// Out of line: inlined at its call sites it cost more than the call
// (docs/benchmarks.md, "Pasted text copied, not changed").
//
//go:noinline
func freeIndex(gs []sampler.GPU, want int) int {
	hi := -1
	taken := false
	for _, g := range gs {
		hi = max(hi, g.Index)
		taken = taken || g.Index == want
	}
	if want >= 0 && !taken {
		return want
	}
	return hi + 1
}

// normBus reduces the spellings of a PCI address ("00000000:41:00.0",
// "0000:41:00.0", the kernel's "PCI:0000:41:00") to "41:00": bus and
// device, which tell GPUs apart on one node. A non-zero domain is kept
// ("0018:01:00" → "18:01:00"): GB200/GH200 trays put each GPU on bus 01
// of its own domain (sampler/importer/testdata/real/kmsg-xid149-*).
func normBus(s string) string {
	s = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), "PCI:"))
	s = strings.TrimPrefix(s, "pci:")
	if s == "" {
		return ""
	}
	if i := strings.LastIndexByte(s, '.'); i > 0 {
		s = s[:i]
	}
	f := strings.Split(s, ":")
	if len(f) < 2 {
		return ""
	}
	key := f[len(f)-2] + ":" + f[len(f)-1]
	if len(f) >= 3 {
		if d, err := strconv.ParseUint(f[len(f)-3], 16, 32); err == nil && d != 0 {
			key = strconv.FormatUint(d, 16) + ":" + key
		}
	}
	return key
}

var (
	metricType      = reflect.TypeOf(sampler.Metric{})
	clockEventsType = reflect.TypeOf(sampler.ClockEvents{})
)

// fillGPU copies into dst every reading dst lacks and src has. Events
// (Xids, lost) are copied only when events is set.
func fillGPU(dst, src *sampler.GPU, events bool) {
	dv, sv := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	for i := 0; i < dv.NumField(); i++ {
		name := dv.Type().Field(i).Name
		d, s := dv.Field(i), sv.Field(i)
		switch {
		case name == "Index":
		case name == "VGPUs":
			dst.VGPUs = mergeVGPUs(dst.VGPUs, src.VGPUs)
		case name == "Xids" || name == "Lost":
			if events {
				if name == "Lost" {
					dst.Lost = dst.Lost || src.Lost
				} else {
					dst.Xids = append(dst.Xids, src.Xids...)
				}
			}
		case d.Type() == metricType:
			if !d.Interface().(sampler.Metric).OK {
				d.Set(s)
			}
		case d.Type() == clockEventsType:
			if !d.Interface().(sampler.ClockEvents).OK {
				d.Set(s)
			}
		case d.Kind() == reflect.String || d.Kind() == reflect.Slice || d.Kind() == reflect.Map:
			if d.Len() == 0 {
				d.Set(s)
			}
		case d.Kind() == reflect.Bool:
			d.SetBool(d.Bool() || s.Bool())
		}
	}
}

// Out of line: inlined at its many call sites it cost more than the call
// (docs/benchmarks.md, "Pasted text copied, not changed").
//
//go:noinline
func fillString(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

// fillStatic copies the facts that hold over a whole series (identity,
// limits, capabilities, affinity) into dst where it lacks them; the last
// snapshot gets everything (fillGPU). Written out rather than by
// reflection: it runs for every GPU of every snapshot of a long series.
func fillStatic(dst, src *sampler.GPU) {
	fillString(&dst.Name, src.Name)
	fillString(&dst.UUID, src.UUID)
	fillString(&dst.BusID, src.BusID)
	fillString(&dst.Arch, src.Arch)
	fillString(&dst.Persistence, src.Persistence)
	fillString(&dst.ComputeMode, src.ComputeMode)
	fillString(&dst.CPUAffinity, src.CPUAffinity)
	fillString(&dst.Virtualization, src.Virtualization)
	fillString(&dst.License, src.License)
	for _, m := range [...]struct{ d, s *sampler.Metric }{
		{&dst.MemTotal, &src.MemTotal}, {&dst.PowerLimit, &src.PowerLimit}, {&dst.SMClockMax, &src.SMClockMax},
		{&dst.MemClockMax, &src.MemClockMax}, {&dst.PCIeGenMax, &src.PCIeGenMax}, {&dst.PCIeWidthMax, &src.PCIeWidthMax},
		{&dst.TempSlowdown, &src.TempSlowdown}, {&dst.TempMaxOp, &src.TempMaxOp},
		{&dst.TempTarget, &src.TempTarget}, {&dst.TempShutdown, &src.TempShutdown}, {&dst.NUMANode, &src.NUMANode},
	} {
		if !m.d.OK {
			*m.d = *m.s
		}
	}
	dst.MIG = dst.MIG || src.MIG
}
