package importer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// DCGM's health watches log what they detect (nv-hostengine.log, a
// health monitor's log):
//
//	ERROR [..] [[Health]] Detected a WARNING in health system Thermal: 'Detected clocks event due to thermal violation in GPU 2. Verify ...
//
// Each line is read as a check among the node's DCGM results (category
// "Health", the watched system as its test) carrying DCGM's message, so the
// diagnosis maps the message as it maps a dcgmi diag table's
// (diagnose/evidence_dcgmdiag.go). Corpus: dcgm-health-thermal-violation-*.
var (
	dcgmHealthRE    = lazy(`Detected an? (WARNING|FAILURE|ERROR) in health system ([A-Za-z]+)\s*:\s*(.+)`)
	dcgmHealthGPURE = lazy(`(?i)\b(?:in|for|on) GPU (\d+)\b`)
)

const kindDCGMHealth = "DCGM health messages"

func isDCGMHealthLine(s string) bool { return dcgmHealthRE.MatchString(s) }

func parseDCGMHealth(sec *section) *part {
	p := newPart(sec)
	snap := sampler.Snapshot{}
	for i, l := range sec.lines {
		m := dcgmHealthRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		msg := strings.Trim(strings.TrimSpace(m[3]), "'`\"")
		gpu := -1
		if g := dcgmHealthGPURE.FindStringSubmatch(msg); g != nil {
			if n, err := strconv.Atoi(g[1]); err == nil && n < maxPictureGPUs {
				gpu = n
			}
		}
		res, kind := "fail", "error"
		if m[1] == "WARNING" {
			res, kind = "warn", "warning"
		}
		c := sampler.DiagCheck{Category: "Health", Test: m[2], Result: res, Messages: []sampler.DiagMessage{{Kind: kind, GPU: gpu, Text: msg}}}
		p.addCheck(&snap, c, gpu, sec.first+i)
	}
	if len(snap.Node.Diag) == 0 {
		return p.skip("no DCGM health message")
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note(fmt.Sprintf("%s on %s", sampler.Counted(len(snap.Node.Diag), "DCGM health message", "DCGM health messages"), countGPUs(len(snap.GPUs))))
	return p
}

// addCheck adds c, read from input line, to snap's checks; a GPU it names
// (gpu >= 0) is its GPU and one of the snapshot's, and the line is where
// its check was read.
func (p *part) addCheck(snap *sampler.Snapshot, c sampler.DiagCheck, gpu, line int) {
	if gpu >= 0 {
		c.GPUs = []int{gpu}
		if indexOf(snap.GPUs, gpu) < 0 {
			snap.GPUs = append(snap.GPUs, sampler.GPU{Index: gpu})
		}
		p.where(gpu, "diag", line)
	}
	snap.Node.Diag = append(snap.Node.Diag, c)
}
