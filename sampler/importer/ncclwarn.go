package importer

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// NCCL's warnings about NVLink from a job's log:
//
//	[..] host:420:437 [5] transport/nvls.cc:379 (nvlsAllocateMem) NCCL WARN Failed to bind NVLink SHARP (NVLS) Multicast memory ... : CUDA error 401 '...'
//
// A job that cannot set up NVLink SHARP (NVLS) multicast or an NVLink
// transport hit the node's NVLink in a bad state, which dcgmi diag does not
// exercise (its tests run on one GPU at a time). Each line is read as a
// failed NVLink check of the GPU in brackets (NCCL prints its CUDA device
// number there: the nvidia-smi index unless CUDA_VISIBLE_DEVICES reorders),
// carrying NCCL's message, so the diagnosis maps it as it maps DCGM's NVLink
// messages (diagnose/evidence_dcgmdiag.go). Other NCCL warnings (network,
// memory, timeouts) prove nothing about a GPU and stay unread.
// Corpus: nccl-warn-nvls-*.
var (
	ncclWarnRE   = lazy(`\bNCCL WARN\s+(.+)`)
	ncclNVLinkRE = lazy(`(?i)\bNVLS\b|NVLink|\bnvls\.cc\b`)
	ncclDevRE    = lazy(`:\d+:\d+ \[(\d{1,3})\] `)
	ncclTimeRE   = lazy(`^\s*\[(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d)\]`) // a launcher's stamp, as the host's clock printed it
)

const kindNCCLWarn = "NCCL NVLink warnings"

func isNCCLWarnLine(s string) bool { return ncclWarnRE.MatchString(s) && ncclNVLinkRE.MatchString(s) }

func parseNCCLWarn(sec *section) *part {
	p := newPart(sec)
	snap := sampler.Snapshot{}
	for i, l := range sec.lines {
		m := ncclWarnRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if t := ncclTimeRE.FindStringSubmatch(l); t != nil && !p.timed {
			if at, err := parseTime(t[1], time.UTC); err == nil {
				p.setTime(at, sec.first+i)
			}
		}
		gpu := -1
		if d := ncclDevRE.FindStringSubmatch(l); d != nil {
			if n, err := strconv.Atoi(d[1]); err == nil && n < maxPictureGPUs {
				gpu = n
			}
		}
		c := sampler.DiagCheck{Category: "NCCL", Test: "NVLink", Result: "fail",
			Messages: []sampler.DiagMessage{{Kind: "error", GPU: gpu, Text: strings.TrimSpace(m[1])}}}
		p.addCheck(&snap, c, gpu, sec.first+i)
	}
	if len(snap.Node.Diag) == 0 {
		return p.skip("no NCCL NVLink warning")
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note(fmt.Sprintf("%s on %s", sampler.Counted(len(snap.Node.Diag), "NCCL NVLink warning", "NCCL NVLink warnings"), countGPUs(len(snap.GPUs))))
	return p
}
