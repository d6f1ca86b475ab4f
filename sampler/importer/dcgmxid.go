package importer

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// DCGM's message for an Xid it saw while it watched a GPU, its catalogue's
// DCGM_FR_XID_ERROR (dcgmlib/dcgm_errors.h: "Detected XID %u for GPU %u"),
// wherever a tool logs it outside dcgmi's own table (a preflight or health
// checker's JSON lines); in a dcgmi diag table the table's reader files it
// under its check (dcgmdiag.go).
//
//	preflight-dcgm-diag {"event": "Test fail", ..., "detail": "Detected XID 45 for GPU 0 Please consult ..."}
//
// The GPU is DCGM's index, which is NVML's (and nvidia-smi's): the Xid is
// filed under that index, as a kernel line's under its PCI address.
var (
	dcgmXidRE   = lazy(`Detected XID (\d+) for GPU (\d+)`)
	jsonStampRE = lazy(`"(?:timestamp|time|ts)"\s*:\s*"(\d{4}-\d\d-\d\dT[^"]+)"`)
)

const kindDCGMXid = "DCGM Xid messages"

func isDCGMXidLine(s string) bool { return dcgmXidRE.MatchString(s) }

// parseDCGMXid reads each message as an Xid on the GPU it names. A tool
// repeats DCGM's message (the test's detail, then the health event it
// sends for it): one GPU's code is one event however often it is
// repeated in the input (seen is shared by its sections).
func parseDCGMXid(sec *section, seen map[string]bool) *part {
	return parseXids(sec, seen, "DCGM", func(l string) (out [][3]string) {
		for _, m := range dcgmXidRE.FindAllStringSubmatch(l, -1) {
			out = append(out, [3]string{m[1], m[2], ""})
		}
		return out
	})
}

// parseXids files each Xid find reports in a line (code, then the GPU's
// index or "", then its UUID or "") under its GPU, once per GPU and code
// (seen is shared by the input's sections); who names the reporter.
func parseXids(sec *section, seen map[string]bool, who string, find func(string) [][3]string) *part {
	p := newPart(sec)
	snap := sampler.Snapshot{}
	xids, dups := 0, 0
	for i, l := range sec.lines {
		for _, m := range find(l) {
			code, _ := strconv.ParseUint(m[0], 10, 64)
			idx, err := strconv.Atoi(m[1])
			if m[2] != "" {
				idx, err = -1-len(snap.GPUs), nil
			}
			if err != nil || idx >= maxPictureGPUs {
				continue
			}
			key := fmt.Sprintf("%s xid %d gpu %s%s", who, code, m[1], m[2])
			if seen[key] {
				dups++
				continue
			}
			seen[key] = true
			var at time.Time
			if s := jsonStampRE.FindStringSubmatch(l); s != nil {
				at, _ = time.Parse(time.RFC3339Nano, s[1])
			} else if s := goLogStampRE.FindStringSubmatch(l); s != nil {
				at, _ = time.Parse("2006/01/02 15:04:05", s[1])
			}
			if !at.IsZero() && !p.timed { // the log's own stamp dates the snapshot
				p.setTime(at, sec.first+i)
			}
			j := indexOf(snap.GPUs, idx)
			for k := range snap.GPUs {
				if m[2] != "" && snap.GPUs[k].UUID == m[2] {
					j = k
				}
			}
			if j < 0 {
				snap.GPUs = append(snap.GPUs, sampler.GPU{Index: idx, UUID: m[2]})
				j = len(snap.GPUs) - 1
			}
			snap.GPUs[j].Xids = append(snap.GPUs[j].Xids, sampler.Xid{Time: at, Code: code})
			p.where(snap.GPUs[j].Index, "xids", sec.first+i)
			xids++
		}
	}
	if xids == 0 {
		return p.skip(sampler.Counted(dups, "repeated "+who+" Xid message", "repeated "+who+" Xid messages") + " counted once (read in an earlier section)")
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note(fmt.Sprintf("%s %s detected on %s", sampler.Counted(xids, "Xid", "Xids"), who, countGPUs(len(snap.GPUs))))
	if dups > 0 {
		p.note(sampler.Counted(dups, "repeated message", "repeated messages") + " counted once")
	}
	return p
}
