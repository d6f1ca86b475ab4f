package importer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// `dcgmi nvlink --link-status`: each GPU's links as U (up), D (down),
// X (disabled) or _ (not supported), under its gpuId:
//
//	GPUs:
//	    gpuId 0:
//	        D D D D D D D D D D D D D D D D D D
//	NvSwitches:
//	    No NvSwitches found.
//
// A GPU with links Down is a failed check among the node's DCGM results
// (category "NVLink") with a message saying how many, so the diagnosis
// maps it as it maps a diag run's NvLink message. Corpus:
// dcgmi-nvlink-status-down-diag-r2-560-dcgm-issue-198.
var (
	nvlStatusGPURE   = lazy(`^\s*gpuId (\d+):\s*$`)
	nvlStatusLinksRE = lazy(`^\s*([UDX_](\s+[UDX_])*)\s*$`)
	nvlStatusOtherRE = lazy(`^\s*(GPUs:|NvSwitches:|No NvSwitches found\.?|physicalId \d+:|Key: Up=U.*)\s*$`)
)

const kindNVLinkStatus = "dcgmi nvlink --link-status"

// nvlStatusRun is the length of the link-status listing starting at ls[i]
// ("GPUs:" or a gpuId line followed by its links), 0 when none starts there.
func nvlStatusRun(ls []string, i int) int {
	j := i
	if strings.TrimSpace(ls[j]) == "GPUs:" {
		j++
	}
	if j+1 >= len(ls) || !nvlStatusGPURE.MatchString(ls[j]) || !nvlStatusLinksRE.MatchString(ls[j+1]) {
		return 0
	}
	n := j - i
	for ; i+n < len(ls); n++ {
		l := ls[i+n]
		if !nvlStatusGPURE.MatchString(l) && !nvlStatusLinksRE.MatchString(l) && !nvlStatusOtherRE.MatchString(l) && strings.TrimSpace(l) != "" {
			break
		}
	}
	return n
}

func parseNVLinkStatus(sec *section) *part {
	p := newPart(sec)
	snap := sampler.Snapshot{}
	gpu, down := -1, 0
	for i, l := range sec.lines {
		if m := nvlStatusGPURE.FindStringSubmatch(l); m != nil {
			gpu, _ = strconv.Atoi(m[1])
			if gpu < maxPictureGPUs && indexOf(snap.GPUs, gpu) < 0 {
				snap.GPUs = append(snap.GPUs, sampler.GPU{Index: gpu})
			}
			continue
		}
		if gpu < 0 || gpu >= maxPictureGPUs || !nvlStatusLinksRE.MatchString(l) {
			continue
		}
		states := strings.Fields(l)
		d := 0
		for _, s := range states {
			if s == "D" {
				d++
			}
		}
		if d > 0 {
			down++
			msg := fmt.Sprintf("GPU %d: %d of %d NvLink links Down", gpu, d, len(states))
			snap.Node.Diag = append(snap.Node.Diag, sampler.DiagCheck{Category: "NVLink", Test: "link status", Result: "fail", GPUs: []int{gpu},
				Messages: []sampler.DiagMessage{{Kind: "error", GPU: gpu, Text: msg}}})
			p.where(gpu, "diag", sec.first+i)
		}
		gpu = -1 // the next GPU names itself
	}
	if len(snap.GPUs) == 0 {
		return p.skip("no GPU in the link status")
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note(fmt.Sprintf("NVLink status of %s, %d with links Down", countGPUs(len(snap.GPUs)), down))
	return p
}

// `nvidia-smi nvlink -s`: under each GPU's -L line, each link's speed or
// "<inactive>", or NVML's "Unable to retrieve NVLink information as all
// links are inActive". Read by parseNVLinkSpeed (nvlinkspeed.go), which
// names a link down only where the listing proves it should be up.
var nvlSpeedRE = lazy(`^\s*(Link (\d+): (<inactive>|[\d.]+ GB/s)|NVML: Unable to retrieve NVLink information)`)

const kindNVLinkSpeed = "nvidia-smi nvlink -s"

// nvlSpeedRun is the length of the listing from a GPU line followed by a
// link line, 0 when none starts at ls[i].
func nvlSpeedRun(ls []string, i int) int {
	if i+1 >= len(ls) || !listEntryRE.MatchString(ls[i]) || !nvlSpeedRE.MatchString(ls[i+1]) {
		return 0
	}
	n := 0
	for i+n < len(ls) && (nvlSpeedRE.MatchString(ls[i+n]) || listEntryRE.MatchString(ls[i+n])) {
		n++
	}
	return n
}
