package nvmlsource

import (
	"fmt"
	"strings"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/gpuscope/gpuscope/sampler"
)

// fail is a call that failed, with an error other than the ones that are
// data (not supported, no permission), for the first time on a GPU.
type fail struct {
	c   call
	ret nvml.Return
}

// manyFails: this many fields failing with one error in one tick is the GPU
// failing, not a field; it is said in one line.
const manyFails = 4

// failLines words this tick's new failures: one line per field, or one for
// the GPU when many fields failed with the same error. Every call of a
// container whose device access the host revoked answers UNKNOWN
// (docs/driver-compatibility.md, "revoked").
func (g *gpuReader) failLines() []string {
	if len(g.fails) == 0 {
		return nil
	}
	var lines []string
	byRet := map[nvml.Return]int{}
	for _, f := range g.fails {
		byRet[f.ret]++
	}
	summarised := map[nvml.Return]bool{}
	for _, f := range g.fails {
		if byRet[f.ret] < manyFails {
			lines = append(lines, fmt.Sprintf("GPU %d: reading %s failed (NVML %s); shown as n/a while it fails",
				g.index, strings.Join(callFields[f.c], ", "), f.ret.Error()))
			continue
		}
		if summarised[f.ret] {
			continue
		}
		summarised[f.ret] = true
		line := fmt.Sprintf("GPU %d: %s with NVML %s; shown as n/a while they fail", g.index, sampler.Counted(byRet[f.ret], "reading fails", "readings fail"), f.ret.Error())
		if f.ret == nvml.ERROR_UNKNOWN {
			line += " — in a container this is a GPU whose device access the host took back " +
				"(`systemctl daemon-reload` on a systemd host): restart the container"
		}
		lines = append(lines, line)
	}
	return lines
}

// absentLine says, once per call for the whole node, which readings this
// driver has no function for (Guarded answers FUNCTION_NOT_FOUND instead of
// the process ending: docs/driver-compatibility.md, "missing symbol").
func (s *Source) absentLine() string {
	var fields []string
	for _, g := range s.gpus {
		for _, c := range g.newAbsent {
			if !s.absentSaid[c] {
				s.absentSaid[c] = true
				fields = append(fields, callFields[c]...)
			}
		}
		g.newAbsent = g.newAbsent[:0]
	}
	if len(fields) == 0 {
		return ""
	}
	return fmt.Sprintf("driver %s has no NVML function for %s: shown as n/a (%s); a newer driver has them",
		s.node.Driver, strings.Join(fields, ", "), reasonNotInDriver)
}
