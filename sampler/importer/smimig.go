package importer

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// `nvidia-smi mig -lgi`, `-lci` and `-lgip` (and `-lcip`): boxes headed
// "GPU instances:", "Compute instances:", "GPU instance profiles:" with
// one row per instance or profile:
//
//	|   0  MIG 1g.10gb         19        9          2:1     |            -lgi: GPU, profile, profile id, GI id, placement
//	|   0      1       MIG 3g.20gb          2         0          0:3     | -lci: GPU, GI id, profile, profile id, CI id, placement
//	|   0  MIG 1g.10gb       19     0/7        9.50       No     14     0     0   |   -lgip: GPU, profile, id, free/total, GiB ...
//	|   0      9       MIG 1g.5gb           0*     0/1           14        0     0     0   |   -lcip: GPU, GI id, profile, id (* default), free/total ...
//
// Each listing needs MIG mode on (nvidia-smi answers "No MIG-enabled
// devices found" otherwise), so every GPU it names is MIG-enabled.
var (
	migHeadRE = lazy(`^\|\s*(GPU instances|Compute instances|GPU instance profiles|Compute instance profiles):`)
	migGIRE   = lazy(`^\|\s*(\d{1,3})\s+MIG\s+(\S+)(?:\s+(\d+)\s+(\d+)\s+(\d+):(\d+))?`)
	migCIRE   = lazy(`^\|\s*(\d{1,3})\s+(\d+)\s+MIG\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+):(\d+)`)
	migGIPRE  = lazy(`^\|\s*(\d{1,3})\s+(?:(\d+)\s+)?MIG\s+(\S+)\s+(\d+)\*?\s+(\d+)/(\d+)`) // -lcip: a GI id before the profile
	migSlice  = lazy(`^(\d+)g\.`)
)

const kindMIG = "nvidia-smi mig -lgi/-lci/-lgip"

// migRun: a box whose first lines carry a listing's heading.
func migRun(ls []string, i int) int {
	for j := i; j < len(ls) && j < i+3; j++ {
		if migHeadRE.MatchString(strings.TrimSpace(ls[j])) {
			return tableRun(ls, i)
		}
	}
	return 0
}

// migLists is what the listings of one section say, per GPU.
type migLists struct {
	gis      map[int][]sampler.MIGDevice // GPU -> GPU instances (-lgi)
	cis      map[int][]sampler.MIGDevice // GPU -> compute instances (-lci)
	profiles map[int][]string            // GPU -> "1g.10gb 0/7 free" (-lgip)
	gpus     map[int]bool
}

// parseMIG reads the listings into MIG-enabled GPUs whose MIG devices
// are the compute instances (-lci), or the GPU instances where no compute
// instance is listed (compute instance -1: not in the input).
func parseMIG(sec *section) *part {
	p := newPart(sec)
	ml := migLists{gis: map[int][]sampler.MIGDevice{}, cis: map[int][]sampler.MIGDevice{}, profiles: map[int][]string{}, gpus: map[int]bool{}}
	head := ""
	for k, l := range sec.lines {
		t := strings.TrimSpace(l)
		if m := migHeadRE.FindStringSubmatch(t); m != nil {
			head = m[1]
			continue
		}
		if gpu := ml.row(head, t); gpu >= 0 {
			p.where(gpu, "mig", sec.first+k)
		}
	}
	if len(ml.gpus) == 0 {
		return p.skip("a MIG listing with no instance or profile row")
	}
	var snap sampler.Snapshot
	var ids []int
	for g := range ml.gpus {
		ids = append(ids, g)
	}
	sort.Ints(ids)
	devs := 0
	for _, g := range ids {
		d := ml.cis[g]
		if len(d) == 0 {
			d = ml.gis[g]
		}
		for i := range d {
			d[i].Index = i // the listing's order: nvidia-smi's MIG device index is not in it
		}
		devs += len(d)
		snap.GPUs = append(snap.GPUs, sampler.GPU{Index: g, MIG: true, MIGDevices: d})
		if pr := ml.profiles[g]; len(pr) > 0 {
			p.note(fmt.Sprintf("GPU %d instance profiles (free/total): %s", g, strings.Join(pr, ", ")))
		}
	}
	p.snaps = []sampler.Snapshot{snap}
	p.notes = append([]string{fmt.Sprintf("MIG layout: %s MIG-enabled, %d instances listed", countGPUs(len(ids)), devs)}, p.notes...)
	return p
}

// row reads one listing row under head; the GPU it names, or -1.
func (ml *migLists) row(head, t string) int {
	switch head {
	case "Compute instances":
		if m, n := migMatch(migCIRE, t, 1, 2, 4, 5); n != nil {
			ml.cis[n[0]] = append(ml.cis[n[0]], sampler.MIGDevice{GPUInstance: n[1], ComputeInstance: n[3], Profile: m[3], SMSlices: slices(m[3])})
			return ml.seen(n[0])
		}
	case "GPU instance profiles", "Compute instance profiles":
		if m, n := migMatch(migGIPRE, t, 1); n != nil {
			pr := m[3] + " " + m[5] + "/" + m[6]
			if m[2] != "" { // -lcip: per GPU instance
				pr = "GI " + m[2] + " " + pr
			}
			ml.profiles[n[0]] = append(ml.profiles[n[0]], pr)
			return ml.seen(n[0])
		}
	case "GPU instances":
		if m, n := migMatch(migGIRE, t, 1); n != nil {
			if gi := atoiAll(m[4]); gi != nil { // a row cut after the profile still names its GPU
				ml.gis[n[0]] = append(ml.gis[n[0]], sampler.MIGDevice{GPUInstance: gi[0], ComputeInstance: -1, Profile: m[2], SMSlices: slices(m[2])})
			}
			return ml.seen(n[0])
		}
	}
	return -1
}

func (ml *migLists) seen(gpu int) int {
	ml.gpus[gpu] = true
	return gpu
}

// migMatch matches t and parses the groups at idx, the first a GPU index
// within a node's count; nil numbers when it does not match.
func migMatch(re *lazyRE, t string, idx ...int) ([]string, []int) {
	m := re.FindStringSubmatch(t)
	if m == nil {
		return nil, nil
	}
	fs := make([]string, len(idx))
	for i, k := range idx {
		fs[i] = m[k]
	}
	n := atoiAll(fs...)
	if n == nil || n[0] >= maxPictureGPUs {
		return nil, nil
	}
	return m, n
}

// slices is the compute slices a profile name gives ("3g.40gb" -> 3).
func slices(profile string) int {
	if m := migSlice.FindStringSubmatch(profile); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// atoiAll parses every field, nil if one is not a number.
func atoiAll(fs ...string) []int {
	out := make([]int, len(fs))
	for i, f := range fs {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil
		}
		out[i] = n
	}
	return out
}
