package importer

import (
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// `nvidia-smi vgpu` on a vGPU host is the default table's box with other
// columns: each physical GPU's line ("   0  NVIDIA A40 | 00000000:41:00.0 |
// 3% "), then one line per vGPU on it ("      3251634190  GRID A40-8Q |
// f267...  vm-name | 0% "). A vGPU id is a ten-digit instance number where
// a GPU line has its index, so a row whose first number is that long is a
// VM's vGPU under the GPU above it, never a GPU of the node.

var (
	tblVGPURE     = lazy(`^\s*(\d{5,})\s+(.*?)\s*$`)
	tblVGPUUtilRE = lazy(`^(\d+)%$`)
)

// readVGPURow takes a vGPU row into the GPU above it (or drops it when the
// table was cut above its GPU); false for any other row.
func readVGPURow(cur *tableGPU, cells []string, no int) bool {
	m := tblVGPURE.FindStringSubmatch(cells[0])
	if m == nil {
		return false
	}
	if cur == nil {
		return true
	}
	v := sampler.VGPU{ID: m[1], Name: strings.TrimRight(m[2], ". ")}
	if len(cells) >= 2 {
		// "f267...  win10test,debug-...": the VM id, then its name (both cut to fit)
		if f := strings.Fields(cells[1]); len(f) >= 2 {
			v.VM = strings.TrimRight(strings.Join(f[1:], " "), ". ")
		}
	}
	if len(cells) >= 3 {
		if u := tblVGPUUtilRE.FindStringSubmatch(strings.TrimSpace(cells[2])); u != nil {
			v.Util = num(u[1])
		}
	}
	cur.g.VGPUs = append(cur.g.VGPUs, v)
	cur.lines["vgpus"] = no
	return true
}

// mergeVGPUs joins two listings of one GPU's vGPUs by id: `nvidia-smi vgpu`
// cuts names to fit its columns ("NVIDIA RTXA...") where `vgpu -q` prints
// them whole, so the longer spelling of the same start wins.
func mergeVGPUs(dst, src []sampler.VGPU) []sampler.VGPU {
	for _, s := range src {
		i := 0
		for i < len(dst) && dst[i].ID != s.ID {
			i++
		}
		if i == len(dst) {
			dst = append(dst, s)
			continue
		}
		d := &dst[i]
		for _, f := range [...]struct{ d, s *string }{{&d.Name, &s.Name}, {&d.VM, &s.VM}, {&d.License, &s.License}} {
			if strings.HasPrefix(*f.s, *f.d) {
				*f.d = *f.s
			}
		}
		for _, m := range [...]struct{ d, s *sampler.Metric }{{&d.Util, &s.Util}, {&d.MemUsed, &s.MemUsed}, {&d.MemTotal, &s.MemTotal}} {
			if !m.d.OK {
				*m.d = *m.s
			}
		}
	}
	return dst
}
