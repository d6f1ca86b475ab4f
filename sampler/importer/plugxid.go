package importer

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// The Xids Kubernetes' GPU plugins log when NVML hands them a critical-Xid
// event (nvmlEventTypeXidCriticalError, event type 8, its data the Xid)
// before they mark the device unhealthy: the device plugin's
// "XidCriticalError: Xid=%d on Device=%s" (then ", the device will go
// unhealthy." or "; marking device as unhealthy.") and the DRA driver's
// "Sending unhealthy notification for device %s due to event type: 8 and
// event data: %d". The device is named by its UUID (a GPU's, or a MIG
// device's), so the Xid is filed under a GPU known by that UUID; the
// catalogue then says whether the code is the hardware's or an
// application's ([nvidia-xid]); the event type is [nvml-api]'s.
var (
	plugXidRE = regexp.MustCompile(`XidCriticalError: Xid=(\d+) on Device=((?:GPU|MIG)-[0-9A-Fa-f-]+)` +
		`|device ((?:GPU|MIG)-[0-9A-Fa-f-]+) due to event type: 8 and event data: (\d+)`)
	goLogStampRE = regexp.MustCompile(`^(\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) `)
)

const kindPluginXid = "GPU plugin Xid events"

// isPluginXidLine tries the pattern only on lines holding one of its
// fixed words: it runs on every line a paste has not claimed.
func isPluginXidLine(s string) bool {
	return (strings.Contains(s, "XidCriticalError") || strings.Contains(s, "event type: 8")) && plugXidRE.MatchString(s)
}

// parsePluginXid reads each event as an Xid on the device it names; one
// device's code is one event however often the plugin repeats it (seen is
// shared by the input's sections).
func parsePluginXid(sec *section, seen map[string]bool) *part {
	p := newPart(sec)
	snap := sampler.Snapshot{}
	xids := 0
	for i, l := range sec.lines {
		m := plugXidRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		code, uuid := m[1], m[2]
		if uuid == "" {
			code, uuid = m[4], m[3]
		}
		n, err := strconv.ParseUint(code, 10, 64)
		key := "plugin xid " + code + " " + uuid
		if err != nil || seen[key] {
			continue
		}
		seen[key] = true
		var at time.Time
		if s := goLogStampRE.FindStringSubmatch(l); s != nil {
			at, _ = time.Parse("2006/01/02 15:04:05", s[1])
		}
		if !at.IsZero() && !p.timed {
			p.setTime(at, sec.first+i)
		}
		j := -1
		for k := range snap.GPUs {
			if snap.GPUs[k].UUID == uuid {
				j = k
			}
		}
		if j < 0 {
			snap.GPUs = append(snap.GPUs, sampler.GPU{Index: -1 - len(snap.GPUs), UUID: uuid})
			j = len(snap.GPUs) - 1
		}
		snap.GPUs[j].Xids = append(snap.GPUs[j].Xids, sampler.Xid{Time: at, Code: n})
		p.where(snap.GPUs[j].Index, "xids", sec.first+i)
		xids++
	}
	if xids == 0 {
		return p.skip("repeated plugin Xid events counted once (read in an earlier section)")
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note(fmt.Sprintf("%s a GPU plugin marked unhealthy for, on %s named by UUID",
		sampler.Counted(xids, "Xid", "Xids"), countGPUs(len(snap.GPUs))))
	return p
}
