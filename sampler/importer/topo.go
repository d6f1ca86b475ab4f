package importer

import (
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// `nvidia-smi topo -m` (also `topo --matrix`): a header of device names
// (GPU0.., NIC0.. or mlx5_0.. on older drivers) then "CPU Affinity",
// "NUMA Affinity" and, on newer drivers, "GPU NUMA ID"; one row per device
// with the link to each column (X, NV#, PIX, PXB, PHB, NODE, SYS; SOC on
// old drivers) and, for GPU rows, the affinities; then legends. Columns
// are separated by tabs or spaces; a terminal capture may carry escapes
// (removed by cleanLine).

var topoGPURE = lazy(`^GPU(\d+)$`)

func parseTopo(sec *section) *part {
	p := newPart(sec)
	head := strings.Fields(sec.lines[0])
	var devs []string
	for _, f := range head {
		if f == "CPU" || f == "NUMA" || strings.HasPrefix(f, "Affinity") {
			break
		}
		devs = append(devs, f)
	}
	ngpu := 0
	for _, d := range devs {
		if topoGPURE.MatchString(d) {
			ngpu++
		}
	}
	if ngpu == 0 {
		return p.skip("a header without GPU columns")
	}
	links := make([][]string, ngpu)
	gpus := make([]sampler.GPU, ngpu)
	for i := range gpus {
		gpus[i] = sampler.GPU{Index: i}
		links[i] = make([]string, ngpu)
	}
	rows := 0
	for i, l := range sec.lines[1:] {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		m := topoGPURE.FindStringSubmatch(f[0])
		if m == nil {
			continue
		}
		gi, _ := strconv.Atoi(m[1])
		if gi >= ngpu || len(f) < 1+ngpu {
			continue
		}
		rows++
		col := 0
		for j, d := range devs {
			if j+1 >= len(f) {
				break
			}
			if topoGPURE.MatchString(d) && col < ngpu {
				links[gi][col] = f[j+1]
				col++
			}
		}
		var rest []string // the affinity columns, absent on a clipped row
		if len(f) > 1+len(devs) {
			rest = f[1+len(devs):]
		}
		if len(rest) > 0 && !isNA(rest[0]) {
			gpus[gi].CPUAffinity = rest[0]
		}
		if len(rest) > 1 {
			if n, err := strconv.Atoi(rest[1]); err == nil {
				gpus[gi].NUMANode = sampler.Some(float64(n))
			}
		}
		p.where(gi, "topology", sec.first+1+i)
	}
	if rows == 0 {
		return p.skip("no GPU rows under the header")
	}
	p.snaps = []sampler.Snapshot{{GPUs: gpus, Topology: &sampler.Topology{Links: links}}}
	p.note(countGPUs(ngpu) + " (links and CPU affinity)")
	if nics := len(devs) - ngpu; nics > 0 {
		p.note(strconv.Itoa(nics) + " NICs")
	}
	return p
}
