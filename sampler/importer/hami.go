package importer

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/gpuscope/gpuscope/sampler"
)

// HAMi-core (Project-HAMi/HAMi-core, the CUDA interposer behind HAMi's
// Kubernetes GPU sharing) refuses an allocation that would take a
// container over its GPU memory limit, the pod's nvidia.com/gpumem, and
// logs it on stderr (src/allocator/allocator.c):
//
//	[HAMI-core ERROR (pid:30 thread=140382094939712 allocator.c:53)]: Device 0 OOM 3171158016 / 3145728000
//
// the container's CUDA device, the bytes the allocation would have brought
// it to, and the limit. The application then fails with an out-of-memory
// or an unrecognised CUDA error while the card itself may have memory
// free. HAMi-core's other lines (Initializing, Initialized, its INFO and
// Debug lines) are read with them and prove nothing.
// Corpus: hami-core-oom-*.
var (
	hamiOOMRE  = regexp.MustCompile(`\[HAMI-core ERROR[^\]]*\]:\s*Device (\d{1,3}) OOM (\d{1,20}) / (\d{1,20})\b`)
	hamiLineRE = regexp.MustCompile(`^\s*\[HAMI-core `)
)

const kindHAMiOOM = "HAMi-core memory limit"

func isHAMiLine(s string) bool { return hamiLineRE.MatchString(s) || hamiOOMRE.MatchString(s) }

// parseHAMiOOM reads each refused allocation as a fact of the node: the
// device number is the container's, not the node's, so no GPU is named.
func parseHAMiOOM(sec *section) *part {
	p := newPart(sec)
	var snap sampler.Snapshot
	wrapped := ""
	for i, l := range sec.lines {
		m := hamiOOMRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		dev, _ := strconv.Atoi(m[1])
		want, err1 := strconv.ParseFloat(m[2], 64)
		limit, err2 := strconv.ParseFloat(m[3], 64)
		if err1 != nil || err2 != nil || limit <= 0 {
			continue
		}
		if want >= 1<<63 {
			if wrapped == "" {
				wrapped = fmt.Sprintf("line %d: HAMi-core's usage counter wrapped below zero (%s bytes): its own accounting "+
					"is wrong, not a container over its GPU memory limit", sec.first+i, m[2])
			}
			continue
		}
		snap.Node.SliceOOM = append(snap.Node.SliceOOM, sampler.SliceOOM{Device: dev, Want: want, Limit: limit})
		p.where(-1, "slice_oom", sec.first+i)
	}
	if len(snap.Node.SliceOOM) == 0 {
		if wrapped != "" {
			return p.skip(wrapped)
		}
		return p.skip("no HAMi-core out-of-memory line")
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note(fmt.Sprintf("%s over a container's GPU memory limit", sampler.Counted(len(snap.Node.SliceOOM), "allocation refused", "allocations refused")))
	return p
}

// hamiOOMIn: a run of HAMi-core lines holds a refused allocation; a run
// without one (it started, it logged) is not claimed.
func hamiOOMIn(ls []string) bool {
	for _, l := range ls {
		if hamiOOMRE.MatchString(l) {
			return true
		}
	}
	return false
}
