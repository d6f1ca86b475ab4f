package importer

import (
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// `nvidia-smi -L`: one line per GPU, with its MIG devices indented under it:
//
//	GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-4b2f...)
//	  MIG 3g.40gb     Device  0: (UUID: MIG-8a1c...)
//
// Issue templates' one-line fields join the GPU lines ("GPU 0: ... (UUID:
// ...) GPU 1: ..."; corpus: unable-handle-unknown-error-4x2080ti-*): each
// entry is a GPU.
//
// `srun -l` labels each line with its task ("0: GPU 0: ...", the number
// padded to the widest task's), and each task numbers the GPUs it sees
// from 0: an index listed again with another UUID is another GPU
// (corpus: b13-srun-smi-l-*), the same UUID again the same one.
var (
	listGPURE   = lazy(`^(?:\s*\d{1,5}: )?(GPU \d+: .+? \(UUID: [^)]+\)\s*)+$`)
	listEntryRE = lazy(`GPU (\d+): (.+?) \(UUID: ([^)]+)\)`)
	listMIGRE   = lazy(`^\s+MIG (\S+)\s+Device\s+(\d+): \(UUID: ([^)]+)\)`)
)

func isListLine(l string) bool { return listGPURE.MatchString(l) || listMIGRE.MatchString(l) }

func parseList(sec *section) *part {
	p := newPart(sec)
	var snap sampler.Snapshot
	again := false
	for i, l := range sec.lines {
		if listGPURE.MatchString(l) {
			for _, m := range listEntryRE.FindAllStringSubmatch(l, -1) {
				idx, _ := strconv.Atoi(m[1])
				if j := indexOf(snap.GPUs, idx); j >= 0 {
					if snap.GPUs[j].UUID == m[3] {
						continue
					}
					idx, again = freeIndex(snap.GPUs, idx), true
				}
				snap.GPUs = append(snap.GPUs, sampler.GPU{Index: idx, Name: m[2], UUID: m[3]})
				p.where(idx, "name", sec.first+i)
			}
			continue
		}
		if m := listMIGRE.FindStringSubmatch(l); m != nil && len(snap.GPUs) > 0 {
			g := &snap.GPUs[len(snap.GPUs)-1]
			n, _ := strconv.Atoi(m[2])
			g.MIG = true
			g.MIGDevices = append(g.MIGDevices, sampler.MIGDevice{Index: n, Profile: m[1], UUID: m[3]})
		}
	}
	if len(snap.GPUs) == 0 {
		return p.skip("no GPU lines")
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note(countGPUs(len(snap.GPUs)) + " (names and UUIDs)")
	if again {
		p.note("an index listed again with another UUID is another GPU (each srun task or node numbers its own from 0), numbered after the others")
	}
	return p
}

// queryArgRE finds the field list of a --query-gpu command line in a paste,
// so that rows printed with --format=csv,noheader can still be read.
var queryArgRE = lazy(`--query-gpu[= ]([A-Za-z0-9_.,]+)`)

// queryHeader returns the header the command on line l would have printed
// (without units), or "".
func queryHeader(l string) string {
	if !strings.Contains(l, "noheader") {
		return ""
	}
	m := queryArgRE.FindStringSubmatch(l)
	if m == nil {
		return ""
	}
	return strings.Join(strings.Split(strings.Trim(m[1], ","), ","), ", ")
}
