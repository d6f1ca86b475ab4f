package importer

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// CUDA initialisation failures an application prints while nvidia-smi
// works, as CUDA's samples, PyTorch and cuInit callers word them:
//
//	cudaGetDeviceCount returned 802
//	-> system not yet initialized
//	RuntimeError: cuda runtime error (802) : system not yet initialized at ...
//	CUDA error at bandwidthTest.cu:256 code=802(cudaErrorSystemNotReady)
//
// 802 (cudaErrorSystemNotReady, CUDA_ERROR_SYSTEM_NOT_READY) is the NVSwitch
// fabric not yet set up: docs/playbook/fabric_manager.md.
var cudaInitRE = regexp.MustCompile(`(?i)system not yet initiali[sz]ed|cudaErrorSystemNotReady|CUDA_ERROR_SYSTEM_NOT_READY|` +
	`(returned|error|code=|\()\s*802\b`)

// isCUDAInitLine: a line of such a failure, or the "-> why" line CUDA's
// samples print under the code.
func isCUDAInitLine(s string) bool {
	t := strings.TrimSpace(s)
	return cudaInitRE.MatchString(t) || strings.HasPrefix(t, "-> ") && strings.Contains(t, "initiali")
}

// parseCUDAInit reads the failure as a fact of the node: no GPU is named.
func parseCUDAInit(sec *section) *part {
	p := newPart(sec)
	for i, l := range sec.lines {
		if cudaInitRE.MatchString(l) {
			p.where(-1, "cuda_error", sec.first+i)
			snap := sampler.Snapshot{Node: sampler.Node{CUDAError: "802: system not yet initialized (" + strings.TrimSpace(l) + ")"}}
			p.snaps = []sampler.Snapshot{snap}
			p.note(fmt.Sprintf("CUDA initialisation failed with error 802 (line %d)", sec.first+i))
			return p
		}
	}
	return p.skip("no CUDA error code")
}
